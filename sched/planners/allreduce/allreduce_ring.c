/* netsched — allreduce/ring: the bandwidth-optimal ring allreduce, a ring
 * reduce-scatter followed by a ring all-gather.
 *
 * Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters
 * of workstations", JPDC 69(2), 2009, §3 (the logical-ring algorithm; its
 * implementation is SMPI's allreduce `lr`); the large-message default of
 * today's libraries (MPICH 4's MPIR_Allreduce_intra_ring, Open MPI's
 * ring). Faraj dissertation §4.1.1.1 lists its two halves (the
 * Rabenseifner family with a ring all-gather).
 */
#include "sched/planners/allreduce/allreduce_common_internal.h"

/*
 * ns_allreduce_ring — reduce-scatter and all-gather around the ring
 * n_0 -> n_1 -> ... -> n_(p−1) -> n_0.
 *
 * Steps:
 *  1. The vector is cut into p blocks, the first n mod p of them a byte
 *     larger (MPICH's and Open MPI's split); block i ends the
 *     reduce-scatter at machine i.
 *  2. Reduce-scatter (p − 1 phases): in step t machine i sends its
 *     partial of block (i − 1 − t) mod p to i + 1, which combines — the
 *     block it sends is the one it received in step t − 1, combined with
 *     its own (SMPI's lr: send offset rank − 1 − i).
 *  3. All-gather (p − 1 phases): allgather/ring on the blocks, machine i's
 *     block being block i — in step t machine i sends block (i − t) mod p
 *     to i + 1, a copy.
 * Phases 2(p − 1); each machine sends and receives one block a phase
 * (2(p−1)/p · n bytes in all, the bandwidth lower bound of Patarasuk &
 * Yuan, Theorem 1); not topology-aware. Params: msize (n). Errors:
 * NS_ERROR_UNSUPPORTED when n < p. Time O(p²).
 */
NsSchedule *ns_allreduce_ring(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s =
      ns_allreduce_new(topo, "ring", params->msize, (uint32_t)p, NS_BLOCKS_SPREAD, error);
  if (s == NULL)
    return NULL;
  for (int t = 0; t + 1 < p; t++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      uint32_t block = (uint32_t)(((i - 1 - t) % p + 2 * p) % p);
      ns_schedule_add_combine(s, i, (i + 1) % p, 1, &block);
    }
  }
  uint32_t *own = g_new(uint32_t, p);
  for (int i = 0; i < p; i++)
    own[i] = (uint32_t)i;
  gboolean ok = ns_allreduce_append_allgather(s, topo, "ring", own, FALSE, error);
  g_free(own);
  if (!ok) {
    ns_schedule_free(s);
    return NULL;
  }
  return s;
}
