/* netsched — allgatherv/neighbor: neighbor exchange. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_neighbor — the all-gatherv version of the neighbor exchange (Open
 * MPI's allgatherv neighborexchange; Chen, Kale et al. 2005): p/2 phases, p
 * even.
 *
 * Steps: the phases of allgather/neighbor, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/neighbor, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/neighbor.
 */
NsSchedule *ns_allgatherv_neighbor(const NsTopology *topo, const NsPlanParams *params,
                                   GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "neighbor", ns_allgather_neighbor, error);
}
