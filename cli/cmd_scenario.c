/* netsched scenario — run a declarative experiment (analysis/scenario_internal.h).
 * A scenario is a design study (cli/cmd_design.c): every [topology NAME]
 * × collective × model through the compare engine, resumably, and the
 * cross-design summary, plots and report. */
#include "analysis/scenario_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include <string.h>

int ns_cmd_scenario(int argc, char **argv)
{
  NsCliStudyArgs study = { 0 };
  g_autoptr(GOptionContext) ctx = g_option_context_new("run SCENARIO.ini - run an experiment");
  ns_cli_add_study_options(ctx, &study);
  g_option_context_set_summary(
      ctx, "Runs a declarative experiment: every [topology NAME] x collective x model of\n"
           "the key file through the compare engine, resumably, then writes the\n"
           "cross-topology design.csv, summary.csv, plots and report.md (the same study\n"
           "as 'netsched design FILE').");
  g_option_context_set_description(
      ctx, "Unknown groups or keys, a key given twice and empty values are errors\n"
           "(file:line, exit 2), never silent defaults. The format is in docs/scenarios.md.\n"
           "An output directory holding results of an earlier run is refused (exit 2)\n"
           "unless --resume or --overwrite says what to do with them.\n"
           "Example:\n  netsched scenario run scenarios/faraj-yuan.ini\n");
  int status = 2;
  GError *error = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    status = 2;
  else if (argc != 3 || strcmp(argv[1], "run") != 0)
    status = ns_cli_usage("scenario", "expected 'run SCENARIO.ini'");
  else {
    g_autoptr(NsScenario) sc = ns_scenario_load(argv[2], &error);
    status = sc != NULL ? ns_cli_run_study(sc, &study) : ns_cli_fail(error);
  }
  ns_cli_study_args_clear(&study);
  return status;
}
