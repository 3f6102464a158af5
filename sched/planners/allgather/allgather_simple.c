/* netsched — allgather/simple: every machine posts its block to everyone. */
#include "sched/planners/registry.h"

/*
 * ns_allgather_simple — the repository's simple all-gather (dissertation
 * §4.1.1.1, "Algorithms for MPI_Allgather": simple works exactly like its
 * all-to-all counterpart, "posts all receives and all sends, starts the
 * communications, and waits for all communications to finish").
 *
 * Steps:
 *  1. Every machine i posts non-blocking sends of its own block to
 *     i→0, i→1, …, i→p−1 (skipping itself), all at once,
 *  2. then waits for all of them.
 * One NS_EXEC_POSTED phase whose list order is each sender's posting order,
 * p(p−1) transfers. No scheduling: every machine link carries p−1 transfers
 * at once, so the verifier reports contention and the 1-port model as
 * violated — that is the algorithm. Time O(p²). Errors: none.
 */
NsSchedule *ns_allgather_simple(const NsTopology *topo, const NsPlanParams *params,
                                GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLGATHER, "simple", params->msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (p - 1));
  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      if (j != i)
        ns_schedule_add(s, i, j, (uint32_t)i);
  return s;
}
