/* netsched — bcast/bmtree: Open MPI's binomial tree broadcast.
 *
 * Open MPI ompi/mca/coll/base/coll_base_topo.c,
 * ompi_coll_base_topo_build_bmtree, used by
 * ompi_coll_base_bcast_intra_binomial (algorithm 6 of coll/tuned's bcast),
 * Open MPI 1.6 - 4.1. The same depth as MPICH's binomial tree (`binomial`)
 * but the mirror image: a rank's parent clears its HIGHEST set bit (MPICH:
 * its lowest) and a machine sends to its nearest child first (MPICH: its
 * farthest), so the two trees load different links.
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_bmtree — broadcast on Open MPI's binomial tree over ranks
 * relative to the root.
 *
 * Steps:
 *  1. rank(m) = (m − root) mod P. Rank r ≠ 0 receives from r − 2^h, where
 *     2^h is the highest set bit of r.
 *  2. Rank r sends to r + 2^j for every 2^j above its highest set bit
 *     (every 2^j for the root) with r + 2^j < P, the nearest first — Open
 *     MPI's child order (mask = next power of two above r, doubling).
 *  3. The shared pipeline (bcast_pipeline.h) makes the phases: one segment
 *     (Open MPI's decision passes segment size 0) gives ⌈log2 P⌉·D phases
 *     at most, D = ⌈log2 P⌉ children of the root. 1-port; not
 *     topology-aware.
 *
 * Params: msize, root, segment. Errors: NS_ERROR_INPUT for a bad root or
 * msize 0; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS transfers.
 * Any topology. Time and memory O(X·P + P log P).
 */
NsSchedule *ns_bcast_bmtree(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "bmtree", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  /* Ranks in increasing order: a parent r − highbit(r) < r is added first. */
  for (int64_t r = 0; r < p; r++) {
    int64_t mask = 1;
    while (mask <= r)
      mask *= 2; /* the power of two above r's highest bit (1 for the root) */
    for (; r + mask < p; mask *= 2)
      ns_bcast_tree_add(t, (int)((params->root + r) % p), (int)((params->root + r + mask) % p));
  }
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "bmtree", x, seg);
}
