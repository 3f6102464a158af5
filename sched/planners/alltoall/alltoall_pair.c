/* netsched — alltoall/pair: XOR pair-wise exchange. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"

/*
 * ns_alltoall_pair — MPICH's large-message all-to-all for a power-of-two
 * number of machines (Faraj & Yuan §6; dissertation §4.1.1.1 "pair").
 *
 * Steps:
 *  for j = 1 .. p-1 (one phase each):
 *    machine i exchanges with i XOR j (sends to it and receives from it).
 * p−1 phases, each a perfect matching of the machines. Streams
 * (ns_plan_streamed): memory O(p) then.
 * Time O(p²). Errors: NS_ERROR_UNSUPPORTED when p is not a power of two
 * (use gpe, its generalisation to any p).
 */
NsSchedule *ns_alltoall_pair(const NsTopology *topo, const NsPlanParams *params,
                             GError **error)
{
  int p = ns_topology_n_machines(topo);
  if ((p & (p - 1)) != 0) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "alltoall/pair needs a power-of-two number of machines (the topology has "
                "%d); use gpe (generalized pairwise exchange) or ring instead",
                p);
    return NULL;
  }
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "pair", params->msize);
  ns_plan_stream(s, params); /* each phase stands alone */
  ns_schedule_reserve(s, (uint32_t)(p - 1), (uint64_t)p * (p - 1));
  for (int j = 1; j < p; j++) {
    ns_schedule_begin_phase(s);
    NsTransfer *phase = ns_schedule_add_room(s, (uint32_t)p); /* written in place */
    for (int i = 0; i < p; i++) {
      int d = i ^ j;
      phase[i] = (NsTransfer){ .src = i, .dst = d, .n_chunks = 1, .chunk = ns_a2a_chunk(p, i, d) };
    }
  }
  return s;
}
