/* netsched — the bound of any collective (see bounds_collective.h). */
#include "analysis/bounds_collective.h"
#include "analysis/bounds.h"
#include "analysis/bounds_allgather.h"
#include "analysis/bounds_bcast.h"
#include "sched/ir/counts.h"
#include "sched/ir/route.h"
#include <string.h>

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

double ns_collective_bound(const NsTopology *topo, const NsSchedule *s, uint64_t msize)
{
  return ns_collective_bound_routed(topo, s, msize, NULL);
}

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
    return ns_allgather_lower_bound(topo, msize); /* (P-1) msize / B, §3.3.1.1 */
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

double ns_collective_required_bytes(const NsSchedule *s, uint64_t msize)
{
  double p = (double)s->n_machines;
  switch (s->collective) {
  case NS_COLL_ALLTOALL:
  case NS_COLL_ALLGATHER:
    return p * (p - 1) * (double)msize;
  case NS_COLL_BCAST:
    return (p - 1) * (double)s->n_segments * (double)msize;
  }
  return 0;
}
