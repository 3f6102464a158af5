/* netsched — planners and their registry.
 *
 * A planner turns a finalized Topology into a Schedule for one collective.
 * Planners are looked up by "collective/algorithm" (e.g. "alltoall/faraj");
 * the table is generated from sched/planners/planners.def, so an algorithm is chosen
 * by name, never by an if-chain.
 */
#ifndef NETSCHED_REGISTRY_H
#define NETSCHED_REGISTRY_H

#include "platforms/model/topology.h"
#include "sched/ir/pattern.h"
#include "sched/ir/schedule.h"

typedef struct {
  uint64_t msize;        /* bytes per chunk (alltoall: per message) */
  int root;              /* bcast root machine index */
  uint64_t segment;      /* bcast segment size in bytes (0 = whole message) */
  int arity;             /* bcast/kary-cf: children per machine (0 = the
                            algorithm's default, 3) */
  const NsSizePattern *pattern; /* alltoallv, allgatherv: the sizes (not
                            copied; NULL for the other collectives) */
  const NsPhaseSink *sink; /* set by ns_plan_streamed (else NULL): see */
  const char *sink_for;    /* ns_plan_stream; the algorithm it plans */
} NsPlanParams;

/*
 * ns_plan_stream — a planner that can stream calls this once its header
 * is settled and before its first phase (schedule.h, "Streaming"): when
 * ns_plan_streamed asked for this very algorithm, the schedule's phases go
 * to its sink as they are built. Not when the planner runs inside another
 * (mpich's and ompi's selectors, variants), which relabel the schedule
 * afterwards. O(header).
 */
void ns_plan_stream(NsSchedule *s, const NsPlanParams *params);

/* Builds a schedule, or returns NULL with NS_ERROR_UNSUPPORTED when the
 * algorithm cannot handle this topology/parameters (the message says why,
 * e.g. "pair needs a power-of-two number of machines (got 24)"). */
typedef NsSchedule *(*NsPlanFunc)(const NsTopology *topo, const NsPlanParams *params,
                                  GError **error);

typedef struct {
  NsCollective collective;
  const char *name;      /* algorithm name, e.g. "faraj" */
  const char *summary;   /* one line for --list */
  const char *source;    /* paper and section */
  NsPlanFunc plan;
  gboolean needs_tree;   /* a switch tree only (checked by ns_plan) */
} NsPlanner;

/* Declarations of every planner function: ns_alltoall_faraj(), ... */
#define NS_PLANNER(coll, algo, summary, source)                                           \
  NsSchedule *ns_##coll##_##algo(const NsTopology *topo, const NsPlanParams *params,      \
                                 GError **error);
#include "sched/planners/planners.def"
#undef NS_PLANNER
#undef NS_PLANNER_NAMED
#undef NS_PLANNER_TREE
#undef NS_PLANNER_NAMED_TREE

/* All planners, in registry order; *n receives the count. */
const NsPlanner *ns_planners(int *n);
/* Looks up "collective/algorithm", or the pair separately. NULL if unknown.
 * '-' and '_' count as the same character in algorithm names, so a planner
 * is found by either spelling: "linear-cf" (its registered name, the one
 * --list and the documentation show) or "linear_cf" (its C identifier), and
 * a planner registered by C identifier only is found by the hyphenated
 * spelling too. */
const NsPlanner *ns_planner_find(NsCollective collective, const char *algorithm);

/* Plans with the named algorithm: NS_ERROR_INPUT listing the known
 * algorithms of that collective when the name is unknown,
 * NS_ERROR_UNSUPPORTED when a tree-only planner meets another fabric. */
NsSchedule *ns_plan(const NsTopology *topo, NsCollective collective, const char *algorithm,
                    const NsPlanParams *params, GError **error);

/*
 * ns_plan_streamed — plans as ns_plan and hands the schedule on phase by
 * phase to `sink` (schedule.h): sink->begin with the header, then
 * sink->phase for each phase, in order.
 *
 * A planner that streams (it calls ns_schedule_stream_to: faraj on trees
 * of one link speed, ring, shift, pair; the all-gather rings ring, lr1,
 * lr2, lr3, and allgather/torus) hands each phase on as it is
 * built, so the schedule is never held whole: memory is the topology and
 * one phase. Any other planner builds its schedule first and the phases
 * are handed on from it. Returns the schedule's header and tail — sync
 * edges, routes and sync scheme, no phases for a streamed planner, all of
 * them otherwise (the caller frees it) — with the number of phases
 * and transfers handed on in *n_phases and *n_transfers (NULL: not
 * wanted). NULL with ns_plan's errors or the sink's first error (the
 * phases after it are not handed on). Time: the planner's, plus the
 * sink's.
 */
NsSchedule *ns_plan_streamed(const NsTopology *topo, NsCollective collective,
                             const char *algorithm, const NsPlanParams *params,
                             const NsPhaseSink *sink, uint32_t *n_phases, uint64_t *n_transfers,
                             GError **error);

/* New schedule over the topology's machines (names in machine order). */
NsSchedule *ns_schedule_for_topology(const NsTopology *topo, NsCollective collective,
                                     const char *algorithm, uint64_t msize);

#endif
