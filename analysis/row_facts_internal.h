/* netsched — the facts a row derives once from its (topology, schedule).
 *
 * The experiment engine (analysis/experiment_internal.h) verifies a row's schedule
 * and computes its bound; the measurement it hands them to (the simulator,
 * sim/sim.h) reuses them instead of deriving them again (issue #19: one
 * verification, one bound and one route table per row; the counts are in
 * sched/ir/counts_internal.h and tests/cli_counts.sh). */
#ifndef NETSCHED_ROW_FACTS_H
#define NETSCHED_ROW_FACTS_H

#include "sched/verify/verify.h"

typedef struct {
  const NsVerifyReport *verified; /* ns_verify(topo, s, NULL, ...): the default options,
                                     sync order checked (NULL: not verified) */
  double bound_s;                 /* ns_collective_bound(topo, s, s->msize) */
  const NsRouter *routes;         /* the route table (ns_router_for) the verification used
                                     (NULL: none) */
} NsRowFacts;

#endif
