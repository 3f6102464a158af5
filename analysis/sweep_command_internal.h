/* netsched — `sweep` as a program runs it, from its command line to its
 * files (docs/sweeps.md):
 *
 *   sweep SPEC.ini [-o DIR] [-j N] [--shard I/N] [--resume|--overwrite]
 *   sweep -g 'waxman:machines=100,200:ratio=5' --seeds 1..50 --trees bfs,dfs -o DIR
 *   sweep merge SPEC.ini|GRID [-o DIR] [SHARD_FILE...]
 *
 * One entry point for `netsched sweep` (cli/cmd_sweep.c: the local worker
 * processes, the simulator as the measurement) and `mpirun netsched-mpi
 * sweep` (mpi/netsched_mpi.c: the MPI ranks, no measurement): the caller
 * passes the executor and the measurement, and prints what failed. */
#ifndef NETSCHED_SWEEP_COMMAND_H
#define NETSCHED_SWEEP_COMMAND_H

#include "analysis/sweep_internal.h"
#include <stdio.h>

typedef struct {
  /* Computes the tasks; NULL: -j forked worker processes (ns_sweep_pool_run). */
  const NsSweepExecutor *executor;
  /* Installs the measurement of a sweep that measures (ns_sweep_set_measure);
   * NULL: such a sweep is refused (NS_ERROR_UNSUPPORTED). */
  gboolean (*install_measure)(NsSweep *sw, void *data, GError **error);
  void *measure_data;
  NsWarnFunc warn;   /* the readers' warnings on swept files; NULL: dropped */
  NsWarnFunc note;   /* notes on the command line (a deprecated option); NULL: dropped */
  void *warn_data;   /* of both */
  FILE *report;      /* what was done, where the files are (stdout) */
  FILE *progress;    /* the --progress reporter's stream (stderr) */
} NsSweepCommandHooks;

/* How the caller shows a failed command. */
typedef enum {
  NS_SWEEP_FAILED,    /* the error alone */
  NS_SWEEP_BAD_OPTION, /* an option the parser refused (with the --help hint) */
  NS_SWEEP_USAGE,     /* a misused command line (with `sweep --help` as the hint) */
} NsSweepFailure;

/*
 * ns_sweep_command — parses `argv` (argv[0] is "sweep"; "merge" as
 * argv[1] joins shards), loads the sweep of SPEC.ini or of the grid
 * options, picks the shard (--shard, or a Slurm job array's
 * SLURM_ARRAY_TASK_*), applies the output-directory policy and runs it
 * with the hooks' executor. Returns the exit status: 0, or
 * ns_error_exit_status() of the error set, `*failure` saying how to show
 * it. --help prints the help on stdout and exits (GLib's GOption).
 */
int ns_sweep_command(int argc, char **argv, const NsSweepCommandHooks *hooks,
                     NsSweepFailure *failure, GError **error);

#endif
