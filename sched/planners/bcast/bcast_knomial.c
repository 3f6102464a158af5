/* netsched — bcast/knomial: Open MPI's k-nomial tree broadcast (radix 4 by
 * default).
 *
 * Open MPI ompi/mca/coll/base/coll_base_topo.c,
 * ompi_coll_base_topo_build_kmtree, used by
 * ompi_coll_base_bcast_intra_knomial (algorithm 7 of coll/tuned's bcast,
 * new in Open MPI 4.1; radix coll_tuned_bcast_knomial_radix = 4). With
 * radix 2 it is MPICH's binomial tree (`binomial`) exactly.
 */
#include "platforms/model/error.h"
#include "sched/planners/bcast/bcast_pipeline_internal.h"

/* Open MPI 4.1's default radix (coll_tuned_bcast_decision.c). */
#define KNOMIAL_DEFAULT_RADIX 4

/*
 * ns_bcast_knomial — broadcast on the k-nomial tree of radix k over ranks
 * relative to the root.
 *
 * Steps:
 *  1. rank(m) = (m − root) mod P. Write r in base k; rank r ≠ 0 receives
 *     from r with its lowest non-zero digit cleared (digit position
 *     k^t: parent ⌊r / k^(t+1)⌋·k^(t+1)).
 *  2. Rank r sends to r + j·k^s for every position k^s below its lowest
 *     non-zero digit (every k^s < P for the root) and j = 1 .. k−1, with
 *     the child < P: the farthest position first, j ascending within one
 *     position — Open MPI's child order.
 *  3. The shared pipeline (bcast_pipeline.h) makes the phases; one
 *     segment (Open MPI's decision passes segment size 0) gives at most
 *     ⌈log_k P⌉·(k−1)·⌈log_k P⌉ phases. 1-port; not topology-aware.
 *
 * Params: msize, root, segment, arity = the radix k (0: 4; k >= P gives
 * the flat tree). Errors: NS_ERROR_INPUT for a bad root, msize 0 or a
 * radix below 2; NS_ERROR_UNSUPPORTED beyond NS_BCAST_MAX_TRANSFERS
 * transfers. Any topology. Time and memory O(X·P + P log P).
 */
NsSchedule *ns_bcast_knomial(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  if (params->arity < 0 || params->arity == 1) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "bcast/knomial: the radix (arity) must be at least 2 (got %d)",
                    params->arity);
    return NULL;
  }
  uint32_t x;
  uint64_t seg;
  if (!ns_bcast_segments(topo, params, "knomial", &x, &seg, error))
    return NULL;
  int p = ns_topology_n_machines(topo);
  const int64_t k = params->arity == 0 ? KNOMIAL_DEFAULT_RADIX : params->arity;
  g_autoptr(NsBcastTree) t = ns_bcast_tree_new(p, params->root);
  /* Ranks in increasing order: a parent (a digit cleared) is smaller. */
  for (int64_t r = 0; r < p; r++) {
    int64_t mask = 1; /* position of r's lowest non-zero digit, or >= P */
    while (mask < p && r % (k * mask) == 0)
      mask *= k;
    for (mask /= k; mask > 0; mask /= k)
      for (int64_t j = 1; j < k && r + j * mask < p; j++)
        ns_bcast_tree_add(t, (int)((params->root + r) % p),
                          (int)((params->root + r + j * mask) % p));
  }
  if (!ns_bcast_tree_finish(t, error))
    return NULL;
  return ns_bcast_pipeline(topo, t, "knomial", x, seg);
}
