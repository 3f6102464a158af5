/* netsched — allreduce/rab1-<all-gather>: Rabenseifner's reduce-scatter
 * by recursive halving followed by an all-gather planner of the
 * repository (the topology-specific logical rings included).
 *
 * Faraj dissertation §4.1.1.1 ("Rabenseifner variation 1 (Rab1) ... a
 * Rabenseifner algorithm with the all-gather operation performed using the
 * tuned all-gather routine. This algorithm may be topology-specific") and
 * §4.3.1.1 (STAR-MPI's Rab1-x, one per all-gather x: simple, 2D mesh,
 * rdb, bruck, ring, TSLR/LR); STAR-MPI's code is SMPI's allreduce `rab1`.
 * One registered name per all-gather (planners.def): the tuned all-gather
 * of STAGE-MPI is a tuning's outcome, not a planner, so each candidate is
 * its own algorithm and a tuning picks among them.
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * rab1 — fold, recursive halving over p blocks, give, all-gather.
 *
 * Steps:
 *  1. The vector is cut into p blocks (the first n mod p a byte larger);
 *     block m ends the reduce-scatter complete at machine m.
 *  2. q = 2^⌊lg p⌋, r = p − q. Fold (one phase, r > 0; MPICH's): machine
 *     2j gives its vector to 2j+1 (j < r), which combines. Participant k
 *     is machine 2k+1 (k < r) or k + r, and its slot is blocks {2k, 2k+1}
 *     (k < r) or {k + r}: the blocks of the machines it stands for.
 *  3. Recursive halving (lg q phases), distances q/2, ..., 1 (STAR-MPI's
 *     order: participant k ends with slot k): partners hold the same slot
 *     range, the lower keeps the lower half, the other half goes to the
 *     partner, which combines.
 *  4. Give (one phase, r > 0): 2j+1 copies block 2j to machine 2j. Every
 *     machine m now holds block m complete.
 *  5. The all-gather planner on the blocks (message size: the largest
 *     block), machine m's block being block m; its receipts copy.
 * Phases lg p + the all-gather's for a power of two (SMPI's rab1 handles
 * only that case), ⌊lg p⌋ + 2 + the all-gather's otherwise (our fold).
 * Contention: the all-gather's (a contention-free ring keeps its
 * property) plus the halving's, which is not topology-aware. Params:
 * msize (n). Errors: NS_ERROR_UNSUPPORTED when n < p, and the all-gather
 * planner's. Time O(p lg p) plus the all-gather's.
 */
static NsSchedule *rab1(const NsTopology *topo, const NsPlanParams *params, const char *name,
                        const char *allgather, GError **error)
{
  int p = ns_topology_n_machines(topo), q = 1;
  while (q * 2 <= p)
    q *= 2;
  int r = p - q;
  NsSchedule *s = ns_allreduce_new(topo, name, params->msize, (uint32_t)p, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  int *machine = g_new(int, q);
  uint32_t *slot = g_new(uint32_t, (gsize)q + 1);
  uint32_t *own = g_new(uint32_t, p);
  for (int k = 0; k < q; k++) {
    machine[k] = ns_allreduce_fold_machine(k, r);
    slot[k] = (uint32_t)(k < r ? 2 * k : k + r);
  }
  slot[q] = (uint32_t)p;
  for (int m = 0; m < p; m++)
    own[m] = (uint32_t)m;
  NsHalving h = { .q = q, .machine = machine, .slot = slot, .largest_first = TRUE };
  ns_allreduce_fold(s, r);
  ns_allreduce_halving(s, &h);
  if (r > 0) {
    ns_schedule_begin_phase(s);
    for (int j = 0; j < r; j++)
      ns_schedule_add(s, 2 * j + 1, 2 * j, (uint32_t)(2 * j));
  }
  gboolean ok = ns_allreduce_append_allgather(s, topo, allgather, own, FALSE, error);
  g_free(machine);
  g_free(slot);
  g_free(own);
  if (!ok) {
    ns_schedule_free(s);
    return NULL;
  }
  return s;
}

#define RAB1(ident, name, allgather)                                                               \
  NsSchedule *ns_allreduce_##ident(const NsTopology *topo, const NsPlanParams *params,             \
                                   GError **error)                                                 \
  {                                                                                                \
    return rab1(topo, params, name, allgather, error);                                             \
  }

/* ns_allreduce_rab1_<x>: rab1 with allgather/<x> (see rab1 above). */
RAB1(rab1_ring, "rab1-ring", "ring")
RAB1(rab1_rdb, "rab1-rdb", "rdb")
RAB1(rab1_bruck, "rab1-bruck", "bruck")
RAB1(rab1_2dmesh, "rab1-2dmesh", "2dmesh")
RAB1(rab1_neighbor, "rab1-neighbor", "neighbor")
RAB1(rab1_lr1, "rab1-lr1", "lr1")
RAB1(rab1_lr2, "rab1-lr2", "lr2")
RAB1(rab1_lr3, "rab1-lr3", "lr3")
