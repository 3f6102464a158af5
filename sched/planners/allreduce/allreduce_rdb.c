/* netsched — allreduce/rdb: recursive doubling, MPICH's allreduce for
 * short messages.
 *
 * Faraj dissertation §4.1.1.1 ("Recursive doubling (rdb) algorithm ...
 * similar to the all-gather based algorithm except that the reduction
 * operation is performed while the data are being distributed"); Thakur,
 * Rabenseifner & Gropp, IJHPCA 2005, §4.4 (MPICH: recursive doubling for
 * short messages, the fold of the even ranks below 2r for a number of
 * processes that is not a power of two).
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ns_allreduce_rdb — recursive doubling on the whole vector (one segment).
 *
 * Steps (MPICH's MPIR_Allreduce_intra_recursive_doubling, SMPI's rdb):
 *  1. q = 2^⌊lg p⌋, r = p − q. Fold (one phase, when r > 0): machine 2j
 *     sends its vector to 2j+1 (j < r), which combines; participant k of
 *     the q is machine 2k+1 for k < r, else k + r.
 *  2. For d = 1, 2, ..., q/2 (one phase each): participant k and k XOR d
 *     swap their partial results and both combine — disjoint sets, since
 *     they agree on every bit but those below d.
 *  3. Unfold (one phase, when r > 0): 2j+1 sends the result to 2j (copy).
 * Phases ⌈lg p⌉ for a power of two, ⌊lg p⌋ + 2 otherwise; every machine
 * sends and receives at most one vector a phase (1-port); not
 * topology-aware. Time O(p lg p). Errors: none.
 */
NsSchedule *ns_allreduce_rdb(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo), q = 1;
  while (q * 2 <= p)
    q *= 2;
  int r = p - q;
  NsSchedule *s = ns_allreduce_new(topo, "rdb", params->msize, 1, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  const uint32_t seg = 0;
  ns_allreduce_fold(s, r);
  for (int d = 1; d < q; d *= 2) {
    ns_schedule_begin_phase(s);
    for (int k = 0; k < q; k++)
      ns_schedule_add_combine(s, ns_allreduce_fold_machine(k, r),
                              ns_allreduce_fold_machine(k ^ d, r), 1, &seg);
  }
  ns_allreduce_unfold(s, r, 1);
  return s;
}
