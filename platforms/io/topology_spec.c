/* netsched — a topology from what names it (topology_spec.h). */
#include "platforms/io/topology_spec.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/read_options.h"
#include "platforms/model/error.h"
#include "platforms/routing/spanning.h"

gboolean ns_topology_spec_is_generator(const char *spec)
{
  return g_str_has_prefix(spec, "gen:");
}

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
