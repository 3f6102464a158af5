/* netsched scenario — run a declarative experiment (analysis/scenario.h).
 * A scenario is a design study (cli/cmd_design.c): every [topology NAME]
 * × collective × model through the compare engine, resumably, and the
 * cross-design summary, plots and report. */
#include "analysis/scenario.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include <string.h>
#include <unistd.h>

int ns_cmd_scenario(int argc, char **argv)
{
  gboolean retry_failed = FALSE;
  g_autoptr(GOptionContext) ctx = g_option_context_new("run SCENARIO.ini - run an experiment");
  GOptionEntry entries[] = {
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &retry_failed,
      "Run again the rows whose last attempt failed (kept rows are never redone)", NULL },
    { NULL },
  };
  g_option_context_add_main_entries(ctx, entries, NULL);
  g_option_context_set_summary(
      ctx, "Runs a declarative experiment: every [topology NAME] x collective x model of\n"
           "the key file through the compare engine, resumably, then writes the\n"
           "cross-topology design.csv, summary.csv, plots and report.md (the same study\n"
           "as 'netsched design FILE').");
  g_option_context_set_description(
      ctx, "Unknown groups or keys, a key given twice and empty values are errors\n"
           "(file:line, exit 2), never silent defaults. The format is in docs/scenarios.md.\n"
           "Example:\n  netsched scenario run scenarios/faraj-yuan.ini\n");
  if (!ns_cli_parse(ctx, &argc, &argv))
    return 2;
  if (argc != 3 || strcmp(argv[1], "run") != 0)
    return ns_cli_usage("scenario", "expected 'run SCENARIO.ini'");
  GError *error = NULL;
  g_autoptr(NsScenario) sc = ns_scenario_load(argv[2], &error);
  if (sc == NULL)
    return ns_cli_fail(error);
  return ns_cli_run_study(sc, isatty(STDERR_FILENO), retry_failed);
}
