/* netsched — allgatherv/bruck: Bruck's concatenation. */
#include "sched/planners/common/vector_plan_internal.h"

/*
 * ns_allgatherv_bruck — the all-gatherv version of Bruck's algorithm (MPICH's
 * MPIR_Allgatherv_intra_brucks, Open MPI's allgatherv bruck; Bruck et al.,
 * IEEE TPDS 1997): ceil(lg p) phases, any p.
 *
 * Steps: the phases of allgather/bruck, each message its size in the pattern
 * (sched/planners/common/vector_plan_internal.h); messages of 0 bytes and
 * the phases left empty are dropped.
 * Time: that of allgather/bruck, plus O(transfers + p²). Errors: NS_ERROR_INPUT
 * without a pattern of this collective and machine count; those of
 * allgather/bruck.
 */
NsSchedule *ns_allgatherv_bruck(const NsTopology *topo, const NsPlanParams *params, GError **error)
{
  return ns_vector_plan(topo, params, NS_COLL_ALLGATHERV, "bruck", ns_allgather_bruck, error);
}
