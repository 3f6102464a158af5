/* netsched — MPICH 4.0's algorithms (the MPIR layer) and the planners that
 * plan them.
 *
 * `csel` is the name a collective-selection file gives the algorithm
 * ("algorithm=MPIR_Alltoall_intra_brucks"), `name` the value of
 * MPIR_CVAR_<COLL>_INTRA_ALGORITHM that forces it — both as MPICH 4.0.2
 * spells them (src/mpi/coll/src/csel_container.c; the CVARs'
 * descriptions, `mpivars`). The algorithms are src/mpi/coll/alltoall/,
 * allgather/, bcast/; Thakur, Rabenseifner & Gropp, IJHPCA 2005, §4
 * describe them. mpich.c's default selection picks among the same.
 */
#include "sched/planners/select/mpi_library_internal.h"

#define A(coll, name_, csel_, planner_, ...)                                                       \
  {                                                                                                \
    .collective = NS_COLL_##coll, .name = (name_), .csel = (csel_), .planner = (planner_),         \
    __VA_ARGS__                                                                                    \
  }

const NsMpiAlgorithm ns_mpich_algorithms[] = {
  A(ALLTOALL, "brucks", "MPIR_Alltoall_intra_brucks", "bruck"),
  A(ALLTOALL, "scattered", "MPIR_Alltoall_intra_scattered", "spread",
    .note = "MPICH posts in batches of 32, to i-1, i-2, ...; spread posts all, to i+1, ..."),
  /* Exchanges with i XOR k when p is a power of two, else sends to i+k. */
  A(ALLTOALL, "pairwise", "MPIR_Alltoall_intra_pairwise", "pair", .shape = NS_MPI_P_POW2),
  A(ALLTOALL, "pairwise", "MPIR_Alltoall_intra_pairwise", "ring", .shape = NS_MPI_P_NOT_POW2),

  A(ALLGATHER, "brucks", "MPIR_Allgather_intra_brucks", "bruck"),
  A(ALLGATHER, "recursive_doubling", "MPIR_Allgather_intra_recursive_doubling", "rdb",
    .shape = NS_MPI_P_POW2),
  A(ALLGATHER, "ring", "MPIR_Allgather_intra_ring", "ring"),

  A(BCAST, "binomial", "MPIR_Bcast_intra_binomial", "binomial"),
  A(BCAST, "scatter_recursive_doubling_allgather",
    "MPIR_Bcast_intra_scatter_recursive_doubling_allgather", "scatter-allgather",
    .approximate = TRUE,
    .note = "binomial scatter, then a recursive-doubling all-gather (netsched's all-gathers "
            "by a ring)"),
  A(BCAST, "scatter_ring_allgather", "MPIR_Bcast_intra_scatter_ring_allgather",
    "scatter-allgather"),

  A(REDUCE, "binomial", "MPIR_Reduce_intra_binomial", "binomial"),
  A(REDUCE, "reduce_scatter_gather", "MPIR_Reduce_intra_reduce_scatter_gather", "rabenseifner"),

  A(ALLREDUCE, "recursive_doubling", "MPIR_Allreduce_intra_recursive_doubling", "rdb"),
  A(ALLREDUCE, "reduce_scatter_allgather", "MPIR_Allreduce_intra_reduce_scatter_allgather",
    "rabenseifner"),
  A(ALLREDUCE, "ring", "MPIR_Allreduce_intra_ring", "ring"),

  /* MPIR_CVAR_ALLTOALLV_INTRA_ALGORITHM's pairwise_sendrecv_replace runs
   * only in place (MPI_IN_PLACE), which a schedule does not model. */
  A(ALLTOALLV, "scattered", "MPIR_Alltoallv_intra_scattered", "spread",
    .note = "MPICH posts in batches of 32; spread posts all at once"),

  A(ALLGATHERV, "brucks", "MPIR_Allgatherv_intra_brucks", "bruck"),
  A(ALLGATHERV, "recursive_doubling", "MPIR_Allgatherv_intra_recursive_doubling", "rdb",
    .shape = NS_MPI_P_POW2),
  A(ALLGATHERV, "ring", "MPIR_Allgatherv_intra_ring", "ring"),
};
const int ns_mpich_n_algorithms = (int)G_N_ELEMENTS(ns_mpich_algorithms);
