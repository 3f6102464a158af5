/* netsched topo show|convert — look at and convert topologies. */
#include "analysis/bounds.h"
#include "analysis/bounds_allgather.h"
#include "cli/cli.h"
#include "platforms/hostlist_compress.h"
#include "platforms/topology_io.h"
#include "platforms/units.h"
#include <string.h>

/* Prints the tree below `v` (reached from `from`), machines attached to a
 * switch compressed into one hostlist line. */
static void print_subtree(const NsTopology *t, int v, int from, GString *indent, FILE *out)
{
  int deg = ns_topology_degree(t, v);
  const int *inc = ns_topology_incident(t, v);
  GPtrArray *machines = g_ptr_array_new();
  GArray *switches = g_array_new(FALSE, FALSE, sizeof(int));
  for (int k = 0; k < deg; k++) {
    int w = ns_topology_link_other(t, inc[k], v);
    if (w == from)
      continue;
    if (ns_topology_node(t, w)->kind == NS_NODE_MACHINE)
      g_ptr_array_add(machines, ns_topology_node(t, w)->name);
    else
      g_array_append_val(switches, w);
  }
  guint items = (machines->len > 0 ? 1 : 0) + switches->len;
  guint item = 0;
  if (machines->len > 0) {
    g_autofree char *list =
        ns_hostlist_compress((const char *const *)machines->pdata, (int)machines->len);
    gboolean last = ++item == items;
    fprintf(out, "%s%s %s (%u machine%s)\n", indent->str, last ? "└──" : "├──", list,
            machines->len, machines->len == 1 ? "" : "s");
  }
  for (guint k = 0; k < switches->len; k++) {
    int w = g_array_index(switches, int, k);
    gboolean last = ++item == items;
    fprintf(out, "%s%s %s [%d machines below]\n", indent->str, last ? "└──" : "├──",
            ns_topology_node(t, w)->name, ns_tree_parent(t, w) == v
                                               ? ns_tree_machines_below(t, w)
                                               : ns_topology_n_machines(t) -
                                                     ns_tree_machines_below(t, v));
    gsize len = indent->len;
    g_string_append(indent, last ? "    " : "│   ");
    print_subtree(t, w, v, indent, out);
    g_string_truncate(indent, len);
  }
  g_ptr_array_free(machines, TRUE);
  g_array_free(switches, TRUE);
}

static int topo_show(const NsTopology *t)
{
  NsA2ABound b;
  ns_a2a_bound(t, 1, &b);
  if (ns_topology_title(t) != NULL)
    printf("topology   %s (%s)\n", ns_topology_title(t), ns_topology_source(t));
  else
    printf("topology   %s\n", ns_topology_source(t));
  printf("size       %d machines, %d switches, %d links\n", ns_topology_n_machines(t),
         ns_topology_n_switches(t), ns_topology_n_links(t));
  double bw_min = G_MAXDOUBLE, bw_max = 0, lat_min = G_MAXDOUBLE, lat_max = 0;
  for (int i = 0; i < ns_topology_n_links(t); i++) {
    const NsLink *l = ns_topology_link(t, i);
    bw_min = MIN(bw_min, l->bandwidth);
    bw_max = MAX(bw_max, l->bandwidth);
    lat_min = MIN(lat_min, l->latency);
    lat_max = MAX(lat_max, l->latency);
  }
  g_autofree char *b1 = ns_format_bandwidth(bw_min), *b2 = ns_format_bandwidth(bw_max);
  g_autofree char *l1 = ns_format_time(lat_min), *l2 = ns_format_time(lat_max);
  if (bw_min == bw_max)
    printf("links      %s", b1);
  else
    printf("links      %s .. %s", b1, b2);
  if (lat_min == lat_max)
    printf(", latency %s\n", l1);
  else
    printf(", latency %s .. %s\n", l1, l2);
  const NsLink *bl = ns_topology_link(t, b.bottleneck_link);
  printf("alltoall   bottleneck load %" G_GUINT64_FORMAT " (%d x %d machines) on %d link%s, "
         "first %s-%s\n",
         b.load, b.m_u, b.m_v, b.n_bottlenecks, b.n_bottlenecks == 1 ? "" : "s",
         ns_topology_node(t, bl->a)->name, ns_topology_node(t, bl->b)->name);
  printf("paths      %d .. %d switches, mean %.3f\n", b.path_min, b.path_max, b.path_mean);
  NsTwoHop th;
  g_autofree char *why = ns_allgather_two_hop(t, &th) ? NULL : ns_two_hop_describe(t, &th);
  if (why == NULL)
    printf("2-hop ring yes (Theorem 3 holds: no switch has more switch than machine neighbours)\n");
  else
    printf("2-hop ring no (Theorem 3 fails: %s)\n", why);
  g_autoptr(GError) lr3_error = NULL;
  int d3 = ns_allgather_lr3_path(t, &lr3_error);
  g_autofree char *lr2 = th.holds ? g_strdup_printf("%d", ns_allgather_lr2_path(t)) : NULL;
  g_autofree char *lr3 = d3 >= 0 ? g_strdup_printf("%d", d3) : NULL;
  printf("allgather  ring max path LR1 %d, LR2 %s, LR3 %s switches\n",
         ns_allgather_lr1_path(t), lr2 ? lr2 : "-", lr3 ? lr3 : lr3_error->message);
  printf("\n%s (root of the all-to-all schedule, Faraj-Yuan §4.1)\n",
         ns_topology_node(t, b.root)->name);
  GString *indent = g_string_new("");
  print_subtree(t, b.root, -1, indent, stdout);
  g_string_free(indent, TRUE);
  return 0;
}

int ns_cmd_topo(int argc, char **argv)
{
  char *format = NULL, *spanning = NULL, *to = NULL, *output = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Input format (default: from the file name)",
      "native|slurm|graphml" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "to", 't', 0, G_OPTION_ARG_STRING, &to, "convert: output format (default native)",
      "native|dot|graphml|simgrid" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "convert: output file (default stdout)",
      "FILE" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("show|convert TOPOLOGY");
  g_option_context_set_summary(ctx,
                               "show:    the tree, sizes, bottleneck load and path lengths.\n"
                               "convert: write the topology as native text, DOT, GraphML or SimGrid platform XML.");
  g_option_context_set_description(
      ctx, "TOPOLOGY is a file (*.topo native, topology.conf Slurm, *.graphml) or a\n"
           "generator such as gen:chain:4,8 (see docs/topology-format.md).\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  g_autoptr(NsTopology) t = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (argc != 3 || (strcmp(argv[1], "show") != 0 && strcmp(argv[1], "convert") != 0)) {
    status = ns_cli_usage("topo", "expected 'show TOPOLOGY' or 'convert TOPOLOGY'");
    goto out;
  }
  GError *error = NULL;
  t = ns_cli_load_topology(argv[2], format, spanning, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (strcmp(argv[1], "show") == 0) {
    status = topo_show(t);
    goto out;
  }
  NsTopoFormat f = NS_TOPO_FORMAT_NATIVE;
  if (to != NULL && !ns_topo_format_from_name(to, &f)) {
    status = ns_cli_usage("topo", "unknown output format '%s' (native, dot, graphml, simgrid)", to);
    goto out;
  }
  FILE *out = ns_cli_open_output(output, &error);
  if (out != NULL && !ns_topology_save(t, f, out, &error)) {
    ns_cli_abort_output(out);
    out = NULL;
  }
  if (out == NULL || !ns_cli_close_output(out, output, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  status = 0;
out:
  g_free(format);
  g_free(spanning);
  g_free(to);
  g_free(output);
  return status;
}
