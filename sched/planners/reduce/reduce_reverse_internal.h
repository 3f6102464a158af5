/* netsched — a reduce as a broadcast run backwards (issue #22). Not a
 * planner itself (nothing here is registered).
 *
 * Faraj's dissertation §4.1.1.1, "Algorithms for MPI_Reduce": "The
 * communication in the reduction operation is the reverse of that in the
 * broadcast operation: nodes send messages to root. Hence, all broadcast
 * algorithms can be used to perform the reduce operation with the
 * communication in the reversed direction", the reduction "applied at
 * intermediate nodes as the pipelined data segments flow towards the root".
 *
 * ns_reduce_from_bcast() plans the broadcast with the same parameters and
 * turns it around: the phases in reverse order, every transfer v -> c
 * becoming c -> v with the combine bit (schedule.h, "Reductions"), segment
 * s relabelled X−1−s so that the root takes segment 0 first.
 *
 * Why the result is a reduce. In the broadcast every machine but the root
 * receives each segment exactly once, from its parent, in an earlier phase
 * than it forwards it to any child. Reversed, a machine sends each segment
 * exactly once, to its parent, in a later phase than every child sent it
 * that segment: its partial then holds exactly its subtree's
 * contributions, the children's subtrees are disjoint, nothing is counted
 * twice and the root ends with all P of them.
 *
 * Why contention and ports carry over. A reversed transfer follows the
 * reversed route (tree routing is symmetric), and reversing maps distinct
 * directed links to distinct directed links: a phase is contention-free
 * after reversal exactly when it was before. A machine that sent once per
 * phase now receives once per phase and vice versa, so the 1-port claims
 * of the broadcast hold too. The phase count is the broadcast's.
 */
#ifndef NETSCHED_REDUCE_REVERSE_H
#define NETSCHED_REDUCE_REVERSE_H

#include "sched/planners/registry.h"

/* Plans the broadcast with `bcast` (a registered bcast planner function)
 * and `params`, and returns it reversed as the reduce `algorithm` with the
 * same root, segments and segment size. Errors: the broadcast planner's,
 * their "bcast/NAME: " prefix replaced by "reduce/ALGORITHM: ". Time and
 * memory: the broadcast's, plus O(its transfers). */
NsSchedule *ns_reduce_from_bcast(const NsTopology *topo, const NsPlanParams *params,
                                 NsPlanFunc bcast, const char *algorithm, GError **error);

#endif
