/* netsched — the bound of any collective (see bounds_collective.h). */
#include "analysis/bounds_collective.h"
#include "analysis/bounds.h"
#include "sched/bound/lower_bound.h"
#include "analysis/bounds_allgather.h"
#include "analysis/bounds_bcast.h"
#include "sched/ir/counts_internal.h"
#include "sched/ir/route.h"
#include <string.h>

/**
 * \function ns_schedule_edge_bytes_routed
 * \brief Bytes crossing every directed edge, over a route table already resolved.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param router The schedule's route table (ns_router_for()).
 * \param msize Bytes per chunk.
 * \param bytes Receives ns_topology_n_edges() totals (floating point).
 * \errors none.
 * \complexity O(Σ route lengths).
 * \source Faraj and Yuan §3 (directed links).
 */
void ns_schedule_edge_bytes_routed(const NsTopology *topo, const NsSchedule *s,
                                   const NsRouter *router, uint64_t msize, double *bytes)
{
  memset(bytes, 0, sizeof(double) * (gsize)ns_topology_n_edges(topo));
  int *route = g_new(int, ns_router_max_len(router));
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    int len = ns_router_route(router, t, route);
    for (int k = 0; k < len; k++)
      bytes[route[k]] += (double)tr->n_chunks * (double)msize;
  }
  g_free(route);
}

/**
 * \function ns_schedule_edge_bytes
 * \brief Bytes crossing every directed edge, from routes and transfer sizes.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param msize Bytes per chunk.
 * \param bytes Receives ns_topology_n_edges() totals (floating point).
 * \errors none.
 * \complexity O(Σ route lengths).
 * \source Faraj and Yuan §3 (directed links).
 */
void ns_schedule_edge_bytes(const NsTopology *topo, const NsSchedule *s, uint64_t msize,
                            double *bytes)
{
  memset(bytes, 0, sizeof(double) * (gsize)ns_topology_n_edges(topo));
  int *node = ns_schedule_machine_nodes(topo, s, NULL);
  NsRouter *router = node != NULL ? ns_router_new(topo, s, node, NULL) : NULL;
  if (router != NULL) /* callers check machines and routes first (ns_simulate, ns_verify) */
    ns_schedule_edge_bytes_routed(topo, s, router, msize, bytes);
  ns_router_free(router);
  g_free(node);
}

/* A reduce's or all-reduce's bound: segments of `msize` bytes, or, with
 * sizes of their own, the fluid bound of the vector they add up to. */
static double reduction_bound(const NsTopology *topo, const NsSchedule *s, uint64_t msize)
{
  int root = s->root >= 0 && s->root < s->n_machines
                 ? ns_topology_find_machine(topo, s->machines[s->root])
                 : -1;
  NsLowerBound b;
  if (s->chunk_bytes != NULL) {
    uint64_t n = 0;
    for (guint c = 0; c < s->chunk_bytes->len; c++)
      n += g_array_index(s->chunk_bytes, uint64_t, c);
    ns_lower_bound_reduction(topo, s->collective, n, 0, root, &b);
  } else {
    ns_lower_bound(topo, s->collective, msize, root, s->n_segments, &b);
  }
  return b.seconds;
}

/**
 * \function ns_collective_bound
 * \brief The lower bound of a schedule's collective on a topology, in seconds.
 *
 * \param topo A finalized topology.
 * \param s The schedule (its collective, root and segments).
 * \param msize The bytes per chunk it is measured with.
 * \return Seconds (the routed bound for the all-to-all).
 * \errors none.
 * \complexity that of the collective's bound.
 * \source docs/architecture.md, "Two lower bounds".
 */
double ns_collective_bound(const NsTopology *topo, const NsSchedule *s, uint64_t msize)
{
  return ns_collective_bound_routed(topo, s, msize, NULL);
}

/**
 * \function ns_collective_bound_routed
 * \brief The lower bound of a schedule's collective, with its route table already resolved.
 *
 * The choice of ns_collective_bound(): over all the topology's machines, the all-to-all's
 * bandwidth-weighted bottleneck bound, the all-gather's of the port model
 * (ns_allgather_lower_bound()), the bcast's T(msize)
 * from the root to the farthest machine (when msize is the schedule's own); otherwise (a
 * subset of the machines, resized chunks, a bcast bound that cannot be computed) the largest
 * bytes·8/bandwidth over the directed edges the schedule itself uses. Only that last case
 * routes the schedule.
 *
 * \param topo A finalized topology.
 * \param s The schedule (its collective, machines, root and segments).
 * \param msize The bytes per chunk it is measured with.
 * \param router The schedule's route table (ns_router_for()); NULL, or one built for another
 *        topology or schedule (ns_router_fits() FALSE): the routes are resolved here when needed.
 * \return Seconds.
 * \errors none (the per-edge case assumes machines and routes already checked: when they do not
 *        resolve, no edge is counted).
 * \complexity that of the collective's bound (ns_a2a_bound(), ns_allgather_lower_bound(),
 *        ns_bcast_bound()); per edge O(Σ route lengths + |E|), plus O(Σ route lengths · degree)
 *        to resolve the routes when `router` does not fit.
 * \source docs/architecture.md, "Two lower bounds"; dissertation §3.3.1 (all-gather), §3.4.1
 *        (bcast); Faraj and Yuan §3 (all-to-all).
 */
