/* netsched — allreduce/rabenseifner: MPICH's allreduce for long messages,
 * a reduce-scatter by recursive halving and an all-gather by recursive
 * doubling.
 *
 * Faraj dissertation §4.1.1.1 ("MPICH Rabenseifner (MPICH Rab) algorithm
 * ... a reduce-scatter followed by an all-gather. The reduce-scatter is
 * realized by recursive halving ... The all-gather is realized by
 * recursive doubling"); Thakur, Rabenseifner & Gropp, IJHPCA 2005, §4.4
 * (MPIR_Allreduce_intra_reduce_scatter_allgather; SMPI's rab_rdb).
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ns_allreduce_rabenseifner — fold, recursive halving, recursive doubling,
 * unfold, on q = 2^⌊lg p⌋ blocks.
 *
 * Steps (MPICH 4.0's code, block by block):
 *  1. The vector is cut into q blocks: ⌊n/q⌋ bytes each, the last one the
 *     rest (MPICH's cnts[]). r = p − q.
 *  2. Fold (one phase, r > 0): machine 2j gives its vector to 2j+1 (j < r),
 *     which combines; participant k is machine 2k+1 for k < r, else k + r.
 *  3. Recursive halving (lg q phases), distances 1, 2, ..., q/2: partners
 *     hold the same block range, the lower keeps the lower half and sends
 *     the upper one, which the partner combines. Participant k ends with
 *     one block complete (the bit reversal of k: MPICH's order).
 *  4. Recursive doubling (lg q phases), the distances backwards: partners
 *     swap their ranges (copies) until everyone holds every block.
 *  5. Unfold (one phase, r > 0): 2j+1 copies the result to 2j.
 * Phases 2 lg p for a power of two, 2⌊lg p⌋ + 2 otherwise. 1-port; not
 * topology-aware. Params: msize (n). Errors: NS_ERROR_UNSUPPORTED when
 * n < q (MPICH then runs recursive doubling). Time O(p lg p).
 */
NsSchedule *ns_allreduce_rabenseifner(const NsTopology *topo, const NsPlanParams *params,
                                      GError **error)
{
  int p = ns_topology_n_machines(topo), q = 1;
  while (q * 2 <= p)
    q *= 2;
  int r = p - q;
  NsSchedule *s = ns_allreduce_new(topo, "rabenseifner", params->msize, (uint32_t)q,
                                   NS_BLOCKS_LAST_REST, error);
  if (s == NULL)
    return NULL;
  int *machine = g_new(int, q);
  uint32_t *slot = g_new(uint32_t, (gsize)q + 1);
  for (int k = 0; k < q; k++)
    machine[k] = ns_allreduce_fold_machine(k, r);
  for (int k = 0; k <= q; k++)
    slot[k] = (uint32_t)k;
  NsHalving h = { .q = q, .machine = machine, .slot = slot, .largest_first = FALSE };
  ns_allreduce_fold(s, r);
  ns_allreduce_halving(s, &h);
  ns_allreduce_doubling(s, &h);
  ns_allreduce_unfold(s, r, (uint32_t)q);
  g_free(machine);
  g_free(slot);
  return s;
}
