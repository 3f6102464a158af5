/* netsched sweep — batch sweeps over random topologies (docs/sweeps.md).
 *
 *   netsched sweep SPEC.ini [-o DIR] [-j N] [--shard I/N] [--restart]
 *   netsched sweep -g 'waxman:machines=100,200:ratio=5' --seeds 1..50 --trees bfs,dfs -o DIR
 *   netsched sweep merge SPEC.ini|GRID [-o DIR] [SHARD_FILE...]
 *
 * The engine is analysis/sweep.c; this file parses options, picks the
 * shard (also from a Slurm job array), and hands the engine a measurement
 * that simulates schedules with SimGrid. */
#include "analysis/sweep_internal.h"
#include "analysis/sweep_command_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#ifdef NETSCHED_HAVE_SIMULATOR
#include "cli/cli_sim.h"

/* Installs the simulator as the sweep's measurement. */
static gboolean install_measure(NsSweep *sw, void *data, GError **error)
{
  NsSimOptions *opt = data;
  if (!ns_net_model_parse(ns_sweep_model(sw), &opt->model, error))
    return FALSE;
  g_autofree char *settings = ns_sim_options_describe(opt);
  ns_sweep_set_measure(sw, ns_cli_measure_by_simulation, opt, settings);
  return TRUE;
}
#else
/* -DNETSCHED_SIMULATOR=OFF: as netsched.c answers the commands that simulate. */
static gboolean install_measure(NsSweep *sw, void *data, GError **error)
{
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "sweep's measure simulates: this netsched was built without the simulator "
                  "(-DNETSCHED_SIMULATOR=OFF)");
  return FALSE;
}
#endif

int ns_cmd_sweep(int argc, char **argv)
{
  NsSweepCommandHooks hooks = { .warn = ns_cli_print_warning, .note = ns_cli_print_note,
                                .report = stdout, .progress = stderr };
  hooks.install_measure = install_measure;
#ifdef NETSCHED_HAVE_SIMULATOR
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  hooks.measure_data = &opt;
#endif
  NsSweepFailure failure;
  GError *error = NULL;
  int status = ns_sweep_command(argc, argv, &hooks, &failure, &error);
#ifdef NETSCHED_HAVE_SIMULATOR
  ns_sim_options_clear(&opt);
#endif
  if (status == 0)
    return 0;
  if (failure == NS_SWEEP_BAD_OPTION)
    return ns_cli_option_error(error);
  if (failure == NS_SWEEP_USAGE) {
    ns_cli_usage("sweep", "%s", error->message);
    g_error_free(error);
    return 2;
  }
  return ns_cli_fail(error);
}
