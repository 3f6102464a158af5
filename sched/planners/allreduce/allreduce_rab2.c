/* netsched — allreduce/rab2-<all-to-all>-<all-gather>: the reduce-scatter
 * done as an all-to-all of n/p blocks, then an all-gather of n/p.
 *
 * Faraj dissertation §4.1.1.1 ("Rabenseifner variation 2 (Rab2) ... the
 * reduce-scatter operation is realized by the tuned all-to-all routine
 * with a message size of n/p and the all-gather operation is realized by
 * the tuned all-gather routine with a message size of n/p") and §4.3.1.1
 * (STAR-MPI's Rab2-(x, y): (ring, TSLR/LR), (ring, ring), ...); STAR-MPI's
 * code is SMPI's allreduce `rab2`. One registered name per pair
 * (planners.def), as for rab1.
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * rab2 — all-to-all reduce-scatter, all-gather.
 *
 * Steps:
 *  1. The vector is cut into p blocks (the first n mod p a byte larger).
 *  2. The all-to-all planner (message size: the largest block), its
 *     message i -> j carrying machine i's contribution to block j, which j
 *     combines: j then holds block j complete. Only a direct all-to-all
 *     (every message from its origin to its destination) is a
 *     reduce-scatter; the barrier variants' synchronisation is not kept.
 *  3. The all-gather planner on the blocks, machine m's block being
 *     block m; receipts copy.
 * Phases: the all-to-all's plus the all-gather's (ring, ring: 2(p − 1),
 * the ring's traffic with p − 1 messages a machine in the first half).
 * Params: msize (n). Errors: NS_ERROR_UNSUPPORTED when n < p, and the two
 * planners'. Time: the two planners'.
 */
static NsSchedule *rab2(const NsTopology *topo, const NsPlanParams *params, const char *name,
                        const char *alltoall, const char *allgather, GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_allreduce_new(topo, name, params->msize, (uint32_t)p, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  uint32_t *own = g_new(uint32_t, p);
  for (int m = 0; m < p; m++)
    own[m] = (uint32_t)m;
  gboolean ok = ns_allreduce_append_alltoall(s, topo, alltoall, error) &&
                ns_allreduce_append_allgather(s, topo, allgather, own, FALSE, error);
  g_free(own);
  if (!ok) {
    ns_schedule_free(s);
    return NULL;
  }
  return s;
}

#define RAB2(ident, name, alltoall, allgather)                                                     \
  NsSchedule *ns_allreduce_##ident(const NsTopology *topo, const NsPlanParams *params,             \
                                   GError **error)                                                 \
  {                                                                                                \
    return rab2(topo, params, name, alltoall, allgather, error);                                   \
  }

/* ns_allreduce_rab2_<a2a>_<ag>: rab2 with alltoall/<a2a>, allgather/<ag>. */
RAB2(rab2_ring_ring, "rab2-ring-ring", "ring", "ring")
RAB2(rab2_ring_lr1, "rab2-ring-lr1", "ring", "lr1")
RAB2(rab2_ring_lr3, "rab2-ring-lr3", "ring", "lr3")
RAB2(rab2_pair_rdb, "rab2-pair-rdb", "pair", "rdb")
RAB2(rab2_faraj_lr3, "rab2-faraj-lr3", "faraj", "lr3")
