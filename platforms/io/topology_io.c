/* netsched — topology formats: names, guessing, loading and saving. */
#include "platforms/model/error.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/io/topology_io.h"
#include "platforms/io/topology_simgrid.h"

#include <string.h>

static gboolean has_suffix(const char *s, const char *suffix)
{
  gsize n = strlen(s), k = strlen(suffix);
  return n >= k && g_ascii_strcasecmp(s + n - k, suffix) == 0;
}

/**
 * \function ns_topo_format_guess
 * \brief A topology file's format from its name.
 *
 * *.graphml and *.xml: GraphML (the loaders read a guessed GraphML file
 * whose root element is <platform> as SimGrid); topology.conf and *.conf:
 * Slurm; anything else: native.
 *
 * \param path The file name.
 * \return The format.
 * \errors none.
 * \complexity O(length of path).
 * \source docs/topology-format.md.
 */
NsTopoFormat ns_topo_format_guess(const char *path)
{
  if (path == NULL)
    return NS_TOPO_FORMAT_NATIVE;
  char *base = g_path_get_basename(path);
  NsTopoFormat f = NS_TOPO_FORMAT_NATIVE;
  if (has_suffix(base, ".graphml") || has_suffix(base, ".xml"))
    f = NS_TOPO_FORMAT_GRAPHML;
  else if (strcmp(base, "topology.conf") == 0 || has_suffix(base, ".conf"))
    f = NS_TOPO_FORMAT_SLURM;
  g_free(base);
  return f;
}

/**
 * \function ns_topology_load_limited
 * \brief Reads a topology file of at most `max_bytes` bytes.
 *
 * The file is read through the bounded reader (ns_input_read_file():
 * regular files, pipes, FIFOs and character devices alike, a directory is
 * refused), then parsed in memory by the reader of `format`.
 *
 * \param path The file.
 * \param format Its format; NS_TOPO_FORMAT_AUTO guesses from the name
 *        (ns_topo_format_guess()).
 * \param max_bytes The size limit (ns_topology_load() uses
 *        NS_TOPOLOGY_MAX_BYTES).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors NS_ERROR_IO when the file cannot be read, NS_ERROR_INPUT
 *         "path: topology larger than the N MiB limit" or a reader's
 *         "path:line: what is wrong", NS_ERROR_UNSUPPORTED for a format
 *         that has no reader.
 * \complexity O(min(file size, max_bytes)) for reading, then the reader's
 *         (linear in the input and the expanded hostlists).
 * \source docs/topology-format.md, "Input: encoding and limits".
 */
/* A SimGrid platform and a GraphML file may both be called *.xml: the
 * root element decides (the first of <platform or <graphml). */
static NsTopoFormat sniff_xml(const char *text, gsize len)
{
  gsize n = MIN(len, (gsize)65536);
  const char *platform = g_strstr_len(text, (gssize)n, "<platform");
  const char *graphml = g_strstr_len(text, (gssize)n, "<graphml");
  return platform != NULL && (graphml == NULL || platform < graphml) ? NS_TOPO_FORMAT_SIMGRID
                                                                     : NS_TOPO_FORMAT_GRAPHML;
}

/* The readers' common path: format, bounded read, parse. */
static NsTopology *load(const char *path, const NsReadOptions *o, gsize max_bytes,
                        NsWarnFunc warn, void *warn_data, GError **error)
{
  g_return_val_if_fail(path != NULL, NULL);
  NsTopoFormat format = o->format;
  gboolean guessed = format == NS_TOPO_FORMAT_AUTO;
  if (guessed)
    format = ns_topo_format_guess(path);
  if (format != NS_TOPO_FORMAT_GRAPHML && format != NS_TOPO_FORMAT_NATIVE &&
      format != NS_TOPO_FORMAT_SLURM && format != NS_TOPO_FORMAT_SIMGRID) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, path, 0,
                    "cannot read the %s format (readers: native, slurm, graphml, simgrid)",
                    ns_topo_format_name(format));
    return NULL;
  }
  char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, max_bytes, "topology", &text, &len, error)) {
    if (error != NULL)
      ns_input_escape_error(*error); /* the path may hold anything */
    return NULL;
  }
  if (guessed && format == NS_TOPO_FORMAT_GRAPHML)
    format = sniff_xml(text, len);
  NsTopology *t;
  if (format == NS_TOPO_FORMAT_GRAPHML)
    t = ns_topology_parse_graphml_with(path, text, len, o, warn, warn_data, error);
  else if (format == NS_TOPO_FORMAT_NATIVE)
    t = ns_topology_parse_native(path, text, len, warn, warn_data, error);
  else if (format == NS_TOPO_FORMAT_SIMGRID)
    t = ns_topology_parse_simgrid(path, text, len, warn, warn_data, error);
  else
    t = ns_topology_parse_slurm_with(path, text, len, o, warn, warn_data, error);
  g_free(text);
  return t;
}

