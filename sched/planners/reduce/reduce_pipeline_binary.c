/* netsched — reduce/pipeline-binary: the topology-specific pipelined
 * binary tree reduce.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce",
 * topology-specific algorithms (pipelined binary tree, "the reduction
 * operation is applied at intermediate nodes as the pipelined data
 * segments flow towards the root"); the tree is the contention-free binary
 * tree of §3.4.2.2, Algorithm 5, Figure 3.28 (Theorem 5), as
 * bcast/binary-cf builds it.
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_pipeline_binary — segments up the contention-free binary tree.
 *
 * Steps:
 *  1. Algorithm 5's binary tree of low height over the DFS machine order
 *     (bcast/binary-cf: height H, at most 2 children per machine).
 *  2. Reversed (reduce_reverse_internal.h): every machine combines the
 *     segment from each of its (at most two) children before sending it
 *     to its parent. Phases: those of bcast/binary-cf, at most
 *     (X + H − 1)·2; contention-free (Theorem 5 for the reversed links) and
 *     1-port.
 *
 * Params: msize, root, segment (0: one segment). Errors: NS_ERROR_INPUT for
 * a bad root or msize 0; NS_ERROR_UNSUPPORTED on a non-tree topology or
 * more than NS_BCAST_MAX_TRANSFERS transfers. Time: bcast/binary-cf's
 * (O(P^3) search) plus O(X·P).
 */
NsSchedule *ns_reduce_pipeline_binary(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_binary_cf, "pipeline-binary", error);
}
