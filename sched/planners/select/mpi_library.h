/* netsched — the MPI libraries' own algorithms, mapped to netsched planners.
 *
 * Open MPI 4.1 (coll/tuned: the algorithm ids of coll_tuned_<coll>_algorithm
 * and of a dynamic-rules file) and MPICH 4.0 (the collective-selection
 * names, "MPIR_Alltoall_intra_brucks", and the MPIR_CVAR_<COLL>_INTRA_ALGORITHM
 * values) each implement a few algorithms per collective. These maps say
 * which registered planner plans each of them (with its parameters), and
 * back: which library algorithm runs what a netsched planner planned — or
 * none, for the topology-specific algorithms only netsched has (faraj, lr1,
 * ...). The rules writers (sched/lower/mpi_rules.h) and the "what to
 * configure" advice read them; the selector tables (selector_internal.h)
 * name the same algorithms, which a test checks. docs/mpi-rules.md.
 */
#ifndef NETSCHED_MPI_LIBRARY_H
#define NETSCHED_MPI_LIBRARY_H

#include "sched/ir/schedule.h"
#include <glib.h>

typedef enum {
  NS_MPI_OMPI,  /* Open MPI 4.1 (Debian 12: 4.1.4), coll/tuned */
  NS_MPI_MPICH, /* MPICH 4.0 (Debian 12: 4.0.2), the MPIR layer */
  NS_MPI_N_LIBRARIES,
} NsMpiLibrary;

/* When a planner's schedule is what the library's algorithm does. */
typedef enum {
  NS_MPI_P_ANY,
  NS_MPI_P_POW2,     /* p a power of two */
  NS_MPI_P_NOT_POW2, /* p not a power of two */
  NS_MPI_P_EVEN,     /* p even */
  NS_MPI_P_TWO,      /* p = 2 */
} NsMpiShape;

typedef struct {
  NsCollective collective;
  const char *name;     /* the library's name of the algorithm ("modified_bruck", "brucks") */
  int id;               /* Open MPI: the coll_tuned_<coll>_algorithm id; MPICH: 0 */
  const char *csel;     /* MPICH: the selection file's container name
                          ("MPIR_Alltoall_intra_brucks"); Open MPI: NULL */
  const char *planner;  /* the registered planner that plans it */
  const char *params;   /* the planner's parameters for it ("arity=4"), NULL for none */
  NsMpiShape shape;     /* the planner is this algorithm only for such p */
  gboolean approximate; /* the planner only approximates it (or another entry owns
                           the planner): no lookup from the planner leads here */
  const char *note;     /* NULL, or where the planner differs from the algorithm */
} NsMpiAlgorithm;

/* "Open MPI 4.1" or "MPICH 4.0". */
const char *ns_mpi_library_name(NsMpiLibrary lib);

/* Every algorithm of `lib` for `collective`, in the library's order (Open
 * MPI: by id); *n receives the count (0 for a collective the map lacks). */
const NsMpiAlgorithm *ns_mpi_library_algorithms(NsMpiLibrary lib, NsCollective collective, int *n);

/* What a tuning for `lib` may choose from: the algorithms whose planner
 * maps back to them (not approximate), in the library's order, as
 * const NsMpiAlgorithm * (read ->planner and ->params; free the array
 * only). */
GPtrArray *ns_mpi_library_candidates(NsMpiLibrary lib, NsCollective collective);

/* The library's algorithm that runs what `planner` plans on p machines, or
 * NULL when the library has none (a topology-specific planner, or the
 * planner only for another shape of p). */
const NsMpiAlgorithm *ns_mpi_library_lookup(NsMpiLibrary lib, NsCollective collective,
                                            const char *planner, int64_t p);

/* Whether p has the shape. */
gboolean ns_mpi_shape_holds(NsMpiShape shape, int64_t p);

/* Open MPI 4.1's collective id (coll_base_functions.h's COLLTYPE_T:
 * ALLGATHER 0, ALLGATHERV 1, ALLREDUCE 2, ALLTOALL 3, ALLTOALLV 4, BCAST 7,
 * REDUCE 11; -1 for another). */
int ns_ompi_collective_id(NsCollective collective);

#endif
