/* netsched — bcast/flat: the root sends the message to every machine in
 * turn.
 *
 * Faraj dissertation §3.4.1 ("In the flat tree algorithm, the root
 * sequentially sends the broadcast message to each of the receivers. The
 * completion time is thus (P − 1)·T(msize)", Figure 3.26 (e), Table 3.7)
 * and §4.1.1.1 (flat tree algorithm).
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_flat — flat-tree broadcast.
 *
 * Steps:
 *  1. The root is the parent of every other machine, in rank order
 *     root+1, root+2, ..., root−1 (mod P).
 *  2. The pipeline (bcast_pipeline_internal.h) makes the root send segment 0 to
 *     every machine, then segment 1, and so on: exactly X·(P − 1) phases of
 *     one transfer each (the tree has H = 1, D = P − 1), so it is
 *     contention-free and 1-port on every topology.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_bcast_flat(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "flat", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  for (int r = 1; r < p; r++)
    ns_bcast_tree_add(t, params->root, (params->root + r) % p);
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "flat", x, seg);
}
