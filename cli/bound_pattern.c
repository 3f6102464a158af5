/* netsched — `bound -c alltoallv|allgatherv --pattern F`: the bound of a
 * size pattern (sched/bound/pattern_bound.h), as text or JSON. */
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/bound/pattern_bound.h"
#include <json-glib/json-glib.h>

gboolean ns_cli_pattern_bound(const NsTopology *t, NsCollective c, const char *pattern,
                              gboolean json, GError **error)
{
  if (pattern == NULL) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "--pattern: %s needs a size pattern (a file or uniform:SIZE, "
                "random:AVG,SKEW,SEED, nas-is:KEYS,SEED)",
                ns_collective_name(c));
    return FALSE;
  }
  g_autoptr(NsSizePattern) pat = ns_size_pattern_load(pattern, c, ns_topology_n_machines(t), error);
  NsPatternBound b;
  if (pat == NULL || !ns_pattern_bound(t, pat, &b, error))
    return FALSE;
  g_autofree char *why = ns_pattern_bound_describe(t, &b);
  uint64_t total = ns_size_pattern_total(pat);
  if (json) {
    g_autoptr(JsonBuilder) j = json_builder_new();
    json_builder_begin_object(j);
    /* msize_bytes: the pattern's largest count */
    ns_cli_bound_json_head(j, t, ns_collective_name(c), ns_size_pattern_max(pat));
    json_builder_set_member_name(j, "pattern");
    json_builder_add_string_value(j, pattern);
    json_builder_set_member_name(j, "total_bytes");
    json_builder_add_int_value(j, (gint64)total);
    json_builder_set_member_name(j, "time_bound_s");
    json_builder_add_double_value(j, b.seconds);
    json_builder_set_member_name(j, "binding");
    json_builder_add_string_value(j, why);
    json_builder_set_member_name(j, "binding_bytes");
    json_builder_add_int_value(j, (gint64)b.bytes);
    json_builder_set_member_name(j, "binding_bandwidth_bps");
    json_builder_add_double_value(j, b.bandwidth);
    json_builder_set_member_name(j, "links_computed");
    json_builder_add_boolean_value(j, b.links);
    json_builder_end_object(j);
    ns_cli_print_json(j);
    return TRUE;
  }
  g_autofree char *tot = ns_format_bytes((double)total);
  g_autofree char *bytes = ns_format_bytes((double)b.bytes);
  g_autofree char *bw = ns_format_bandwidth(b.bandwidth > 0 ? b.bandwidth : 1);
  printf("topology           %s (%d machines)\n", ns_topology_source(t), ns_topology_n_machines(t));
  printf("pattern            %s (%s, %s between machines)\n", pattern, ns_collective_name(c), tot);
  if (b.machine < 0 && b.edge < 0)
    printf("%s bound    0 s: %s\n", ns_collective_name(c), why);
  else
    printf("%s bound    %.6f s = %s through %s at %s\n", ns_collective_name(c), b.seconds, bytes,
           why, bw);
  if (!b.links)
    printf("links              not counted (%s): the ports bound it\n",
           c == NS_COLL_ALLGATHERV && ns_topology_routing(t) != NS_ROUTING_TREE
               ? "allgatherv blocks take any path off a tree"
               : "too many routes to walk");
  return TRUE;
}
