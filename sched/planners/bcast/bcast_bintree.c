/* netsched — bcast/bintree: Open MPI's binary tree broadcast.
 *
 * Open MPI ompi/mca/coll/base/coll_base_topo.c,
 * ompi_coll_base_topo_build_tree with fanout 2, used by
 * ompi_coll_base_bcast_intra_bintree (algorithm 5 of coll/tuned's bcast),
 * Open MPI 1.6 - 4.1. The same shape as the complete binary tree of
 * `binary` (the heap numbering k -> 2k+1, 2k+2 of Faraj's §3.4.3) but a
 * different numbering: the children of a rank on level l are 2^l and
 * 2^(l+1) ranks further on, so below level 1 the two subtrees interleave.
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_bintree — pipelined broadcast on Open MPI's binary tree over
 * ranks relative to the root.
 *
 * Steps:
 *  1. rank(m) = (m − root) mod P. Rank r is on level l = ⌊log2(r + 1)⌋
 *     (Open MPI's calculate_level); its children are r + 2^l and
 *     r + 2·2^l, in that order, when they are < P. For P = 7: 0 -> 1, 2;
 *     1 -> 3, 5; 2 -> 4, 6 (Open MPI's own example).
 *  2. Pipeline the X segments down the tree (bcast_pipeline.h): height
 *     ⌊log2 P⌋, at most (X + H − 1)·2 phases, 1-port, not topology-aware.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P).
 */
NsSchedule *ns_bcast_bintree(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "bintree", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  /* Ranks in increasing order: every parent is a smaller rank. */
  int64_t delta = 1; /* 2^l for the level l of r */
  for (int64_t r = 0; r < p; r++) {
    if (r + 1 >= 2 * delta)
      delta *= 2;
    for (int64_t c = r + delta; c <= r + 2 * delta && c < p; c += delta)
      ns_bcast_tree_add(t, (int)((params->root + r) % p), (int)((params->root + c) % p));
  }
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "bintree", x, seg);
}
