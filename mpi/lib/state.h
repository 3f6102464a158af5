/* libnetsched-mpi's process-wide state: the configuration and the routine
 * tables it names, loaded once (on the first intercepted call) and freed
 * when MPI_Finalize deletes MPI_COMM_SELF's attributes. */
#ifndef NSMPI_STATE_H
#define NSMPI_STATE_H
#include "mpi/lib/config.h"

/* What this_machine[] holds for a table that did not load. */
#define NSMPI_NOT_LOADED (-2)

typedef struct {
  NsmpiConfig config;
  NsrRoutine *routine[NSMPI_MAX_TABLES];   /* NULL: failed to load (error recorded) */
  uint32_t digest_hash[NSMPI_MAX_TABLES];  /* of the table's digest (ranks compare it) */
  int this_machine[NSMPI_MAX_TABLES];      /* this process's machine, -1 none, NSMPI_NOT_LOADED */
  int world_rank, world_size;
  uint32_t errors_hash;                    /* of config.errors_text */
} NsmpiState;

/* The state, loaded on first use (thread-safe). */
const NsmpiState *nsmpi_state(void);

/* Prints this process's configuration errors, once per process. Called
 * by the lowest rank of a communicator that has errors, when the ranks
 * compare their records (comm.c): ranks usually share one configuration,
 * so one rank speaks for all, and a file missing on one node only is
 * still said, by a rank of that node. */
void nsmpi_state_say_errors(const NsmpiState *s);
#endif
