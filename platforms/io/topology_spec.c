/* netsched — a topology from what names it (topology_spec.h). */
#include "platforms/io/topology_spec.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/read_options.h"
#include "platforms/model/error.h"
#include "platforms/routing/spanning.h"

/**
 * \function ns_topology_spec_is_generator
 * \brief Whether a topology's name is a generator (gen:SPEC), not a file.
 *
 * \param spec What names the topology.
 * \return TRUE when it starts with "gen:".
 * \errors none.
 * \complexity O(1).
 * \source docs/topology-format.md, "Generated topologies"; docs/scenarios.md (file = ...).
 */
gboolean ns_topology_spec_is_generator(const char *spec)
{
  return g_str_has_prefix(spec, "gen:");
}

/**
 * \function ns_topology_spec_resolve
 * \brief A topology's name as written in a file of a directory: a relative FILE joined to it.
 *
 * \param spec What names the topology (FILE or gen:SPEC).
 * \param dir The directory of the file that names it (a scenario's).
 * \return gen:SPEC and absolute paths unchanged, else dir/FILE; newly allocated (g_free).
 * \errors none.
 * \complexity O(length of spec + length of dir).
 * \source docs/scenarios.md ("relative to this file, or gen:SPEC").
 */
char *ns_topology_spec_resolve(const char *spec, const char *dir)
{
  if (ns_topology_spec_is_generator(spec) || g_path_is_absolute(spec))
    return g_strdup(spec);
  return g_build_filename(dir, spec, NULL);
}

static NsTopology *load_graph(const char *spec, const NsTopologySpecOptions *o,
                              GError **error)
{
  if (ns_topology_spec_is_generator(spec))
    return ns_shape_from_spec(spec + 4, error);
  NsReadOptions read;
  if (!ns_read_options_parse(o->format, &read, error))
    return NULL;
  return ns_topology_load_with(spec, &read, o->warn, o->warn_data, error);
}

/**
 * \function ns_topology_from_spec
 * \brief The finalized topology a name means: a FILE in a format, or gen:SPEC, and a spanning tree.
 *
 * The same for -T (with -f and --spanning), a scenario's [topology NAME] and a sweep over
 * files. The spanning method is checked before anything is read or generated; the format
 * applies to files only.
 *
 * \param spec FILE or gen:SPEC (NULL: an error).
 * \param options The format (NULL: guessed from the file's name and contents), the spanning tree
 *        (NULL: the graph itself) and the readers' warning function; NULL: all of these unset.
 * \param error Set on failure (see errors).
 * \return The topology (ns_topology_free() it), or NULL.
 * \errors NS_ERROR_INPUT "no topology given" for a NULL spec, "format 'TEXT': ..." for a bad
 *        format, "--spanning TEXT: ..." or "--spanning: ..." for a bad spanning method or an
 *        unknown root, "the METHOD spanning tree of SOURCE cannot carry tree routing (...)" when
 *        the tree leaves a machine with several links, "FILE: topology larger than the N MiB
 *        limit", "FILE:LINE: what is wrong" from the readers, "gen:SPEC: what is wrong" from the
 *        generators; NS_ERROR_IO when the file cannot be read; NS_ERROR_UNSUPPORTED for a format
 *        without a reader (ns_topology_load_limited()).
 * \complexity that of the reader or the generator, plus ns_topology_spanning_tree()'s
 *        O(|V| + |E|) (kruskal O(|E| log |E|)) for a spanning tree.
 * \source docs/topology-format.md; docs/scenarios.md; docs/security.md (one meaning of FILE,
 *        -f, gen:SPEC and --spanning).
 */
NsTopology *ns_topology_from_spec(const char *spec, const NsTopologySpecOptions *options,
                                  GError **error)
{
  static const NsTopologySpecOptions none = { 0 };
  const NsTopologySpecOptions *o = options != NULL ? options : &none;
  if (spec == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "no topology given");
    return NULL;
  }
  NsSpanSpec span;
  if (o->spanning != NULL && !ns_span_spec_parse(o->spanning, &span, error))
    return NULL;
  NsTopology *t = load_graph(spec, o, error);
  if (t != NULL && o->spanning != NULL) {
    NsTopology *tree = ns_topology_spanning_tree(t, &span, error);
    ns_topology_free(t);
    t = tree;
  }
  if (o->spanning != NULL)
    ns_span_spec_clear(&span);
  return t;
}
