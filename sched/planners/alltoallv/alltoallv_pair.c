/* netsched — alltoallv/pair: XOR pair-wise exchange with the pattern's sizes. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_alltoallv_pair — the all-to-allv version of the pair family (Faraj's
 * dissertation §4.1.1.1): p-1 phases, phase j: i<->i^j, p a power of two.
 *
 * Steps: the phases of alltoall/pair, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of alltoall/pair, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * alltoall/pair.
 */
NsSchedule *ns_alltoallv_pair(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLTOALLV, "pair", ns_alltoall_pair, error);
}
