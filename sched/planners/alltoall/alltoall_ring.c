/* netsched — alltoall/ring: the topology-unaware ring all-to-all. */
#include "sched/planners/alltoall/alltoall_shifts_internal.h"

NsSchedule *ns_alltoall_shifts(const NsTopology *topo, const NsPlanParams *params,
                               const char *algorithm)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, algorithm, params->msize);
  ns_plan_stream(s, params); /* each phase stands alone */
  ns_schedule_reserve(s, (uint32_t)(p - 1), (uint64_t)p * (p - 1));
  for (int j = 1; j < p; j++) {
    ns_schedule_begin_phase(s);
    /* written in place, (i + j) mod p without a division: 268 M
     * transfers on 16,384 machines */
    NsTransfer *phase = ns_schedule_add_room(s, (uint32_t)p);
    for (int i = 0, d = j; i < p; i++, d = d + 1 == p ? 0 : d + 1)
      phase[i] = (NsTransfer){ .src = i, .dst = d, .n_chunks = 1, .chunk = ns_a2a_chunk(p, i, d) };
  }
  return s;
}

/*
 * ns_alltoall_ring — MPICH's large-message all-to-all for p not a power of
 * two (Faraj & Yuan §6; dissertation §4.1.1.1 "ring").
 *
 * Steps:
 *  for j = 1 .. p-1 (one phase each):
 *    every machine i sends to (i + j) mod p and receives from (i − j) mod p.
 * p−1 phases without node contention; on a multi-switch tree the phases
 * generally contend on inter-switch links, which the verifier reports.
 * Streams (ns_plan_streamed): memory O(p) then.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_alltoall_ring(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  return ns_alltoall_shifts(topo, params, "ring");
}
