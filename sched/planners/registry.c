/* netsched — the planner registry, generated from sched/planners/planners.def. */
#include "sched/planners/registry.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"

static const NsPlanner planners[] = {
#define NS_PLANNER(coll, algo, summary_, source_)                                          \
  { .collective = NS_COLL_##coll##_ID, .name = #algo, .summary = summary_,               \
    .source = source_, .plan = ns_##coll##_##algo },
#define NS_PLANNER_TREE(coll, algo, summary_, source_)                                     \
  { .collective = NS_COLL_##coll##_ID, .name = #algo, .summary = summary_,               \
    .source = source_, .plan = ns_##coll##_##algo, .needs_tree = TRUE },
#define NS_COLL_alltoall_ID NS_COLL_ALLTOALL
#define NS_COLL_allgather_ID NS_COLL_ALLGATHER
#define NS_COLL_bcast_ID NS_COLL_BCAST
#define NS_COLL_reduce_ID NS_COLL_REDUCE
#define NS_COLL_allreduce_ID NS_COLL_ALLREDUCE
#define NS_COLL_alltoallv_ID NS_COLL_ALLTOALLV
#define NS_COLL_allgatherv_ID NS_COLL_ALLGATHERV
#define NS_PLANNER_NAMED(coll, algo, name_, summary_, source_)                           \
  { .collective = NS_COLL_##coll##_ID, .name = name_, .summary = summary_,               \
    .source = source_, .plan = ns_##coll##_##algo },
#define NS_PLANNER_NAMED_TREE(coll, algo, name_, summary_, source_)                      \
  { .collective = NS_COLL_##coll##_ID, .name = name_, .summary = summary_,               \
    .source = source_, .plan = ns_##coll##_##algo, .needs_tree = TRUE },
#include "sched/planners/planners.def"
#undef NS_PLANNER
#undef NS_PLANNER_NAMED
#undef NS_PLANNER_TREE
#undef NS_PLANNER_NAMED_TREE
};

/**
 * \function ns_planners
 * \brief Every registered planner, in registry order.
 *
 * \param n Receives the number of planners.
 * \return The registry (static, not to be freed).
 * \errors none.
 * \complexity O(1).
 * \source sched/planners/planners.def.
 */
const NsPlanner *ns_planners(int *n)
{
  *n = (int)G_N_ELEMENTS(planners);
  return planners;
}

/* Equal names, '-' and '_' counting as the same character (registry.h). */
static gboolean same_name(const char *a, const char *b)
{
  if (b == NULL)
    return FALSE;
  for (; *a != '\0' && *b != '\0'; a++, b++)
    if (*a != *b && !((*a == '_' || *a == '-') && (*b == '_' || *b == '-')))
      return FALSE;
  return *a == *b;
}

/**
 * \function ns_planner_find
 * \brief Finds a registered planner by collective and name.
 *
 * '-' and '_' count as the same character, so "linear-cf" and "linear_cf"
 * find the same planner.
 *
 * \param collective The collective.
 * \param algorithm The algorithm's name, or "collective/algorithm".
 * \return The registry entry (static, not to be freed), or NULL if unknown.
 * \errors none (NULL for an unknown name).
 * \complexity O(registered planners · name length).
 * \source sched/planners/planners.def.
 */
const NsPlanner *ns_planner_find(NsCollective collective, const char *algorithm)
{
  for (gsize i = 0; i < G_N_ELEMENTS(planners); i++)
    if (planners[i].collective == collective && same_name(planners[i].name, algorithm))
      return &planners[i];
  return NULL;
}

/* The planner registered for `algorithm`, or NULL with NS_ERROR_INPUT
 * listing the collective's algorithms. */
static const NsPlanner *find_planner(NsCollective collective, const char *algorithm,
                                     GError **error)
{
  const NsPlanner *p = ns_planner_find(collective, algorithm);
  if (p != NULL)
    return p;
  GString *known = g_string_new(NULL);
  for (gsize i = 0; i < G_N_ELEMENTS(planners); i++)
    if (planners[i].collective == collective)
      g_string_append_printf(known, "%s%s", known->len ? ", " : "", planners[i].name);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "unknown %s algorithm '%s' (known: %s)",
                  ns_collective_name(collective), algorithm, known->str);
  g_string_free(known, TRUE);
  return NULL;
}

/* Runs planner p once the topology and parameters suit it. */
static NsSchedule *run_planner(const NsPlanner *p, const NsTopology *topo,
                               const NsPlanParams *params, GError **error)
{
  if (p->needs_tree && ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s/%s needs a switch tree (unique-path routing), and %s routes %s: take "
                    "a spanning tree (--spanning bfs|dfs|kruskal|uniform), as Ethernet does, "
                    "or use an algorithm for this fabric",
                    ns_collective_name(p->collective), p->name, ns_topology_source(topo),
                    ns_routing_kind_name(ns_topology_routing(topo)));
    return NULL;
  }
  if (!ns_collective_size_check(p->collective, ns_topology_n_machines(topo), error))
    return NULL;
  if (params->msize == 0 || params->msize > NS_MAX_MSIZE) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "message size %" G_GUINT64_FORMAT " B is outside 1 B .. 1TiB", params->msize);
    return NULL;
  }
  return p->plan(topo, params, error);
}

/**
 * \function ns_plan_stream
 * \brief Called by a planner that can stream, once its header is settled.
 *
 * When ns_plan_streamed() asked for this very algorithm, the schedule's
 * phases go to its sink as they are built; not when the planner runs
 * inside another (the MPI selectors, variants), which relabel the schedule
 * afterwards.
 *
 * \param s The schedule being planned (header settled, no phase yet).
 * \param params The parameters the planner was called with.
 * \errors none (the sink's errors come back through the schedule's
 *         stream).
 * \complexity O(header).
 * \source docs/architecture.md, "Adding an algorithm" (streaming).
 */
