/* netsched — bcast/binary: pipelined broadcast along the topology-unaware
 * complete binary tree.
 *
 * Faraj dissertation §3.4.1 (Figure 3.26 (b), Table 3.7) and §3.4.3
 * (Figure 3.35: "the complete binary tree is assumed, where node n_k has
 * children n_{2k+1} and n_{2k+2} and parent n_{(k−1)/2}").
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_binary — pipelined broadcast on the complete binary tree over
 * ranks relative to the root.
 *
 * Steps:
 *  1. rank(m) = (m − root) mod P; rank k has children 2k+1 and 2k+2 (in
 *     that order) when they are < P. With root 0 this is the paper's tree.
 *  2. Pipeline the X segments down the tree (bcast_pipeline_internal.h): height
 *     H = ⌊log2 P⌋, at most (X + H − 1)·2 phases, 1-port. Not
 *     topology-aware: the paper observes contention "in all topologies
 *     except topology (1)" (a single switch); the verifier reports it.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_bcast_binary(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "binary", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  for (int64_t k = 0; k < p; k++)
    for (int64_t c = 2 * k + 1; c <= 2 * k + 2 && c < p; c++)
      ns_bcast_tree_add(t, (int)((params->root + k) % p), (int)((params->root + c) % p));
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "binary", x, seg);
}
