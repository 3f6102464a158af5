/* Per communicator: which tables may run on it, agreed by all its ranks.
 *
 * Computed on the first intercepted collective call on a communicator
 * (every rank makes that call, in the same order as its other collective
 * calls, so the one PMPI_Allgather inside cannot cross another
 * collective), cached as an attribute (MPI_Comm_create_keyval) and freed
 * with the communicator. Each rank contributes a fixed-size record
 * (configuration hash, broken collectives, world rank, and per table its
 * machine and the table's digest hash); every rank then decides from the
 * same gathered records, so no rank takes a table while another falls
 * through — which would hang the job. */
#ifndef NSMPI_COMM_H
#define NSMPI_COMM_H
#include "mpi/lib/state.h"

/* Why a call falls through to the MPI library. The first ones are
 * properties of a (communicator, table); the rest of a call. */
typedef enum {
  NSMPI_OK = 0,
  NSMPI_CONFIG_ERROR,      /* a configuration error concerns the collective (said already) */
  NSMPI_LOAD_ELSEWHERE,    /* another rank could not load the table or the rank map */
  NSMPI_RANKS_DISAGREE,    /* ranks read different configurations or tables */
  NSMPI_COMM_SIZE,         /* communicator size is not the table's machine count */
  NSMPI_MEMBERSHIP,        /* a rank plays none of the table's machines */
  NSMPI_DUPLICATE,         /* two ranks play one machine */
  NSMPI_INTERCOMM,         /* an inter-communicator */
  NSMPI_NO_TABLE,          /* no table configured for the collective */
  NSMPI_SIZE_RANGE,        /* no table's range holds the message size */
  NSMPI_COUNT_ZERO,        /* nothing to move */
  NSMPI_BYTES_DIFFER,      /* send and receive sizes differ (an erroneous call) */
  NSMPI_BCAST_ROOT,        /* no broadcast table has the call's root as its root */
  NSMPI_TOO_LARGE,         /* p blocks do not fit in memory sizes / int counts */
  NSMPI_NO_CANDIDATE,      /* adaptive: no candidate table fits the communicator */
  NSMPI_SITE_FULL,         /* adaptive: a call site's sizes, or the contexts, are used up */
  NSMPI_N_REASONS
} NsmpiReason;

/* Reasons printed even without NETSCHED_MPI_VERBOSE: they are
 * configuration errors, not a call the table does not fit. */
#define NSMPI_REASON_ALWAYS(r) ((r) == NSMPI_LOAD_ELSEWHERE || (r) == NSMPI_RANKS_DISAGREE)

struct NsmpiAdaptive; /* the adaptive mode's per-communicator state (adaptive.h) */

typedef struct {
  int size, rank;
  char label[64];                            /* MPI_COMM_WORLD, "world ranks 0,2,4", ... */
  NsmpiReason verdict[NSMPI_MAX_TABLES];
  char detail[NSMPI_MAX_TABLES][320];        /* why, for the verbose message */
  int *machine_of_rank[NSMPI_MAX_TABLES];    /* [size] when verdict is NSMPI_OK */
  unsigned said[3];                          /* per collective, bit per reason printed */
  uint64_t announced;                        /* bit per table said taken */
  struct NsmpiAdaptive *adaptive;            /* made on the first adaptive call, or NULL */
  void (*adaptive_free)(struct NsmpiAdaptive *); /* set with it by adaptive.c: the
                                                   record is freed without knowing it */
} NsmpiComm;

/* The communicator's record (made on first use: a collective call). Out
 * of memory stops the job with a message (nsmpi_out_of_memory): one rank
 * alone falling through would hang the others. */
NsmpiComm *nsmpi_comm(MPI_Comm comm, const NsmpiState *s);

/* Says, on the communicator's rank 0 and once per collective and reason,
 * that a call of collective k falls through to the MPI library and why
 * (`detail`): under NETSCHED_MPI_VERBOSE, or always for the reasons of
 * NSMPI_REASON_ALWAYS. */
void nsmpi_say_fallthrough(const NsmpiState *s, NsmpiComm *c, NsrCollective k, NsmpiReason why,
                           const char *detail);

/* "netsched-mpi: rank R: out of memory (WHAT)", then MPI_Abort. */
void nsmpi_out_of_memory(const char *what) __attribute__((noreturn));
#endif
