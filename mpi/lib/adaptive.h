/* libnetsched-mpi's adaptive mode (docs/adaptive.md): STAR-MPI's dynamic
 * AEOS with algorithm grouping (Faraj's dissertation §4.3.1.2-4.3.1.3).
 *
 * A collective configured with candidates (routine tables and `native`,
 * the MPI library's own PMPI_ function) is tuned per communicator, per
 * call site (the caller's return address, as STAR-MPI keeps one routine
 * state per call site) and per message size (bytes per block; a site
 * tunes its first NSMPI_ADAPTIVE_SIZES_PER_SITE sizes, as STAR-MPI's X):
 *
 *   1. Measure_Select, enhanced by grouping: the first invocations run
 *      each group's representative (its first candidate in configuration
 *      order) `measure` times each; one MPI_Allreduce (MAX) of every
 *      measured time makes each invocation's time the slowest rank's, on
 *      every rank alike; the group whose representative has the least
 *      mean wins and the other groups are dropped whole;
 *   2. the winning group's other members are measured the same way (one
 *      more MPI_Allreduce), and the candidate of least mean is fixed;
 *   3. every later invocation of the context runs the fixed candidate.
 *
 * Every decision comes from the reduced times, the same on every rank, so
 * all ranks run the same candidate in every invocation. STAR-MPI's
 * Monitor_Adapt stage (re-checking the choice) is not implemented. Rank 0
 * logs each measured candidate and the choice under NETSCHED_MPI_VERBOSE. */
#ifndef NSMPI_ADAPTIVE_H
#define NSMPI_ADAPTIVE_H
#include "mpi/lib/comm.h"

enum {
  NSMPI_ADAPTIVE_CONTEXTS = 64,      /* (site, size) contexts per communicator and collective */
  NSMPI_ADAPTIVE_SIZES_PER_SITE = 8  /* sizes tuned per call site (STAR-MPI's X) */
};

struct NsmpiContext;

/* One invocation in progress: what nsmpi_adaptive_end needs. */
typedef struct {
  struct NsmpiContext *context; /* NULL: nothing to measure */
  NsrCollective collective;
  double start;                 /* PMPI_Wtime() before the candidate ran */
} NsmpiAdaptiveCall;

/* The candidate an invocation of collective k at `site` with `bytes` per
 * block runs: a table's index, or -1 for the MPI library's own function
 * (a native candidate, or a fall-through said by nsmpi_say_fallthrough).
 * Starts the measurement when the context is still measuring. */
int nsmpi_adaptive_begin(const NsmpiState *s, NsmpiComm *c, NsrCollective k, const void *site,
                         size_t bytes, NsmpiAdaptiveCall *call);

/* Ends the invocation begun by nsmpi_adaptive_begin: records its time
 * and, after a stage's last measured invocation, reduces the stage's
 * times over `comm` (one PMPI_Allreduce) and moves to the next stage. */
void nsmpi_adaptive_end(const NsmpiState *s, NsmpiComm *c, const NsmpiAdaptiveCall *call,
                        MPI_Comm comm);

/* Frees a communicator's adaptive state (NULL is fine). */
void nsmpi_adaptive_free(struct NsmpiAdaptive *a);
#endif
