/* netsched — bcast/binomial: the binomial tree broadcast of LAM/MPI and of
 * MPICH for small messages.
 *
 * Faraj dissertation §3.4.1 ("broadcast follows a hypercube communication
 * pattern and the total number of messages that the root sends is
 * log(P)", Figure 3.26 (d), Table 3.7: log2(P)·T(msize)) and §4.1.1.1;
 * Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
 * Operations in MPICH", IJHPCA 2005, §4.1 (MPIR_Bcast binomial).
 */
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/*
 * ns_bcast_binomial — broadcast on the binomial tree over ranks relative
 * to the root.
 *
 * Steps (MPICH's binomial broadcast):
 *  1. rank(m) = (m − root) mod P. Rank r ≠ 0 receives from r − 2^b, where
 *     2^b is the lowest set bit of r.
 *  2. Rank r sends to r + 2^j for every 2^j below its lowest set bit (every
 *     2^j < P for the root) with r + 2^j < P, the largest distance first —
 *     MPICH's order, which sends the biggest subtree first.
 *  3. The phases come from the shared pipeline (bcast_pipeline_internal.h). With one
 *     segment (the paper's atomic binomial broadcast) that is ⌈log2 P⌉
 *     phases, phase j holding the sends of distance 2^(⌈log2 P⌉−1−j) — the
 *     classic rounds; with X segments the segments follow one another down
 *     the same tree (at most (X + H − 1)·D phases, H = D = ⌈log2 P⌉).
 *     1-port; not topology-aware.
 *
 * Params: msize, root, segment (0, the usual case: one segment). Errors:
 * NS_ERROR_INPUT for a bad root or msize 0; NS_ERROR_UNSUPPORTED beyond
 * NS_BCAST_MAX_TRANSFERS transfers. Any topology. Time and memory
 * O(X·P + P log P).
 */
NsSchedule *ns_bcast_binomial(const NsTopology *topo, const NsPlanParams *params,
                              GError **error)
{
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "binomial", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  int64_t top = 1;
  while (top * 2 < p)
    top *= 2; /* largest power of two below p */
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  /* Ranks in increasing order: a parent r − lowbit(r) < r is added first. */
  for (int64_t r = 0; r < p; r++) {
    int64_t low = r == 0 ? 2 * top : (r & -r);
    for (int64_t d = low / 2; d >= 1; d /= 2)
      if (r + d < p)
        ns_bcast_tree_add(t, (int)((params->root + r) % p), (int)((params->root + r + d) % p));
  }
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "binomial", x, seg);
}
