/* netsched — reduce/linear: the linear tree reduce of STAGE-MPI's
 * repository, p_{P-1} -> p_{P-2} -> ... -> p_0.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce", linear tree
 * algorithm: "p_{p-1} sends its data to p_{p-2} who will perform the
 * reduction operation on its own data and the received data; p_{p-2} sends
 * the new reduced data to p_{p-3} ... until p_0 receives the so far
 * reduced data", (p − 1)(α + nβ). The reverse of bcast/linear (§3.4.1,
 * Figure 3.26 (a)).
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_linear — the chain towards the root in machine numbering order.
 *
 * Steps:
 *  1. The broadcast chain root -> root+1 -> ... -> root−1 (mod P)
 *     (bcast/linear) reversed (reduce_reverse_internal.h): root−1 sends to
 *     root−2, which combines and sends on, ..., root+1 to the root — with
 *     root 0 the paper's p_{P−1} -> ... -> p_0.
 *  2. Without a segment size (the paper's algorithm) P − 1 phases of one
 *     transfer; with --segment the X segments are pipelined up the chain,
 *     X + P − 2 phases. 1-port; not topology-aware (contends where the
 *     numbering interleaves switches, as bcast/linear does).
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_reduce_linear(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_linear, "linear", error);
}
