/* netsched — allgatherv/rdb: recursive doubling. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_rdb — the all-gatherv version of recursive doubling (Faraj's
 * dissertation §4.1.1.1; MPICH's MPIR_Allgatherv_intra_recursive_doubling):
 * lg p phases for a power of two p.
 *
 * Steps: the phases of allgather/rdb, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/rdb, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/rdb.
 */
NsSchedule *ns_allgatherv_rdb(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "rdb", ns_allgather_rdb, error);
}
