/* netsched — alltoall/shift: the shift permutations, for fat trees. */
#include "sched/planners/alltoall/alltoall_shifts_internal.h"

/*
 * ns_alltoall_shift — all-to-all as p−1 shift permutations (Zahavi et al.,
 * "Optimized InfiniBand fat-tree routing for shift all-to-all
 * communication patterns", 2010).
 *
 * Steps:
 *  for j = 1 .. p−1 (one phase each):
 *    every machine i sends to (i + j) mod p.
 * The same phases as MPICH's ring (alltoall/ring), named for the property
 * that matters on fat trees: on a full k-ary n-tree under d-mod-k routing
 * every shift permutation is contention-free, so the schedule takes p−1
 * phases — the port bound, hence optimal (the verifier proves both on each
 * topology it is run on). On a tree of several switches or a torus the
 * phases contend; the verifier says where.
 * Streams (ns_plan_streamed): memory O(p) then.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_alltoall_shift(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_alltoall_shifts(topo, params, "shift");
}
