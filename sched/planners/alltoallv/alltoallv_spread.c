/* netsched — alltoallv/spread: spreading simple with the pattern's sizes. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_alltoallv_spread — the all-to-allv version of spreading simple (Faraj's
 * dissertation §4.1.1.1; MPICH's MPIR_Alltoallv_intra_scattered): every
 * machine posts its sends at once in the order i->i+1, ..., i->i+p-1.
 *
 * Steps: the phases of alltoall/spread, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of alltoall/spread, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * alltoall/spread.
 */
NsSchedule *ns_alltoallv_spread(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLTOALLV, "spread", ns_alltoall_spread, error);
}
