/* netsched — reduce/flat: the root receives every machine's vector in
 * turn.
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce", flat tree
 * algorithm: "similar to the version used in the broadcast operation. The
 * difference is that the root sequentially receives the message to be
 * reduced from each of the senders", (p − 1)(α + nβ) + γ. The reverse of
 * bcast/flat (§3.4.1, Figure 3.26 (e)). What MPI libraries call the linear
 * reduce (Open MPI's basic linear: every non-root sends, the root
 * receives and combines one at a time) is this tree; the paper's "linear
 * tree" is the chain, reduce/linear.
 */
#include "sched/planners/reduce/reduce_reverse_internal.h"

/*
 * ns_reduce_flat — every machine sends to the root, one per phase.
 *
 * Steps:
 *  1. The flat broadcast tree (bcast/flat: the root's children in order
 *     root+1, ..., root−1) reversed (reduce_reverse_internal.h): root−1
 *     sends first, root+1 last, the root combining each receipt.
 *  2. One transfer per phase, so the root receives sequentially: X·(P − 1)
 *     phases (P − 1 without a segment size), contention-free and 1-port on
 *     every topology. The paper's γ — senders that do not wait for the root
 *     — is what a posted replay of the same transfers shows; the phases
 *     state the order the root takes them in.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_reduce_flat(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_reduce_from_bcast(topo, params, ns_bcast_flat, "flat", error);
}
