/* netsched verify — prove a schedule correct on a topology. */
#include "cli/cli.h"
#include "platforms/error.h"
#include "sched/schedule_json.h"
#include "sched/verify.h"
#include <string.h>

int ns_cmd_verify(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *junit = NULL, *port = NULL, *algorithm = NULL;
  char *collective = NULL, *msize_text = NULL, *root = NULL, *segment_text = NULL;
  gboolean json = FALSE, require_optimal = FALSE, quiet = FALSE;
  int max_findings = 20;
  int arity = 0;
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml" },
    { "algorithm", 'a', 0, G_OPTION_ARG_STRING, &algorithm,
      "Plan with this algorithm instead of reading SCHEDULE", "NAME" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &collective, "With --algorithm (default alltoall)",
      "NAME" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &msize_text, "With --algorithm: message size (default 64KiB)",
      "SIZE" },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &root, "With --algorithm: bcast root machine", "MACHINE" },
    { "arity", 0, 0, G_OPTION_ARG_INT, &arity, "bcast/kary-cf: children per machine (default 3)", "K" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &segment_text,
      "With --algorithm: bcast segment size", "SIZE" },
    { "port", 0, 0, G_OPTION_ARG_STRING, &port, "Port model (default one)", "one|all" },
    { "require-optimal", 0, 0, G_OPTION_ARG_NONE, &require_optimal,
      "Fail when the schedule has more phases than the bottleneck load", NULL },
    { "max-findings", 0, 0, G_OPTION_ARG_INT, &max_findings,
      "Findings listed per kind (all are counted; default 20)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the report as JSON", NULL },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit, "Also write a JUnit XML report", "FILE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing; the exit status tells", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("[SCHEDULE.json] - verify a schedule");
  g_option_context_set_summary(
      ctx, "Replays chunk ownership symbolically and checks that every required chunk is\n"
           "delivered exactly once, that no two transfers of a phase share a directed edge,\n"
           "the port model, and phases versus the bottleneck load (optimality).");
  g_option_context_set_description(
      ctx, "Exit status: 0 every check passed, 1 a check failed, 2 bad input.\n"
           "Example:\n  netsched verify c.json -T scenarios/topologies/faraj-c.topo "
           "--junit verify.xml\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  uint64_t msize = 65536, segment = 0;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  GError *error = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if ((algorithm == NULL && argc != 2) || (algorithm != NULL && argc != 1)) {
    status = ns_cli_usage("verify", "give one SCHEDULE file, or --algorithm to plan one");
    goto out;
  }
  if ((msize_text != NULL && !ns_cli_parse_size("--msize", msize_text, &msize, &error)) ||
      (segment_text != NULL && !ns_cli_parse_size("--segment", segment_text, &segment, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.max_findings = MAX(max_findings, 0);
  if (port != NULL && strcmp(port, "one") != 0 && strcmp(port, "all") != 0) {
    status = ns_cli_usage("verify", "--port takes 'one' or 'all', not '%s'", port);
    goto out;
  }
  if (port != NULL && strcmp(port, "all") == 0)
    opt.port = NS_PORT_ALL;
  t = ns_cli_load_topology(topology, format, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  s = algorithm != NULL
                                ? ns_cli_plan(t, collective ? collective : "alltoall",
                                              algorithm, msize, root, segment, arity, &error)
                                : ns_schedule_load_json(argv[1], &error);
  if (s == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsVerifyReport r = { 0 };
  if (!ns_verify(t, s, &opt, &r, &error)) {
    ns_verify_report_clear(&r);
    status = ns_cli_fail(error);
    goto out;
  }
  gboolean ok = TRUE;
  if (json)
    ok = ns_verify_write_json(&r, t, s, require_optimal, stdout, &error);
  else if (!quiet)
    ns_verify_write_text(&r, t, s, require_optimal, stdout);
  if (ok && junit != NULL) {
    FILE *f = ns_cli_open_output(junit, &error);
    ok = f != NULL && ns_verify_write_junit(&r, t, s, require_optimal, f, &error) &&
         ns_cli_close_output(f, junit, &error);
  }
  status = !ok ? ns_cli_fail(error) : ns_verify_passed(&r, require_optimal) ? 0 : 1;
  ns_verify_report_clear(&r);
out:
  g_free(topology);
  g_free(format);
  g_free(junit);
  g_free(port);
  g_free(algorithm);
  g_free(collective);
  g_free(msize_text);
  g_free(root);
  g_free(segment_text);
  return status;
}
