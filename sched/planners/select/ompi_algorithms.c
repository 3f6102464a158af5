/* netsched — Open MPI 4.1's algorithms (coll/tuned) and the planners that
 * plan them.
 *
 * The ids are those of the MCA parameters coll_tuned_<coll>_algorithm
 * (alltoall, allgather, bcast, reduce, allreduce, alltoallv, allgatherv) of Open MPI
 * 4.1.4 (`ompi_info --param coll tuned --level 9` lists them), which a
 * dynamic-rules file names too (ompi/mca/coll/tuned/coll_tuned_alltoall_
 * decision.c, _allgather_decision.c, _bcast_decision.c: the do_this
 * switches). The algorithms themselves are ompi/mca/coll/base/
 * coll_base_{alltoall,allgather,bcast}.c; ompi.c's fixed decisions pick
 * among the same ids.
 */
#include "sched/planners/select/mpi_library_internal.h"

#define A(coll, id_, name_, planner_, ...)                                                         \
  {                                                                                                \
    .collective = NS_COLL_##coll, .id = (id_), .name = (name_), .planner = (planner_), __VA_ARGS__ \
  }

const NsMpiAlgorithm ns_ompi_algorithms[] = {
  A(ALLTOALL, 1, "linear", "basic-linear"),
  A(ALLTOALL, 2, "pairwise", "ring"),
  A(ALLTOALL, 3, "modified_bruck", "bruck",
    .note = "Open MPI's Bruck keeps the blocks in place (no final rotation): the same messages"),
  A(ALLTOALL, 4, "linear_sync", "basic-linear", .approximate = TRUE,
    .note = "basic linear with at most alltoall_algorithm_max_requests requests in flight"),
  A(ALLTOALL, 5, "two_proc", "pair", .shape = NS_MPI_P_TWO),

  A(ALLGATHER, 1, "linear", "gather-bcast",
    .note = "Open MPI gathers to rank 0 linearly, then broadcasts with its own bcast"),
  A(ALLGATHER, 2, "bruck", "bruck"),
  A(ALLGATHER, 3, "recursive_doubling", "rdb", .shape = NS_MPI_P_POW2),
  A(ALLGATHER, 4, "ring", "ring"),
  A(ALLGATHER, 5, "neighbor", "neighbor", .shape = NS_MPI_P_EVEN),
  A(ALLGATHER, 6, "two_proc", "rdb", .shape = NS_MPI_P_TWO, .approximate = TRUE),

  A(BCAST, 1, "basic_linear", "flat",
    .note = "Open MPI posts the root's p-1 sends at once; flat sends them in turn"),
  A(BCAST, 2, "chain", "linear", .approximate = TRUE,
    .note = "fan-out chains from the root; one chain (fan-out 1) is the pipeline"),
  A(BCAST, 3, "pipeline", "linear"),
  A(BCAST, 4, "split_binary_tree", "bintree", .approximate = TRUE,
    .note = "two halves down a binary tree, then exchanged: no netsched planner"),
  A(BCAST, 5, "binary_tree", "bintree"),
  A(BCAST, 6, "binomial", "bmtree"),
  /* The radix is the MCA parameter coll_tuned_bcast_knomial_radix (4),
   * not the rule's fan-out. */
  A(BCAST, 7, "knomial", "knomial", .params = "arity=4"),
  A(BCAST, 8, "scatter_allgather", "scatter-allgather", .approximate = TRUE,
    .note = "binomial scatter, then a recursive-doubling all-gather (netsched's all-gathers "
            "by a ring)"),
  A(BCAST, 9, "scatter_allgather_ring", "scatter-allgather"),

  A(REDUCE, 1, "linear", "flat",
    .note = "every rank sends at once, the root receives from p-1 down to 0; flat orders the "
            "sends from root-1 down"),
  A(REDUCE, 2, "chain", "linear", .approximate = TRUE,
    .note = "fan-out chains towards the root; one chain (fan-out 1) is the pipeline"),
  A(REDUCE, 3, "pipeline", "linear"),
  A(REDUCE, 4, "binary", "bintree"),
  /* The in-order binomial tree: parent r - lowbit(r), MPICH's. */
  A(REDUCE, 5, "binomial", "binomial"),
  A(REDUCE, 6, "in-order_binary", "bintree", .approximate = TRUE,
    .note = "the in-order binary tree (rank p-1 its root, then to the root): no netsched "
            "planner"),
  A(REDUCE, 7, "rabenseifner", "rabenseifner", .approximate = TRUE,
    .note = "Open MPI folds the extra ranks by exchanging halves; MPICH's fold sends whole "
            "vectors"),

  /* coll_tuned_allreduce_algorithm (coll_base_allreduce.c) */
  A(ALLREDUCE, 1, "basic_linear", "reduce-bcast", .approximate = TRUE,
    .note = "Open MPI reduces linearly to rank 0, then broadcasts with its own bcast"),
  A(ALLREDUCE, 2, "nonoverlapping", "reduce-bcast",
    .note = "MPI_Reduce to 0 then MPI_Bcast, each by its own decision; reduce-bcast: binomial"),
  A(ALLREDUCE, 3, "recursive_doubling", "rdb"),
  A(ALLREDUCE, 4, "ring", "ring"),
  A(ALLREDUCE, 5, "segmented_ring", "ring", .approximate = TRUE,
    .note = "segments of the ring's blocks pipelined; without a segment size, the ring"),
  A(ALLREDUCE, 6, "rabenseifner", "rabenseifner",
    .note = "Open MPI halves by element counts; MPICH's equal blocks here"),

  /* coll_tuned_alltoallv_algorithm (coll_base_alltoallv.c). A dynamic-rules
   * file cannot choose among them by message size: Open MPI reads its
   * alltoallv rules at size 0 (coll_tuned_decision_dynamic.c), so the
   * setting is the forced algorithm. */
  A(ALLTOALLV, 1, "basic_linear", "simple"),
  A(ALLTOALLV, 2, "pairwise", "ring"),

  /* coll_tuned_allgatherv_algorithm (coll_base_allgatherv.c) */
  A(ALLGATHERV, 1, "default", "gather-bcast",
    .note = "Open MPI gathers with a linear gatherv, then broadcasts; gather-bcast with binary "
            "trees"),
  A(ALLGATHERV, 2, "bruck", "bruck"),
  A(ALLGATHERV, 3, "ring", "ring"),
  A(ALLGATHERV, 4, "neighbor", "neighbor", .shape = NS_MPI_P_EVEN),
  A(ALLGATHERV, 5, "two_proc", "simple", .shape = NS_MPI_P_TWO),
};
const int ns_ompi_n_algorithms = (int)G_N_ELEMENTS(ns_ompi_algorithms);
