/* netsched — internal: the p−1 shift permutations i -> (i + j) mod p, the
 * phases of alltoall/ring (MPICH) and alltoall/shift (Zahavi et al.),
 * defined in sched/planners/alltoall/alltoall_ring.c. Not a planner: included by the two
 * planners only. */
#ifndef NETSCHED_ALLTOALL_SHIFTS_H
#define NETSCHED_ALLTOALL_SHIFTS_H

#include "sched/planners/registry.h"

/* The schedule of p−1 phases, phase j (1 ≤ j < p): every machine i sends
 * to (i + j) mod p; named `algorithm`. Streams when ns_plan_streamed asked
 * for `algorithm`. Time O(p²); memory O(p²), or O(p) streamed. */
NsSchedule *ns_alltoall_shifts(const NsTopology *topo, const NsPlanParams *params,
                               const char *algorithm);

#endif
