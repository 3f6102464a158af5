/* netsched — allgatherv/simple: every machine posts its block to everyone. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_simple — the all-gatherv version of simple (Faraj's dissertation
 * §4.1.1.1, "Algorithms for MPI_Allgatherv"): every machine posts its block
 * to every other machine at once.
 *
 * Steps: the phases of allgather/simple, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/simple, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/simple.
 */
NsSchedule *ns_allgatherv_simple(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "simple", ns_allgather_simple, error);
}
