/* netsched verify — prove a schedule correct on a topology. */
#include "cli/cli.h"
#include "platforms/error.h"
#include "sched/schedule_json.h"
#include "sched/verify.h"
#include <string.h>

int ns_cmd_verify(int argc, char **argv)
{
  NsPlanOptions po = { 0 };
  char *junit = NULL, *port = NULL;
  gboolean json = FALSE, require_optimal = FALSE, quiet = FALSE;
  int max_findings = 20;
  GOptionEntry entries[] = {
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
           "the port model, phases versus the bottleneck load (optimality) and the sync edges.\n"
           "Give a SCHEDULE file, or --algorithm to plan one in memory.");
  g_option_context_set_description(
      ctx, "Exit status: 0 every check passed, 1 a check failed, 2 bad input.\n"
           "Example:\n  netsched verify c.json -T scenarios/topologies/faraj-c.topo "
           "--junit verify.xml\n");
  ns_cli_add_plan_options(ctx, &po);
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if ((po.algorithm == NULL && argc != 2) || (po.algorithm != NULL && argc != 1)) {
    status = ns_cli_usage("verify", "give one SCHEDULE file, or --algorithm to plan one");
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
  if (!ns_cli_topology_and_schedule(&po, argv[1], &t, &s, &error)) {
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
    if (f != NULL && !ns_verify_write_junit(&r, t, s, require_optimal, f, &error)) {
      ns_cli_abort_output(f);
      f = NULL;
    }
    ok = f != NULL && ns_cli_close_output(f, junit, &error);
  }
  status = !ok ? ns_cli_fail(error) : ns_verify_passed(&r, require_optimal) ? 0 : 1;
  ns_verify_report_clear(&r);
out:
  ns_cli_plan_options_clear(&po);
  g_free(junit);
  g_free(port);
  return status;
}
