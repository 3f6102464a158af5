/* netsched — link utilisation of a simulated schedule (see link_use.h). */
#include "analysis/link_use_internal.h"
#include "analysis/bounds_collective.h"
#include <string.h>

struct NsLinkUse {
  const NsTopology *topo;
  const NsSchedule *s;
  uint64_t msize;
  double completion;
  const NsRouter *router; /* the route table: the caller's, or */
  NsRouter *own_router;   /* built here */
  NsEdgeUse *edges; /* busiest first */
};

static int compare_use(const void *a, const void *b)
{
  const NsEdgeUse *x = a, *y = b;
  return (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

NsLinkUse *ns_link_use_new(const NsTopology *topo, const NsSchedule *s,
                           const NsRouter *router, uint64_t msize, double completion,
                           GError **error)
{
  NsLinkUse *u = g_new0(NsLinkUse, 1);
  *u = (NsLinkUse){ .topo = topo, .s = s, .msize = msize, .completion = completion,
                    .router = router };
  if (!ns_router_fits(router, topo, s) &&
      (u->router = u->own_router = ns_router_for(topo, s, error)) == NULL) {
    ns_link_use_free(u);
    return NULL;
  }
  int n = ns_topology_n_edges(topo);
  double *bytes = g_new(double, MAX(n, 1));
  ns_schedule_edge_bytes_routed(topo, s, u->router, msize, bytes);
  u->edges = g_new(NsEdgeUse, MAX(n, 1));
  for (int e = 0; e < n; e++) {
    double bw = ns_topology_link(topo, ns_edge_link(e))->bandwidth;
    u->edges[e] = (NsEdgeUse){ e, bytes[e],
                               completion > 0 ? bytes[e] * 8.0 / (bw * completion) : 0 };
  }
  g_free(bytes);
  qsort(u->edges, (size_t)n, sizeof *u->edges, compare_use);
  return u;
}

void ns_link_use_free(NsLinkUse *u)
{
  if (u == NULL)
    return;
  ns_router_free(u->own_router);
  g_free(u->edges);
  g_free(u);
}

const NsEdgeUse *ns_link_use_edges(const NsLinkUse *u)
{
  return u->edges;
}

void ns_link_use_timeline(const NsLinkUse *u, const int *edges, int n_edges,
                          const double *start, const double *end, int bins, double *busy)
{
  memset(busy, 0, sizeof(double) * (gsize)bins * (gsize)n_edges);
  double width = u->completion / bins;
  int *route = g_new(int, ns_router_max_len(u->router));
  for (uint64_t k = 0; k < ns_schedule_n_transfers(u->s); k++) {
    double t0 = start[k], t1 = end[k];
    if (!(t1 > t0))
      continue;
    const NsTransfer *tr = ns_schedule_transfer(u->s, k);
    int len = ns_router_route(u->router, k, route);
    double rate = (double)ns_schedule_transfer_bytes_at(u->s, tr, u->msize) * 8.0 / (t1 - t0);
    for (int j = 0; j < n_edges; j++) {
      gboolean uses = FALSE;
      for (int i = 0; i < len && !uses; i++)
        uses = route[i] == edges[j];
      if (!uses)
        continue;
      double bw = ns_topology_link(u->topo, ns_edge_link(edges[j]))->bandwidth;
      double *b = busy + (gsize)j * bins;
      for (int i = (int)(t0 / width); i < bins && i * width < t1; i++) {
        double lo = MAX(t0, i * width), hi = MIN(t1, (i + 1) * width);
        if (hi > lo)
          b[i] += rate * (hi - lo) / (bw * width);
      }
    }
  }
  g_free(route);
}
