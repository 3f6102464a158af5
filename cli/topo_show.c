/* netsched topo show — the summary of a topology, any fabric, as text for
 * people or JSON for programs (schema in docs/topology-format.md). */
#include "analysis/topology_summary_internal.h"
#include "cli/cli.h"
#include "platforms/io/hostlist_compress_internal.h"
#include "platforms/model/units.h"
#include <json-glib/json-glib.h>
#include <string.h>

/* ---- the tree, iteratively -------------------------------------------------
 * Each switch line is followed by its machines (one hostlist) and its child
 * switches; an explicit stack replaces recursion (trees 100 000 levels deep
 * exist), and the display stops after `max_lines` lines or `max_depth`
 * levels of indentation, saying so. */

typedef struct {
  int node, from;        /* the switch, and where we came from */
  int depth;
  gboolean last;         /* last item of its parent */
} Frame;

static void print_tree(const NsTopology *t, int root, int max_lines, int max_depth, FILE *out)
{
  GArray *stack = g_array_new(FALSE, FALSE, sizeof(Frame));
  GString *indent = g_string_new(NULL);
  GArray *last_at = g_array_new(FALSE, FALSE, sizeof(gboolean)); /* per depth */
  GPtrArray *machines = g_ptr_array_new();
  GArray *switches = g_array_new(FALSE, FALSE, sizeof(int));
  int lines = 0, shown = 0;
  g_array_append_val(stack, ((Frame){ root, -1, 0, TRUE }));
  while (stack->len > 0) {
    Frame f = g_array_index(stack, Frame, stack->len - 1);
    g_array_set_size(stack, stack->len - 1);
    if (lines >= max_lines || f.depth > max_depth)
      continue; /* neither it nor what hangs below it is shown */
    g_array_set_size(last_at, (guint)f.depth + 1);
    g_array_index(last_at, gboolean, f.depth) = f.last;
    g_string_truncate(indent, 0);
    for (int d = 1; d < f.depth; d++)
      g_string_append(indent, g_array_index(last_at, gboolean, d) ? "    " : "│   ");
    const char *branch = f.depth == 0 ? "" : f.last ? "└── " : "├── ";
    /* The display is rooted at the all-to-all root, the tree view at its
     * anchor (the first switch declared): the counts are turned around
     * where the two differ, and the display root has every machine below. */
    int below = f.from < 0                           ? ns_topology_n_machines(t)
                : ns_tree_parent(t, f.node) == f.from ? ns_tree_machines_below(t, f.node)
                : ns_topology_n_machines(t) - ns_tree_machines_below(t, f.from);
    fprintf(out, "%s%s%s [%d machine%s below]\n", indent->str, branch,
            ns_topology_node(t, f.node)->name, below, below == 1 ? "" : "s");
    lines++;
    shown++;
    g_ptr_array_set_size(machines, 0);
    g_array_set_size(switches, 0);
    const int *inc = ns_topology_incident(t, f.node);
    for (int k = 0; k < ns_topology_degree(t, f.node); k++) {
      int w = ns_topology_link_other(t, inc[k], f.node);
      if (w == f.from)
        continue;
      if (ns_topology_node(t, w)->kind == NS_NODE_MACHINE)
        g_ptr_array_add(machines, ns_topology_node(t, w)->name);
      else
        g_array_append_val(switches, w);
    }
    if (f.depth > 0)
      g_string_append(indent, f.last ? "    " : "│   ");
    if (machines->len > 0) {
      g_autofree char *list =
          ns_hostlist_compress((const char *const *)machines->pdata, (int)machines->len);
      fprintf(out, "%s%s %s (%u machine%s)\n", indent->str, switches->len ? "├──" : "└──", list,
              machines->len, machines->len == 1 ? "" : "s");
      lines++;
    }
    for (guint k = switches->len; k-- > 0;) /* pushed reversed: the first on top */
      g_array_append_val(stack, ((Frame){ g_array_index(switches, int, k), f.node, f.depth + 1,
                                          k + 1 == switches->len }));
  }
  int elided = ns_topology_n_switches(t) - shown;
  if (elided > 0)
    fprintf(out, "... %d more switch%s not shown (netsched topo show --all prints them)\n",
            elided, elided == 1 ? "" : "es");
  g_array_free(stack, TRUE);
  g_array_free(last_at, TRUE);
  g_string_free(indent, TRUE);
  g_ptr_array_free(machines, TRUE);
  g_array_free(switches, TRUE);
}

static char *range_text(char *lo, char *hi, gboolean same)
{
  char *text = same ? g_strdup(lo) : g_strdup_printf("%s .. %s", lo, hi);
  g_free(lo);
  g_free(hi);
  return text;
}