void ns_plan_stream(NsSchedule *s, const NsPlanParams *params)
{
  if (params->sink != NULL && g_strcmp0(params->sink_for, s->algorithm) == 0)
    ns_schedule_stream_to(s, params->sink);
}

/* Hands the phases of a schedule held whole on to `sink`. */
static gboolean hand_on_whole(const NsSchedule *s, const NsPhaseSink *sink, GError **error)
{
  g_autoptr(NsSchedule) header = ns_schedule_copy_header(s);
  if (!sink->begin(header, sink->data, error))
    return FALSE;
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    NsPhase phase = ns_schedule_phase(s, ph);
    if (!sink->phase(&phase, sink->data, error))
      return FALSE;
  }
  return TRUE;
}

/**
 * \function ns_plan_streamed
 * \brief Plans as ns_plan() and hands the phases on to a sink one by one.
 *
 * A planner that streams hands each phase on as it is built, so the
 * schedule is never held whole (memory: the topology and one phase); any
 * other planner builds its schedule first and its phases are handed on
 * from it: sink->begin with the header, then sink->phase for each phase.
 *
 * \param topo A finalized topology.
 * \param collective The collective.
 * \param algorithm A registered name or selector.
 * \param params The planning parameters.
 * \param sink Receives the header and the phases, in order.
 * \param n_phases, n_transfers Receive the numbers handed on (may be NULL).
 * \param error Set on failure (see errors).
 * \return The schedule's header and tail (sync edges, routes, sync scheme;
 *         the phases too when the planner does not stream), or NULL.
 * \errors Those of ns_plan(), or the sink's first error (no phase is
 *         handed on after it).
 * \complexity The planner's, plus the sink's.
 * \source docs/architecture.md, "Adding an algorithm" (streaming).
 */
NsSchedule *ns_plan_streamed(const NsTopology *topo, NsCollective collective,
                             const char *algorithm, const NsPlanParams *params,
                             const NsPhaseSink *sink, uint32_t *n_phases, uint64_t *n_transfers,
                             GError **error)
{
  const NsPlanner *planner = find_planner(collective, algorithm, error);
  if (planner == NULL)
    return NULL;
  NsPlanParams with_sink = *params;
  with_sink.sink = sink;
  with_sink.sink_for = planner->name;
  NsSchedule *s = run_planner(planner, topo, &with_sink, error);
  if (s == NULL)
    return NULL;
  uint32_t phases = ns_schedule_n_phases(s);
  uint64_t transfers = ns_schedule_n_transfers(s);
  gboolean ok = ns_schedule_is_streamed(s) ? ns_schedule_stream_finish(s, &phases, &transfers, error)
                                           : hand_on_whole(s, sink, error);
  if (!ok) {
    ns_schedule_free(s);
    return NULL;
  }
  if (n_phases != NULL)
    *n_phases = phases;
  if (n_transfers != NULL)
    *n_transfers = transfers;
  return s;
}

/**
 * \function ns_plan
 * \brief Plans a collective on a topology with a registered algorithm.
 *
 * Looks the algorithm up (ns_planner_find()), checks the collective's size
 * limit and the planner's needs (a switch tree for tree-only planners) and
 * runs it; the schedule is held whole (ns_plan_streamed() hands the phases
 * on instead).
 *
 * \param topo A finalized topology.
 * \param collective NS_COLL_ALLTOALL, NS_COLL_ALLGATHER or NS_COLL_BCAST.
 * \param algorithm A registered name ("faraj", "lr3", "linear-cf", ...; '-'
 *        and '_' alike) or an MPI library's selector ("mpich", "ompi").
 * \param params Message size, root, segment size, arity, sync scheme.
 * \param error Set on failure (see errors).
 * \return The schedule (ns_schedule_free() it), or NULL.
 * \errors NS_ERROR_INPUT for an unknown algorithm (the known ones of the
 *         collective are listed) or bad parameters, NS_ERROR_UNSUPPORTED when
 *         a tree-only planner meets another fabric or the collective is too
 *         large, and what the planner itself reports.
 * \complexity The planner's (each planner's file states it); the schedule
 *         holds O(transfers) memory.
 * \source sched/planners/planners.def and docs/algorithms.md name each
 *         algorithm's paper and section.
 */
NsSchedule *ns_plan(const NsTopology *topo, NsCollective collective, const char *algorithm,
                    const NsPlanParams *params, GError **error)
{
  const NsPlanner *p = find_planner(collective, algorithm, error);
  return p != NULL ? run_planner(p, topo, params, error) : NULL;
}

/**
 * \function ns_schedule_for_topology
 * \brief A new, empty schedule over a topology's machines.
 *
 * Machine names in machine-index order: what every planner starts from.
 *
 * \param topo A finalized topology.
 * \param collective The collective.
 * \param algorithm The algorithm's name, recorded in the schedule.
 * \param msize Bytes of a chunk.
 * \return The schedule (ns_schedule_free() it).
 * \errors none.
 * \complexity O(|M|).
 * \source sched/ir/schedule.h.
 */
NsSchedule *ns_schedule_for_topology(const NsTopology *topo, NsCollective collective,
                                     const char *algorithm, uint64_t msize)
{
  int p = ns_topology_n_machines(topo);
  const char **names = g_new(const char *, p);
  for (int i = 0; i < p; i++)
    names[i] = ns_topology_machine_name(topo, i);
  NsSchedule *s = ns_schedule_new(collective, algorithm, p, names, msize);
  g_free(names);
  return s;
}
