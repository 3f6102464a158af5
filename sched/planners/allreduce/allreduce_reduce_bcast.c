/* netsched — allreduce/reduce-bcast: a binomial reduce to machine 0, then
 * a binomial broadcast of the result.
 *
 * Faraj dissertation §4.1.1.1 ("Reduce-Bcast algorithm. The algorithm
 * first performs a reduction to a node and then broadcasts the results to
 * all nodes"), LAM/MPI's MPI_Allreduce (Table 4.2); the binomial trees of
 * Thakur, Rabenseifner & Gropp, IJHPCA 2005, §4.1 (broadcast) and §4.3
 * (reduce).
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ns_allreduce_reduce_bcast — binomial reduce, binomial broadcast, the
 * whole vector as one segment.
 *
 * Steps:
 *  1. Reduce (⌈lg p⌉ phases): for d = 1, 2, 4, ... < p, every machine i
 *     with i mod 2d = d sends its partial to i − d, which combines — i
 *     then holds the combination of i .. min(i + d, p) − 1, disjoint from
 *     i − d's.
 *  2. Broadcast (⌈lg p⌉ phases): for d = 2^(⌈lg p⌉−1), ..., 1, every
 *     machine i with i mod 2d = 0 and i + d < p sends the result to i + d
 *     (a copy).
 * Phases 2⌈lg p⌉; 1-port; not topology-aware. The binomial reduce is
 * written here; reduce/binomial (sched/planners/reduce/) plans the same
 * tree on its own. Params: msize (n). Errors: none. Time O(p lg p).
 */
NsSchedule *ns_allreduce_reduce_bcast(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_allreduce_new(topo, "reduce-bcast", params->msize, 1, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  const uint32_t seg = 0;
  int64_t top = 1;
  while (top < p)
    top *= 2;
  for (int64_t d = 1; d < p; d *= 2) {
    ns_schedule_begin_phase(s);
    for (int64_t i = d; i < p; i += 2 * d)
      ns_schedule_add_combine(s, (int)i, (int)(i - d), 1, &seg);
  }
  for (int64_t d = top / 2; d >= 1; d /= 2) {
    ns_schedule_begin_phase(s);
    for (int64_t i = 0; i + d < p; i += 2 * d)
      ns_schedule_add(s, (int)i, (int)(i + d), seg);
  }
  return s;
}
