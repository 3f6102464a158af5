/* netsched — alltoallv/ring: the ring all-to-all with the pattern's sizes. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_alltoallv_ring — the all-to-allv version of the ring family (Faraj's
 * dissertation §4.1.1.1): p-1 phases, phase j: i->(i+j) mod p (Open MPI's
 * alltoallv pairwise).
 *
 * Steps: the phases of alltoall/ring, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of alltoall/ring, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * alltoall/ring.
 */
NsSchedule *ns_alltoallv_ring(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLTOALLV, "ring", ns_alltoall_ring, error);
}
