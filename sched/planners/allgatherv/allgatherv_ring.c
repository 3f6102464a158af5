/* netsched — allgatherv/ring: the topology-unaware logical ring. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_ring — the all-gatherv version of the ring (Faraj's dissertation
 * §4.1.1.1; MPICH's MPIR_Allgatherv_intra_ring): p-1 phases round
 * n0->n1->...->n(p-1)->n0, each machine passing on the block it received.
 *
 * Steps: the phases of allgather/ring, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/ring, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/ring.
 */
NsSchedule *ns_allgatherv_ring(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "ring", ns_allgather_ring, error);
}
