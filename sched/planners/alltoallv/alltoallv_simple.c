/* netsched — alltoallv/simple: LAM/MPI's all-to-all with the pattern's sizes. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_alltoallv_simple — the all-to-allv version of simple (Faraj's dissertation
 * §4.1.1.1, "Algorithms for MPI_Alltoallv"; LAM/MPI, Faraj & Yuan §6): every
 * machine posts all its sends at once, i->0, i->1, ..., i->p-1.
 *
 * Steps: the phases of alltoall/simple, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of alltoall/simple, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * alltoall/simple.
 */
NsSchedule *ns_alltoallv_simple(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLTOALLV, "simple", ns_alltoall_simple, error);
}
