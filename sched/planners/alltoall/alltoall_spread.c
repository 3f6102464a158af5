/* netsched — alltoall/spread: MPICH's medium-message all-to-all. */
#include "sched/planners/registry.h"

/*
 * ns_alltoall_spread — MPICH MPI_Alltoall for 256 < msize <= 32768
 * (Faraj & Yuan §6; Thakur, Rabenseifner & Gropp 2004).
 *
 * Steps:
 *  1. Every machine i posts all its non-blocking sends at once,
 *  2. in the order i->i+1, i->i+2, ..., i->i+p-1 (mod p), so that at any
 *     moment the destinations are spread over the machines,
 *  3. then waits for all of them.
 * One NS_EXEC_POSTED phase; list order is each sender's posting order.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_alltoall_spread(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "spread", params->msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (p - 1));
  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++)
    for (int j = 1; j < p; j++) {
      int d = (i + j) % p;
      ns_schedule_add(s, i, d, ns_a2a_chunk(p, i, d));
    }
  return s;
}
