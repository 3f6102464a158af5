/* netsched topo show|convert — look at and convert topologies. The
 * display of `show` is cli/topo_show.c. */
#include "cli/cli.h"
#include "platforms/io/topology_io.h"
#include "sched/io/schedule_stream.h"
#ifdef NETSCHED_HAVE_SIMULATOR
#include "sim/sim.h"
#endif
#include <string.h>

/* convert: the topology, or with a schedule (--schedule) the platform
 * its replay runs on (sim/sim.h). */
static gboolean write_converted(const NsTopology *t, NsTopoFormat f, const NsSchedule *s,
                                FILE *out, GError **error)
{
#ifdef NETSCHED_HAVE_SIMULATOR
  if (s != NULL)
    return ns_sim_write_platform(t, s, out, error);
#endif
  (void)s;
  return ns_topology_save(t, f, out, error);
}

int ns_cmd_topo(int argc, char **argv)
{
  char *format = NULL, *spanning = NULL, *to = NULL, *output = NULL, *schedule = NULL;
  gboolean json = FALSE, all = FALSE;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Input format (default: from the file name)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "to", 't', 0, G_OPTION_ARG_STRING, &to, "convert: output format (default native)",
      "native|dot|graphml|simgrid" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "convert: output file (default stdout)",
      "FILE" },
    { "schedule", 0, 0, G_OPTION_ARG_FILENAME, &schedule,
      "convert --to simgrid: the platform the schedule is replayed on, with the routes of "
      "its transfers that take routes of their own (AT2 on a torus, explicit routes) for "
      "their machine pairs", "SCHEDULE.json" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "show: print the summary as JSON", NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &all,
      "show: print the whole tree (default: the first 400 lines, 48 levels)", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("show|convert TOPOLOGY");
  g_option_context_set_summary(ctx,
                               "show:    sizes, link speeds, routing, port models, the all-to-all bottleneck,\n"
                               "         path lengths and, for trees, the tree and its rings.\n"
                               "convert: write the topology as native text, DOT, GraphML or SimGrid platform XML.");
  g_option_context_set_description(
      ctx, "TOPOLOGY is a file (*.topo native, topology.conf Slurm, *.graphml, SimGrid\n"
           "*.xml) or a generator such as gen:chain:4,8. Formats take options:\n"
           "-f slurm:1Gbps:core=10Gbps, -f graphml:machines-per-switch=2:largest-component\n"
           "(see docs/topology-format.md).\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (argc != 3 || (strcmp(argv[1], "show") != 0 && strcmp(argv[1], "convert") != 0)) {
    status = ns_cli_usage("topo", "expected 'show TOPOLOGY' or 'convert TOPOLOGY'");
    goto out;
  }
  NsTopoFormat f = NS_TOPO_FORMAT_NATIVE;
  gboolean convert = strcmp(argv[1], "convert") == 0;
  if (convert && to != NULL && !ns_topo_format_from_name(to, &f)) {
    status = ns_cli_usage("topo", "unknown output format '%s' (native, dot, graphml, simgrid)", to);
    goto out;
  }
  if (schedule != NULL && (!convert || f != NS_TOPO_FORMAT_SIMGRID)) {
    status = ns_cli_usage("topo", "--schedule goes with 'convert --to simgrid'");
    goto out;
  }
  GError *error = NULL;
  t = ns_cli_load_topology(argv[2], format, spanning, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (strcmp(argv[1], "show") == 0) {
    status = ns_cli_topo_show(t, json, all);
    goto out;
  }
#ifdef NETSCHED_HAVE_SIMULATOR
  NsScheduleLimits limits = { .need = TRUE, .max_machines = (uint32_t)ns_topology_n_machines(t) };
  s = schedule != NULL ? ns_schedule_load_limited(schedule, &limits, &error) : NULL;
  if (schedule != NULL && s == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
#else
  if (schedule != NULL) {
    status = ns_cli_usage("topo", "--schedule needs the simulator (this netsched was built "
                                  "with NETSCHED_SIMULATOR=OFF)");
    goto out;
  }
#endif
  FILE *out = ns_cli_open_output(output, &error);
  if (out != NULL && !write_converted(t, f, s, out, &error)) {
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
  g_free(schedule);
  return status;
}
