/* netsched — reduce/pipeline-linear: the topology-specific pipelined
 * linear tree reduce.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce",
 * topology-specific algorithms: "Similar to the pipelined algorithms for
 * the broadcast operation, there are pipelined linear tree and pipelined
 * binary tree algorithms for the reduce operation ... the reduction
 * operation is applied at intermediate nodes as the pipelined data
 * segments flow towards the root"; the tree is the contention-free linear
 * tree of §3.4.2.1, Algorithm 4 (Theorem 4), as bcast/linear-cf builds it.
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_pipeline_linear — segments up the contention-free chain.
 *
 * Steps:
 *  1. Algorithm 4's chain m_0 = root -> m_1 -> ... -> m_{P−1}: the
 *     switches in DFS order from the root's, the machines of each switch
 *     together (bcast/linear-cf).
 *  2. Reversed (reduce_reverse_internal.h): segment s leaves m_{P−1}
 *     first and is combined at every machine it passes. Phases: exactly
 *     X + P − 2 (P − 1 without a segment size), each contention-free
 *     (Theorem 4 for the reversed links) and 1-port.
 *
 * Params: msize, root, segment (0: one segment). Errors: NS_ERROR_INPUT for
 * a bad root or msize 0; NS_ERROR_UNSUPPORTED on a non-tree topology or
 * more than NS_BCAST_MAX_TRANSFERS transfers.
 * Time O(|V| + X·P); memory O(|V| + X·P).
 */
NsSchedule *ns_reduce_pipeline_linear(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_linear_cf, "pipeline-linear", error);
}
