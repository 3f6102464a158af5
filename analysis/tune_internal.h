/* netsched — `netsched tune`: STAGE-MPI's tuning by simulation (Faraj's
 * dissertation §4.1; docs/tune.md).
 *
 * For one collective on one topology, every candidate algorithm (the
 * registry's, or the caller's list) is measured across message sizes:
 *   - algorithms with a parameter get it by the linear search of
 *     §4.1.1.3 at every size, and the sizes where the best value changes
 *     by the binary search of §4.1.1.4 (Figure 4.4 step 3): the ring and
 *     pair "N MPI barriers" variants (`barriers=N`, N barriers splitting the
 *     p − 1 phases evenly, every N the phase blocks give) and the pipelined
 *     broadcasts (`segment=BYTES`, 1 KiB … 64 KiB and the whole message);
 *   - then every algorithm, each with its tuned parameter, by the same
 *     search (step 4): a decision table of size ranges.
 * Planners that refuse the topology are left out with a note.
 *
 * Measurements go to OUTDIR/measurements.csv row by row, each with the
 * configuration's digest; a resumed run reuses the rows of its
 * configuration (refusing others), so an interrupted tuning continues
 * where it stopped and a finished one is redone without a simulation.
 *
 * The measurement is the experiment engine's callback (NsMeasureFunc,
 * analysis/experiment_internal.h): the CLI passes the replay's, or the
 * generated routine's under smpirun (sim/smpi_routine.h).
 *
 * measurements.csv columns: config, collective, algorithm, params,
 * msize_bytes, time_s, stage, status — stage "size" (a fixed size) or
 * "search" (a binary-search probe), status "ok" or why the candidate does
 * not apply there. */
#ifndef NETSCHED_TUNE_H
#define NETSCHED_TUNE_H

#include "analysis/tune_spec_internal.h"

/* The dissertation's fixed sizes (§4.1.1.4): 1 B, 64 B, 512 B, 1 KiB …
 * 256 KiB (twelve). */
#define NS_TUNE_DEFAULT_SIZES "1B,64B,512B,1KiB,2KiB,4KiB,8KiB,16KiB,32KiB,64KiB,128KiB,256KiB"


/* What a tuning found (ns_tune_result_free). */
typedef struct {
  NsDecisionTable *table;    /* margins filled */
  guint measured;            /* simulations run now */
  guint reused;              /* measurements kept from measurements.csv */
  gboolean routines;         /* tuned_<coll>.c, netsched-mpi.conf and README written
                                (alltoall, allgather, bcast; not the reductions and
                                v-collectives, which have no routine tables) */
} NsTuneResult;
void ns_tune_result_free(NsTuneResult *r);

/*
 * ns_tune_run — tunes into spec->outdir (created; its lock held):
 * measurements.csv, decision.json, decision.csv, tune.dat/tune.gp and, with
 * gnuplot, tune.svg and tune.png, the chosen routines' tables
 * (COLL-ALGO[-PARAM].nsr), netsched-mpi.conf, tuned_COLL.c and README.
 * NS_ERROR_INPUT for an unknown candidate, a measurements.csv of another
 * configuration or a symbolic link as OUTDIR; NS_ERROR_UNSUPPORTED when
 * no candidate applies; NS_ERROR_IO for files. Time: the measurements
 * (candidates × sizes × parameter values, plus the binary searches).
 */
NsTuneResult *ns_tune_run(const NsTuneSpec *spec, GError **error);

#endif
