/* netsched — allgatherv/lr: the topology-specific logical ring. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_lr — the topology-specific all-gatherv (Faraj's dissertation
 * §4.1.1.1: "based on the topology-specific all-gather algorithm"): the
 * ring of Algorithm 1 (§3.3.2.1, machines grouped by switch in DFS order),
 * contention-free on any tree (Theorem 2), p-1 phases.
 *
 * Steps: the phases of allgather/lr1, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/lr1, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/lr1.
 */
NsSchedule *ns_allgatherv_lr(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "lr", ns_allgather_lr1, error);
}
