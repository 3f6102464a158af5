/* netsched — reduce/bintree: Open MPI's binary tree reduce.
 *
 * Open MPI ompi/mca/coll/base/coll_base_reduce.c,
 * ompi_coll_base_reduce_intra_binary (algorithm 4 of coll/tuned's reduce,
 * Open MPI 1.6 - 4.1): the generic segmented reduce on
 * ompi_coll_base_topo_build_tree with fanout 2, the tree of bcast/bintree.
 * Faraj's dissertation §4.1.1.1 ("all broadcast algorithms can be used to
 * perform the reduce operation with the communication in the reversed
 * direction").
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_bintree — Open MPI's binary tree, reversed.
 *
 * Steps:
 *  1. Open MPI's binary tree over ranks relative to the root
 *     (bcast/bintree: rank r on level l = ⌊log2(r + 1)⌋ has the children
 *     r + 2^l and r + 2·2^l), reversed (reduce_reverse_internal.h): the
 *     leaves send first, every inner rank combines its two children's
 *     partials before sending on.
 *  2. Height ⌊log2 P⌋; at most (X + H − 1)·2 phases, 1-port, not
 *     topology-aware.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_reduce_bintree(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_bintree, "bintree", error);
}
