/* netsched — allgatherv/gather-bcast: gather then broadcast. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_gather_bcast — the all-gatherv version of Gather-Bcast (Faraj's
 * dissertation §4.1.1.1; Open MPI's allgatherv default, a gatherv then a
 * broadcast): binary-tree gather to n0, then binary-tree broadcast.
 *
 * Steps: the phases of allgather/gather_bcast, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/gather_bcast, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/gather_bcast.
 */
NsSchedule *ns_allgatherv_gather_bcast(const NsTopology *topo, const NsPlanParams *params,
                                       GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "gather-bcast", ns_allgather_gather_bcast,
                        error);
}
