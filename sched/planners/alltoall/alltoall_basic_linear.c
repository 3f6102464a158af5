/* netsched — alltoall/basic-linear: Open MPI's basic linear exchange, every
 * send posted at once in the order i->i-1, i->i-2, ...
 *
 * Open MPI ompi/mca/coll/base/coll_base_alltoall.c,
 * ompi_coll_base_alltoall_intra_basic_linear (algorithm 1 of coll/tuned's
 * alltoall) and ompi_coll_base_alltoall_intra_linear_sync with no limit on
 * outstanding requests (algorithm 4 under the default
 * coll_tuned_alltoall_algorithm_max_requests = 0), Open MPI 1.6 - 4.1.
 */
#include "sched/planners/registry.h"

/*
 * ns_alltoall_basic_linear — every machine i first posts all its receives
 * (from i+1, i+2, ...), then all its non-blocking sends "in reverse order"
 * (Open MPI: so that messages arrive in the order the receives were
 * posted), i->i-1, i->i-2, ..., i->i-(p-1) (mod p) — the mirror image of
 * `spread` — then waits for all of them.
 *
 * One NS_EXEC_POSTED phase whose list order is each sender's posting
 * order (receives are not transfers: only the send order is recorded).
 * Params: msize. Cannot fail. Time and memory O(p²).
 */
NsSchedule *ns_alltoall_basic_linear(const NsTopology *topo, const NsPlanParams *params,
                                     GError **error)
{
  int p = ns_topology_n_machines(topo);
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLTOALL, "basic-linear", params->msize);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_reserve(s, 1, (uint64_t)p * (uint64_t)(p - 1));
  ns_schedule_begin_phase(s);
  for (int i = 0; i < p; i++)
    for (int j = 1; j < p; j++) {
      int d = (i - j + p) % p;
      ns_schedule_add(s, i, d, ns_a2a_chunk(p, i, d));
    }
  return s;
}