static void print_text(const NsTopology *t, const NsTopologySummary *s, gboolean all)
{
  if (ns_topology_title(t) != NULL)
    printf("topology   %s (%s)\n", ns_topology_title(t), ns_topology_source(t));
  else
    printf("topology   %s\n", ns_topology_source(t));
  int nm = ns_topology_n_machines(t), nsw = ns_topology_n_switches(t),
      nl = ns_topology_n_links(t);
  printf("size       %d machine%s, %d switch%s, %d link%s\n", nm, nm == 1 ? "" : "s", nsw,
         nsw == 1 ? "" : "es", nl, nl == 1 ? "" : "s");
  g_autofree char *bw = range_text(ns_format_bandwidth(s->bw_min), ns_format_bandwidth(s->bw_max),
                                   s->bw_min == s->bw_max);
  g_autofree char *lat = range_text(ns_format_time(s->lat_min), ns_format_time(s->lat_max),
                                    s->lat_min == s->lat_max);
  printf("links      %s, latency %s\n", bw, lat);
  printf("routing    %s\n", s->routing);
  GString *ports = g_string_new(NULL);
  if (s->ports_one)
    g_string_append_printf(ports, "%d 1-port", s->ports_one);
  if (s->ports_k)
    g_string_append_printf(ports, "%s%d k-port", ports->len ? ", " : "", s->ports_k);
  if (s->ports_all)
    g_string_append_printf(ports, "%s%d all-port", ports->len ? ", " : "", s->ports_all);
  printf("ports      %s\n", ports->str);
  g_string_free(ports, TRUE);
  if (s->tree && s->a2a.bound.kind == NS_BOUND_LINK && s->a2a.load > 0) {
    const NsLink *bl = ns_topology_link(t, s->a2a.bottleneck_link);
    printf("alltoall   bottleneck load %" G_GUINT64_FORMAT " (%d x %d machines) on %d link%s, "
           "first %s-%s\n",
           s->a2a.load, s->a2a.m_u, s->a2a.m_v, s->a2a.n_bottlenecks,
           s->a2a.n_bottlenecks == 1 ? "" : "s", ns_topology_node(t, bl->a)->name,
           ns_topology_node(t, bl->b)->name);
  } else {
    printf("alltoall   bottleneck %s\n", s->bottleneck);
  }
  if (s->a2a.cut.seconds < s->a2a.bound.seconds)
    printf("           over any routing: %s\n", s->cut);
  if (s->a2a.routed_computed)
    printf("routed     max %.10g, mean %.10g, p50 %.10g, p90 %.10g, p99 %.10g all-to-all messages a "
           "directed link\n",
           s->a2a.routed_max, s->a2a.routed_mean, s->a2a.routed_p50, s->a2a.routed_p90,
           s->a2a.routed_p99);
  printf("paths      %d .. %d %s, mean %.3f%s\n", s->a2a.path_min, s->a2a.path_max,
         ns_topology_n_switches(t) > 0 ? "switches" : "routing machines", s->a2a.path_mean,
         s->a2a.path_sampled ? " (sample of 2^22 pairs)" : "");
  if (s->max_ports > 1) { /* one-port fabrics: (P-1) msize / B, as `bound` says */
    const NsLowerBound *ag = &s->allgather;
    if (ag->kind == NS_BOUND_PORT_RECV || ag->kind == NS_BOUND_PORT_SEND) {
      int k = ns_topology_machine_ports(t, ag->machine);
      printf("allgather  bottleneck %s; (P-1)/ports = %.10g with blocks split across %d port%s\n",
             s->allgather_bottleneck, (double)(nm - 1) / k, k, k == 1 ? "" : "s");
    } else {
      printf("allgather  bottleneck %s\n", s->allgather_bottleneck);
    }
  }
  /* the reductions' fluid bounds, per MiB of vector (docs/verify.md) */
  printf("reduce     bound %.10g s per MiB to %s: %s\n", s->reduce.seconds * 1048576,
         ns_topology_machine_name(t, 0), s->reduce_bottleneck);
  printf("allreduce  bound %.10g s per MiB: %s\n", s->allreduce.seconds * 1048576,
         s->allreduce_bottleneck);
  if (!s->tree)
    return;
  g_autofree char *why = s->two_hop.holds ? NULL : ns_two_hop_describe(t, &s->two_hop);
  if (why == NULL)
    printf("2-hop ring yes (Theorem 3 holds: no switch has more switch than machine neighbours)\n");
  else
    printf("2-hop ring no (Theorem 3 fails: %s)\n", why);
  g_autofree char *lr2 = s->lr2 >= 0 ? g_strdup_printf("%d", s->lr2) : NULL;
  g_autofree char *lr3 = s->lr3 >= 0 ? g_strdup_printf("%d", s->lr3) : NULL;
  printf("allgather  ring max path LR1 %d, LR2 %s, LR3 %s switches\n", s->lr1, lr2 ? lr2 : "-",
         lr3 ? lr3 : s->lr3_error);
  printf("\n%s (root of the all-to-all schedule, Faraj-Yuan §4.1)\n",
         ns_topology_node(t, s->a2a.root)->name);
  print_tree(t, s->a2a.root, all ? G_MAXINT : 400, all ? G_MAXINT : 48, stdout);
}