NsTopology *ns_topology_load_limited(const char *path, NsTopoFormat format, gsize max_bytes,
                                     NsWarnFunc warn, void *warn_data, GError **error)
{
  NsReadOptions o;
  ns_read_options_init(&o);
  o.format = format;
  return load(path, &o, max_bytes, warn, warn_data, error);
}

/**
 * \function ns_topology_load_slurm
 * \brief Reads a Slurm topology.conf file whose LinkSpeed=1 is `link_unit`.
 *
 * \param path The file.
 * \param link_unit Bit/s of LinkSpeed=1; 0 ignores LinkSpeed (a warning).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL.
 * \errors Those of ns_topology_load_limited().
 * \complexity That of ns_topology_load_limited().
 * \source docs/topology-format.md, "Slurm topology.conf".
 */
NsTopology *ns_topology_load_slurm(const char *path, double link_unit, NsWarnFunc warn,
                                   void *warn_data, GError **error)
{
  NsReadOptions o;
  ns_read_options_init(&o);
  o.format = NS_TOPO_FORMAT_SLURM;
  o.link_unit = link_unit;
  return load(path, &o, NS_TOPOLOGY_MAX_BYTES, warn, warn_data, error);
}

/**
 * \function ns_topology_load_with
 * \brief Reads a topology file with a format's options (read_options.h).
 *
 * ns_topology_load() with `o->format` and the options of that format.
 *
 * \param path The file.
 * \param o The format and its options (ns_read_options_parse()).
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors Those of ns_topology_load_limited().
 * \complexity That of ns_topology_load_limited().
 * \source docs/topology-format.md, the format options table.
 */
NsTopology *ns_topology_load_with(const char *path, const NsReadOptions *o, NsWarnFunc warn,
                                  void *warn_data, GError **error)
{
  return load(path, o, NS_TOPOLOGY_MAX_BYTES, warn, warn_data, error);
}

/**
 * \function ns_topology_load
 * \brief Reads a topology file of at most NS_TOPOLOGY_MAX_BYTES (256 MiB).
 *
 * ns_topology_load_limited() with the readers' limit.
 *
 * \param path The file.
 * \param format Its format; NS_TOPO_FORMAT_AUTO guesses from the name.
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors Those of ns_topology_load_limited().
 * \complexity That of ns_topology_load_limited().
 * \source docs/topology-format.md.
 */
NsTopology *ns_topology_load(const char *path, NsTopoFormat format, NsWarnFunc warn,
                             void *warn_data, GError **error)
{
  return ns_topology_load_limited(path, format, NS_TOPOLOGY_MAX_BYTES, warn, warn_data,
                                  error);
}

/**
 * \function ns_topology_read_graphml
 * \brief Reads a GraphML file of at most NS_TOPOLOGY_MAX_BYTES.
 *
 * ns_topology_load() in the GraphML format; see ns_topology_parse_graphml()
 * for what is accepted.
 *
 * \param path The file.
 * \param warn, warn_data Receive non-fatal findings (may be NULL).
 * \param error Set on failure (see errors).
 * \return The finalized topology, or NULL on error.
 * \errors Those of ns_topology_load_limited() and ns_topology_parse_graphml().
 * \complexity That of ns_topology_parse_graphml().
 * \source docs/topology-format.md, "GraphML".
 */
NsTopology *ns_topology_read_graphml(const char *path, NsWarnFunc warn, void *warn_data,
                                     GError **error)
{
  return ns_topology_load_limited(path, NS_TOPO_FORMAT_GRAPHML, NS_TOPOLOGY_MAX_BYTES, warn,
                                  warn_data, error);
}

/**
 * \function ns_topology_save
 * \brief Writes a topology in a format.
 *
 * \param topo A finalized topology.
 * \param format NS_TOPO_FORMAT_NATIVE, _DOT, _GRAPHML or _SIMGRID.
 * \param out The stream (flushed and checked).
 * \param error Set on failure (see errors).
 * \return TRUE when everything was written.
 * \errors NS_ERROR_IO when the stream cannot be written, NS_ERROR_UNSUPPORTED
 *         for a format without a writer or what it cannot carry (a node
 *         name with control characters; routes in GraphML).
 * \complexity O(|V| + |E| + explicit routes) (SimGrid: plus its routes).
 * \source docs/topology-format.md.
 */
gboolean ns_topology_save(const NsTopology *topo, NsTopoFormat format, FILE *out,
                          GError **error)
{
  switch (format) {
  case NS_TOPO_FORMAT_AUTO:
  case NS_TOPO_FORMAT_NATIVE:
    return ns_topology_write_native(topo, out, error);
  case NS_TOPO_FORMAT_DOT:
    return ns_topology_write_dot(topo, out, error);
  case NS_TOPO_FORMAT_GRAPHML:
    return ns_topology_write_graphml(topo, out, error);
  case NS_TOPO_FORMAT_SIMGRID:
    return ns_topology_write_simgrid(topo, out, error);
  default:
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "cannot write the %s format (writers: native, dot, graphml, simgrid)",
                    ns_topo_format_name(format));
    return FALSE;
  }
}
