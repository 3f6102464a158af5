/* netsched — lookups over the MPI libraries' algorithm maps (mpi_library.h). */
#include "sched/planners/select/mpi_library_internal.h"
#include <string.h>

/**
 * \function ns_mpi_library_name
 * \brief The library's name and version: "Open MPI 4.1" or "MPICH 4.0".
 *
 * \param lib The library.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/mpi-rules.md.
 */
const char *ns_mpi_library_name(NsMpiLibrary lib)
{
  return lib == NS_MPI_OMPI ? "Open MPI 4.1" : "MPICH 4.0";
}

/**
 * \function ns_mpi_library_algorithms
 * \brief Every algorithm of an MPI library for one collective, in the library's order.
 *
 * \param lib The library.
 * \param collective The collective.
 * \param n Receives the count (0 when the map has none).
 * \return The first entry (a static array), NULL when there is none.
 * \errors none.
 * \complexity O(algorithms of the library).
 * \source Open MPI 4.1.4 coll/tuned's algorithm ids; MPICH 4.0.2's collective-selection names.
 */
const NsMpiAlgorithm *ns_mpi_library_algorithms(NsMpiLibrary lib, NsCollective collective, int *n)
{
  const NsMpiAlgorithm *all = lib == NS_MPI_OMPI ? ns_ompi_algorithms : ns_mpich_algorithms;
  int total = lib == NS_MPI_OMPI ? ns_ompi_n_algorithms : ns_mpich_n_algorithms;
  /* Each map lists its collectives in contiguous runs. */
  int first = 0;
  while (first < total && all[first].collective != collective)
    first++;
  int last = first;
  while (last < total && all[last].collective == collective)
    last++;
  *n = last - first;
  return *n > 0 ? &all[first] : NULL;
}

/**
 * \function ns_mpi_shape_holds
 * \brief Whether a number of machines has a shape (a power of two, even, two).
 *
 * \param shape The shape.
 * \param p The number of machines.
 * \return TRUE when p has it.
 * \errors none.
 * \complexity O(1).
 * \source mpi_library.h.
 */
gboolean ns_mpi_shape_holds(NsMpiShape shape, int64_t p)
{
  gboolean pow2 = p > 0 && (p & (p - 1)) == 0;
  switch (shape) {
  case NS_MPI_P_POW2:
    return pow2;
  case NS_MPI_P_NOT_POW2:
    return !pow2;
  case NS_MPI_P_EVEN:
    return p % 2 == 0;
  case NS_MPI_P_TWO:
    return p == 2;
  case NS_MPI_P_ANY:
    break;
  }
  return TRUE;
}

/**
 * \function ns_mpi_library_candidates
 * \brief The algorithms a tuning for an MPI library may choose from, with their planners.
 *
 * The entries whose planner maps back to them (not `approximate`): what a rules
 * file for that library can name. Read each entry's planner and params.
 *
 * \param lib The library.
 * \param collective The collective.
 * \return A new array of const NsMpiAlgorithm * (free the array only), empty for a
 *         collective the library map lacks.
 * \errors none.
 * \complexity O(algorithms of the library).
 * \source Faraj's dissertation §4.1 (STAGE-MPI tunes among a library's algorithms).
 */
GPtrArray *ns_mpi_library_candidates(NsMpiLibrary lib, NsCollective collective)
{
  int n = 0;
  const NsMpiAlgorithm *a = ns_mpi_library_algorithms(lib, collective, &n);
  GPtrArray *out = g_ptr_array_new();
  for (int i = 0; i < n; i++)
    if (!a[i].approximate)
      g_ptr_array_add(out, (gpointer)&a[i]);
  return out;
}

/**
 * \function ns_mpi_library_lookup
 * \brief The MPI library's algorithm that runs what a netsched planner plans.
 *
 * \param lib The library.
 * \param collective The collective.
 * \param planner A registered planner's name ("bruck").
 * \param p The number of machines (some algorithms are a planner's only for
 *          a power of two, an even p, p = 2).
 * \return The entry, or NULL when the library has no such algorithm (a
 *         topology-specific planner such as faraj, or p of another shape).
 * \errors none.
 * \complexity O(algorithms of the library).
 * \source docs/mpi-rules.md (the maps as tables).
 */
const NsMpiAlgorithm *ns_mpi_library_lookup(NsMpiLibrary lib, NsCollective collective,
                                            const char *planner, int64_t p)
{
  int n = 0;
  const NsMpiAlgorithm *a = ns_mpi_library_algorithms(lib, collective, &n);
  for (int i = 0; i < n && planner != NULL; i++)
    if (!a[i].approximate && strcmp(a[i].planner, planner) == 0 &&
        ns_mpi_shape_holds(a[i].shape, p))
      return &a[i];
  return NULL;
}

/**
 * \function ns_ompi_collective_id
 * \brief Open MPI 4.1's id of a collective in a dynamic-rules file.
 *
 * \param collective The collective.
 * \return ALLGATHER 0, ALLGATHERV 1, ALLREDUCE 2, ALLTOALL 3, ALLTOALLV 4, BCAST 7,
 *         REDUCE 11 (COLLTYPE_T); -1 for another.
 * \errors none.
 * \complexity O(1).
 * \source Open MPI 4.1.4 ompi/mca/coll/base/coll_base_functions.h (COLLTYPE_T).
 */
int ns_ompi_collective_id(NsCollective collective)
{
  switch (collective) {
  case NS_COLL_ALLGATHER:
    return 0;
  case NS_COLL_ALLGATHERV:
    return 1;
  case NS_COLL_ALLREDUCE:
    return 2;
  case NS_COLL_ALLTOALL:
    return 3;
  case NS_COLL_ALLTOALLV:
    return 4;
  case NS_COLL_BCAST:
    return 7;
  case NS_COLL_REDUCE:
    return 11;
  default:
    return -1;
  }
}
