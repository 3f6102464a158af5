/* netsched — bcast/linear: pipelined broadcast along the topology-unaware
 * linear tree n_0 -> n_1 -> ... -> n_{P-1}.
 *
 * Faraj dissertation §3.4.1 (Figure 3.26 (a), Table 3.7) and §3.4.3
 * (Figure 3.35: "the topology unaware linear tree in [61, 78] is used:
 * n_0 -> n_1 -> ... -> n_{P-1} (n_0 is the root)"); §4.1.1.1 (linear tree
 * algorithm).
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_linear — pipelined broadcast on the linear tree in machine
 * numbering order.
 *
 * Steps:
 *  1. Ranks relative to the root: rank(m) = (m − root) mod P, so the chain
 *     starts at the root and follows the machine numbering, wrapping
 *     around: root -> root+1 -> ... -> P−1 -> 0 -> ... -> root−1 (with
 *     root 0, the paper's n_0 -> n_1 -> ... -> n_{P−1}).
 *  2. Pipeline the X segments down the chain (bcast_pipeline_internal.h): X + P − 2
 *     phases, 1-port. Not topology-aware: on a cluster whose numbering
 *     interleaves switches two links of the chain share a directed edge and
 *     the verifier reports the phases where they meet (Figure 3.35,
 *     topology (5)).
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_bcast_linear(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "linear", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  for (int r = 1; r < p; r++)
    ns_bcast_tree_add(t, (params->root + r - 1) % p, (params->root + r) % p);
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "linear", x, seg);
}