double ns_collective_bound_routed(const NsTopology *topo, const NsSchedule *s, uint64_t msize,
                                  const NsRouter *router)
{
  ns_count_add(NS_COUNT_BOUND);
  gboolean whole = s->n_machines == ns_topology_n_machines(topo);
  if (s->collective == NS_COLL_ALLTOALL && whole) {
    NsA2ABound b;
    ns_a2a_bound(topo, msize, &b);
    return b.time_bound;
  }
  if (s->collective == NS_COLL_ALLGATHER && whole)
    return ns_allgather_lower_bound(topo, msize); /* the machines' port model, §3.3.1.1 */
  if (ns_collective_is_reduction(s->collective) && whole) /* docs/verify.md, "Bounds of the
                                                             reductions" */
    return reduction_bound(topo, s, msize);
  if (s->collective == NS_COLL_BCAST && whole && msize == s->msize) {
    NsBcastBound b;
    if (ns_bcast_bound(topo, s, &b, NULL))
      return b.lower_bound; /* T(msize) from the root to the farthest machine, §3.4.1 */
  }
  int n_edges = ns_topology_n_edges(topo);
  double *bytes = g_new(double, n_edges);
  if (ns_router_fits(router, topo, s))
    ns_schedule_edge_bytes_routed(topo, s, router, msize, bytes);
  else
    ns_schedule_edge_bytes(topo, s, msize, bytes);
  double bound = 0;
  for (int e = 0; e < n_edges; e++)
    bound = MAX(bound, bytes[e] * 8.0 / ns_topology_link(topo, ns_edge_link(e))->bandwidth);
  g_free(bytes);
  return bound;
}

/**
 * \function ns_collective_required_bytes
 * \brief Bytes a collective must deliver.
 *
 * \param s The schedule.
 * \param msize Bytes per chunk.
 * \return p(p−1)·msize for all-to-all and all-gather, (p−1)·n for bcast and reduce, 2(p−1)·n for
 *        allreduce (n: segments·msize, or the segments' own sizes when the schedule has them),
 *        the pattern's off-diagonal bytes for alltoallv and
 *        (p−1)·Σ sizes for allgatherv (floating point: totals may exceed 64 bits).
 * \errors none.
 * \complexity O(1).
 * \source docs/architecture.md.
 */
double ns_collective_required_bytes(const NsSchedule *s, uint64_t msize)
{
  double p = (double)s->n_machines;
  /* a reduction's vector: its segments' own sizes when they differ (n
   * bytes cut into p blocks), else segments × msize */
  double vector = (double)s->n_segments * (double)msize;
  if (ns_collective_is_reduction(s->collective) && s->chunk_bytes != NULL) {
    vector = 0;
    for (guint c = 0; c < s->chunk_bytes->len; c++)
      vector += (double)g_array_index(s->chunk_bytes, uint64_t, c);
  }
  switch (s->collective) {
  case NS_COLL_ALLTOALL:
  case NS_COLL_ALLGATHER:
    return p * (p - 1) * (double)msize;
  case NS_COLL_BCAST:
  case NS_COLL_REDUCE: /* every contribution but the root's leaves its machine once */
    return (p - 1) * vector;
  case NS_COLL_ALLREDUCE:
    /* a reduce-scatter and an all-gather: 2(p−1)/p of the vector leaves
     * every machine (Patarasuk & Yuan 2009, bandwidth-optimal all-reduce) */
    return 2 * (p - 1) * vector;
  case NS_COLL_ALLTOALLV:
  case NS_COLL_ALLGATHERV: { /* the pattern's sizes, not msize */
    double bytes = 0;
    int n = s->n_machines;
    for (guint c = 0; s->chunk_bytes != NULL && c < s->chunk_bytes->len; c++) {
      double size = (double)g_array_index(s->chunk_bytes, uint64_t, c);
      if (s->collective == NS_COLL_ALLGATHERV)
        bytes += (p - 1) * size;
      else if ((int)(c / (guint)n) != (int)(c % (guint)n))
        bytes += size;
    }
    return bytes;
  }
  }
  return 0;
}
