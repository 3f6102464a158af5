/* netsched bound — theoretical bounds of the all-to-all on a topology. */
#include "analysis/bounds.h"
#include "cli/cli.h"
#include "platforms/units.h"
#include <json-glib/json-glib.h>

static void print_json(const NsTopology *t, const NsA2ABound *b, uint64_t msize)
{
  const NsLink *l = ns_topology_link(t, b->bottleneck_link);
  g_autoptr(JsonBuilder) j = json_builder_new();
  json_builder_begin_object(j);
  json_builder_set_member_name(j, "topology");
  json_builder_add_string_value(j, ns_topology_source(t));
  json_builder_set_member_name(j, "machines");
  json_builder_add_int_value(j, ns_topology_n_machines(t));
  json_builder_set_member_name(j, "msize_bytes");
  json_builder_add_int_value(j, (gint64)msize);
  json_builder_set_member_name(j, "bottleneck_load");
  json_builder_add_int_value(j, (gint64)b->load);
  json_builder_set_member_name(j, "bottleneck_links");
  json_builder_add_int_value(j, b->n_bottlenecks);
  json_builder_set_member_name(j, "bottleneck_link");
  json_builder_begin_array(j);
  json_builder_add_string_value(j, ns_topology_node(t, l->a)->name);
  json_builder_add_string_value(j, ns_topology_node(t, l->b)->name);
  json_builder_end_array(j);
  json_builder_set_member_name(j, "m_u");
  json_builder_add_int_value(j, b->m_u);
  json_builder_set_member_name(j, "m_v");
  json_builder_add_int_value(j, b->m_v);
  json_builder_set_member_name(j, "root");
  json_builder_add_string_value(j, ns_topology_node(t, b->root)->name);
  json_builder_set_member_name(j, "time_bound_s");
  json_builder_add_double_value(j, b->time_bound);
  json_builder_set_member_name(j, "throughput_bound_bps");
  json_builder_add_double_value(j, b->throughput_bound);
  json_builder_set_member_name(j, "path_length_min");
  json_builder_add_int_value(j, b->path_min);
  json_builder_set_member_name(j, "path_length_max");
  json_builder_add_int_value(j, b->path_max);
  json_builder_set_member_name(j, "path_length_mean");
  json_builder_add_double_value(j, b->path_mean);
  json_builder_end_object(j);
  ns_cli_print_json(j);
}

int ns_cmd_bound(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *msize_text = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &msize_text, "Message size (default 64KiB)", "SIZE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the bounds as JSON", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- all-to-all bounds of a topology");
  g_option_context_set_summary(
      ctx, "Bottleneck load |Mu|x|Mv| (the optimal number of phases), the root switch,\n"
           "the best-case completion time |Mu||Mv|msize/B, the peak aggregate throughput\n"
           "|M|(|M|-1)B/(|Mu||Mv|) and path lengths (Faraj & Yuan §3, §4.1).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  g_autoptr(NsTopology) t = NULL;
  GError *error = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (argc != 1) {
    status = ns_cli_usage("bound", "unexpected argument '%s'", argv[1]);
    goto out;
  }
  uint64_t msize = 65536;
  if (msize_text != NULL && !ns_cli_parse_size("--msize", msize_text, &msize, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  t = ns_cli_load_topology(topology, format, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsA2ABound b;
  ns_a2a_bound(t, msize, &b);
  if (json) {
    print_json(t, &b, msize);
  } else {
    const NsLink *l = ns_topology_link(t, b.bottleneck_link);
    g_autofree char *size = ns_format_size(msize);
    int p = ns_topology_n_machines(t);
    printf("topology           %s (%d machines)\n", ns_topology_source(t), p);
    printf("bottleneck load    %" G_GUINT64_FORMAT " = %d x %d messages per direction "
           "(%d bottleneck link%s, e.g. %s-%s)\n",
           b.load, b.m_u, b.m_v, b.n_bottlenecks, b.n_bottlenecks == 1 ? "" : "s",
           ns_topology_node(t, l->a)->name, ns_topology_node(t, l->b)->name);
    printf("optimal phases     %" G_GUINT64_FORMAT "\n", b.load);
    printf("root               %s\n", ns_topology_node(t, b.root)->name);
    printf("time bound         %.6f s for msize %s\n", b.time_bound, size);
    printf("throughput bound   %.3f Mbit/s aggregate\n", b.throughput_bound / 1e6);
    printf("path length        min %d, max %d, mean %.3f switches\n", b.path_min, b.path_max,
           b.path_mean);
  }
  status = 0;
out:
  g_free(topology);
  g_free(format);
  g_free(msize_text);
  return status;
}
