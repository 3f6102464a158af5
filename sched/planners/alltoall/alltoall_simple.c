/* netsched — alltoall/simple: LAM/MPI's all-to-all. */
#include "sched/planners/registry.h"

/*
 * ns_alltoall_simple — LAM/MPI 6.5.9 MPI_Alltoall (Faraj & Yuan §6).
 *
 * Steps:
 *  1. Every machine i posts all its non-blocking sends at once,
 *  2. in the order i->0, i->1, ..., i->p-1 (skipping itself),
 *  3. then waits for all of them.
 * Expressed as one NS_EXEC_POSTED phase whose list order is each sender's
 * posting order. No scheduling at all: the network sorts out the contention.
 * Time O(p²). Errors: none.
 */
NsSchedule *ns_alltoall_simple(const NsTopology *topo, const NsPlanParams *params,
                               GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "simple", params->msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (p - 1));
  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      if (j != i)
        ns_schedule_add(s, i, j, ns_a2a_chunk(p, i, j));
  return s;
}