static void print_json(const NsTopology *t, const NsTopologySummary *s)
{
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
#define MEMBER(name, kind, value) \
  do { json_builder_set_member_name(b, name); json_builder_add_##kind##_value(b, value); } while (0)
  MEMBER("format", string, "netsched-topology");
  MEMBER("version", int, 1);
  MEMBER("topology", string, ns_topology_source(t));
  json_builder_set_member_name(b, "title");
  if (ns_topology_title(t) != NULL)
    json_builder_add_string_value(b, ns_topology_title(t));
  else
    json_builder_add_null_value(b);
  MEMBER("machines", int, ns_topology_n_machines(t));
  MEMBER("switches", int, ns_topology_n_switches(t));
  MEMBER("links", int, ns_topology_n_links(t));
  MEMBER("bandwidth_min_bps", double, s->bw_min);
  MEMBER("bandwidth_max_bps", double, s->bw_max);
  MEMBER("latency_min_s", double, s->lat_min);
  MEMBER("latency_max_s", double, s->lat_max);
  MEMBER("routing", string, ns_routing_kind_name(ns_topology_routing(t)));
  MEMBER("routing_rule", string, s->routing);
  json_builder_set_member_name(b, "ports");
  json_builder_begin_object(b);
  MEMBER("one", int, s->ports_one);
  MEMBER("k", int, s->ports_k);
  MEMBER("all", int, s->ports_all);
  json_builder_end_object(b);
  MEMBER("alltoall_bottleneck", string, s->bottleneck);
  json_builder_set_member_name(b, "alltoall_load");
  if (s->a2a.load > 0)
    json_builder_add_int_value(b, (gint64)s->a2a.load);
  else
    json_builder_add_null_value(b);
  MEMBER("alltoall_seconds_per_byte", double, s->a2a.time_bound);
  MEMBER("alltoall_cut_bottleneck", string, s->cut);
  MEMBER("alltoall_cut_seconds_per_byte", double, s->a2a.cut.seconds);
  json_builder_set_member_name(b, "alltoall_routed_load");
  if (s->a2a.routed_computed) {
    json_builder_begin_object(b);
    MEMBER("max", double, s->a2a.routed_max);
    MEMBER("mean", double, s->a2a.routed_mean);
    MEMBER("p50", double, s->a2a.routed_p50);
    MEMBER("p90", double, s->a2a.routed_p90);
    MEMBER("p99", double, s->a2a.routed_p99);
    json_builder_end_object(b);
  } else {
    json_builder_add_null_value(b);
  }
  MEMBER("path_length_min", int, s->a2a.path_min);
  MEMBER("path_length_max", int, s->a2a.path_max);
  MEMBER("path_length_mean", double, s->a2a.path_mean);
  MEMBER("path_lengths_sampled", boolean, s->a2a.path_sampled);
  if (s->max_ports > 1) {
    MEMBER("allgather_bottleneck", string, s->allgather_bottleneck);
    json_builder_set_member_name(b, "allgather_load");
    if (s->allgather.load > 0)
      json_builder_add_int_value(b, (gint64)s->allgather.load);
    else
      json_builder_add_null_value(b);
    MEMBER("allgather_seconds_per_byte", double, s->allgather.seconds);
    MEMBER("allgather_fluid_seconds_per_byte", double, s->allgather_fluid);
  }
  MEMBER("reduce_seconds_per_byte", double, s->reduce.seconds);
  MEMBER("reduce_bottleneck", string, s->reduce_bottleneck);
  MEMBER("allreduce_seconds_per_byte", double, s->allreduce.seconds);
  MEMBER("allreduce_bottleneck", string, s->allreduce_bottleneck);
  if (s->tree) {
    MEMBER("root", string, ns_topology_node(t, s->a2a.root)->name);
    MEMBER("m_u", int, s->a2a.m_u);
    MEMBER("m_v", int, s->a2a.m_v);
    MEMBER("two_hop_ring", boolean, s->two_hop.holds);
    MEMBER("lr1_max_path", int, s->lr1);
    json_builder_set_member_name(b, "lr2_max_path");
    if (s->lr2 >= 0)
      json_builder_add_int_value(b, s->lr2);
    else
      json_builder_add_null_value(b);
    json_builder_set_member_name(b, "lr3_max_path");
    if (s->lr3 >= 0)
      json_builder_add_int_value(b, s->lr3);
    else
      json_builder_add_null_value(b);
  }
#undef MEMBER
  json_builder_end_object(b);
  ns_cli_print_json(b);
}

int ns_cli_topo_show(const NsTopology *t, gboolean json, gboolean all)
{
  NsTopologySummary s;
  ns_topology_summarize(t, &s);
  if (json)
    print_json(t, &s);
  else
    print_text(t, &s, all);
  ns_topology_summary_clear(&s);
  return 0;
}
