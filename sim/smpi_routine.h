/* netsched — a schedule's generated routine measured under smpirun: the
 * routine table `netsched generate -o X.nsr` writes (sched/lower/
 * routine_internal.h), run by the netsched routine runtime in a driver
 * program on the SimGrid platform of the topology with the schedule's
 * routes, under SMPI (`netsched tune --measure smpirun`, docs/tune.md).
 *
 * The driver is Faraj's dissertation's timing loop (§4.1.1.2, Figure 4.3):
 * N invocations back to back (Mpptest), an MPI_Barrier before each
 * (Mpptest + barrier), or a computation of S simulated seconds before
 * each (Mpptest + computation: SMPI's simulated sleep, as the replay's
 * sg_actor_sleep_for). Every rank starts the loop at one common simulated
 * instant, after an untimed call (the runtime duplicates the communicator
 * then), as the replay's machines start together; the measurement is the
 * last rank's end minus the first's start, the whole loop (the caller
 * divides by N).
 *
 * The driver is compiled with smpicc once, at the first measurement, into
 * a private directory (mode 0700) made inside `parent`; every measurement
 * writes its table, platform and hostfile there and runs smpirun there (an
 * argument vector, no shell; SMPI's own temporary copies go there too).
 * ns_smpi_routine_runner_clear removes the directory; a stop signal during
 * a run removes it before the signal is raised again (sim/child.h).
 */
#ifndef NETSCHED_SIM_SMPI_ROUTINE_H
#define NETSCHED_SIM_SMPI_ROUTINE_H

#include "analysis/experiment_internal.h"
#include "sched/lower/routine_internal.h"
#include "sim/sim.h"

typedef struct {
  const NsSimOptions *opt;   /* the SMPI model and its calibration, the wall limit, and
                                Figure 4.3's loop: iterations, iteration_gap,
                                iteration_compute_s */
  char *parent;              /* where the private directory is made */
  char *dir;                 /* the private directory (NULL until the first measurement) */
  guint runs;                /* smpirun runs made */
} NsSmpiRoutineRunner;

/* The largest allocation the routine runtime reads besides its table's
 * records, in bytes: a machine's sync messages, sent from one block of
 * (messages + 1) x ro->sync_size bytes (mpi/runtime/ns_routine.c,
 * run_machine), whose first four bytes the receiver reads (await_syncs);
 * at most table/2 messages a machine. smpirun's shared malloc must stay
 * above it (ns_smpi_shared_malloc_thresh). O(1). */
uint64_t ns_smpi_routine_sync_block(const NsRoutine *routine, const NsRoutineOptions *ro);

/* A runner making its directory in `parent` (copied) with `opt` (kept). */
void ns_smpi_routine_runner_init(NsSmpiRoutineRunner *r, const NsSimOptions *opt,
                                 const char *parent);
/* Removes the private directory and frees the runner's strings. */
void ns_smpi_routine_runner_clear(NsSmpiRoutineRunner *r);

/* NsMeasureFunc (analysis/experiment_internal.h) with `user` an
 * NsSmpiRoutineRunner: builds the routine of s under v's scheme (the
 * algorithm's own without one) and measures it under smpirun as above.
 * out->completion_s is the whole loop's time (simulated seconds); the row
 * is valid (a routine is built only from a schedule that verifies).
 * NS_ERROR_CHECK when s does not verify, NS_ERROR_INPUT for a scheme that
 * does not apply or a model other than smpi, NS_ERROR_IO when smpicc or
 * smpirun is missing, fails, exceeds the wall limit or is stopped. */
gboolean ns_smpi_routine_measure(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                                 uint64_t msize, const NsRowFacts *facts, NsMeasure *out,
                                 void *user, GError **error);

#endif
