/* netsched — planners and their registry.
 *
 * A planner turns a finalized Topology into a Schedule for one collective.
 * Planners are looked up by "collective/algorithm" (e.g. "alltoall/faraj");
 * the table is generated from sched/planners.def, so an algorithm is chosen
 * by name, never by an if-chain.
 */
#ifndef NETSCHED_REGISTRY_H
#define NETSCHED_REGISTRY_H

#include "platforms/topology.h"
#include "sched/schedule.h"

typedef struct {
  uint64_t msize;        /* bytes per chunk (alltoall: per message) */
  int root;              /* bcast root machine index */
  uint64_t segment;      /* bcast segment size in bytes (0 = whole message) */
  int arity;             /* bcast/kary-cf: children per machine (0 = the
                            algorithm's default, 3) */
} NsPlanParams;

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
#include "sched/planners.def"
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

/* New schedule over the topology's machines (names in machine order). */
NsSchedule *ns_schedule_for_topology(const NsTopology *topo, NsCollective collective,
                                     const char *algorithm, uint64_t msize);

#endif
