/* netsched — planning the v-collectives (alltoallv, allgatherv) with the
 * fixed-size planners.
 *
 * Faraj's dissertation §4.1.1.1: STAGE-MPI's alltoallv and allgatherv
 * algorithms are "the all-to-allv version" of the all-to-all and
 * all-gather ones — the same phases, each message its own size. So a
 * v-planner runs the fixed-size planner of its chunk kind and gives the
 * schedule the pattern's sizes (ns_vector_schedule); a chunk of 0 bytes is
 * dropped from every transfer that carries it (MPI moves nothing for it,
 * and the verifier does not ask for it: sched/ir/schedule.h), a transfer
 * left without chunks is dropped, and so is a phase left without
 * transfers. Dropping every transfer of a chunk keeps the data flow: no
 * machine forwards a chunk it was never sent.
 */
#ifndef NETSCHED_VECTOR_PLAN_H
#define NETSCHED_VECTOR_PLAN_H

#include "sched/ir/pattern.h"
#include "sched/planners/registry.h"

/* The pattern of params for collective `vc` on topo, or NULL with
 * NS_ERROR_INPUT "VC/ALGO needs a size pattern (--pattern)", or the
 * collective / machine-count mismatch. O(1). */
const NsSizePattern *ns_vector_pattern(const NsTopology *topo, const NsPlanParams *params,
                                       NsCollective vc, const char *algorithm, GError **error);

/* `base` (a schedule of vc's chunk kind; freed) as a `vc` schedule named
 * `algorithm` with the pattern's sizes, zero-size chunks dropped as the
 * header says; the execution mode and sync scheme kept, sync edges and
 * routes dropped (the direct planners used have none). O(transfers +
 * chunks + n_sizes). */
NsSchedule *ns_vector_schedule(NsSchedule *base, NsCollective vc, const char *algorithm,
                               const NsSizePattern *pat, GError **error);

/* Plans `vc` with the fixed-size planner `base` (called with the pattern's
 * largest size as msize, not streamed), then ns_vector_schedule. Errors:
 * ns_vector_pattern's, the base planner's (prefixed "VC/ALGO: "). */
NsSchedule *ns_vector_plan(const NsTopology *topo, const NsPlanParams *params, NsCollective vc,
                           const char *algorithm, NsPlanFunc base, GError **error);

#endif
