/* netsched — busy resources per phase for greedy and a2a-based
 * (alltoallv_phases_internal.h; CC-MPI, Karwande, Yuan & Lowenthal,
 * PPoPP'03; contention-free phases after Faraj & Yuan §3). */
#include "platforms/model/error.h"
#include "sched/planners/alltoallv/alltoallv_phases_internal.h"

struct NsLinkPhases {
  const NsTopology *topo;
  NsRouteTable *routes;
  int n_edges;
  int *port_res; /* machine -> its send resource (recv: +1), or -1 */
  GArray **busy; /* per resource: guint64 words, bit k = busy in phase k */
  int n_res;
};

NsLinkPhases *ns_link_phases_new(const NsTopology *topo, const char *algorithm, GError **error)
{
  int p = ns_topology_n_machines(topo);
  if (p > NS_ALLTOALLV_SCHED_MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "alltoallv/%s takes at most %d machines (the topology has %d): its "
                    "first-fit search grows with p^4",
                    algorithm, NS_ALLTOALLV_SCHED_MAX_MACHINES, p);
    return NULL;
  }
  NsLinkPhases *lp = g_new0(NsLinkPhases, 1);
  lp->topo = topo;
  lp->routes = ns_route_table_new(topo);
  lp->n_edges = ns_topology_n_edges(topo);
  lp->port_res = g_new(int, p);
  lp->n_res = lp->n_edges;
  for (int m = 0; m < p; m++) {
    gboolean shared = ns_topology_machine_ports(topo, m) == 1 &&
                      ns_topology_degree(topo, ns_topology_machine_node(topo, m)) > 1;
    lp->port_res[m] = shared ? lp->n_res : -1;
    lp->n_res += shared ? 2 : 0;
  }
  lp->busy = g_new0(GArray *, lp->n_res);
  for (int r = 0; r < lp->n_res; r++)
    lp->busy[r] = g_array_new(FALSE, TRUE, sizeof(guint64));
  return lp;
}

void ns_link_phases_free(NsLinkPhases *lp)
{
  if (lp == NULL)
    return;
  for (int r = 0; r < lp->n_res; r++)
    g_array_free(lp->busy[r], TRUE);
  g_free(lp->busy);
  g_free(lp->port_res);
  ns_route_table_free(lp->routes);
  g_free(lp);
}

int ns_link_phases_max_resources(const NsLinkPhases *lp)
{
  return ns_topology_max_route_len(lp->topo) + 2;
}

int ns_link_phases_resources(const NsLinkPhases *lp, int src, int dst, int *res)
{
  int n = ns_route_table_route(lp->routes, ns_topology_machine_node(lp->topo, src),
                               ns_topology_machine_node(lp->topo, dst), res);
  if (lp->port_res[src] >= 0)
    res[n++] = lp->port_res[src];
  if (lp->port_res[dst] >= 0)
    res[n++] = lp->port_res[dst] + 1;
  return n;
}

static guint64 word_of(const NsLinkPhases *lp, int r, guint w)
{
  GArray *b = lp->busy[r];
  return w < b->len ? g_array_index(b, guint64, w) : 0;
}

gboolean ns_link_phases_free_in(const NsLinkPhases *lp, const int *res, int n, uint32_t phase)
{
  for (int k = 0; k < n; k++)
    if (word_of(lp, res[k], phase / 64) >> (phase % 64) & 1)
      return FALSE;
  return TRUE;
}

uint32_t ns_link_phases_first_free(const NsLinkPhases *lp, const int *res, int n)
{
  guint words = 0;
  for (int k = 0; k < n; k++)
    words = MAX(words, lp->busy[res[k]]->len);
  for (guint w = 0; w < words; w++) {
    guint64 any = 0;
    for (int k = 0; k < n; k++)
      any |= word_of(lp, res[k], w);
    if (~any != 0)
      return w * 64 + (uint32_t)__builtin_ctzll(~any);
  }
  return words * 64;
}

void ns_link_phases_occupy(NsLinkPhases *lp, const int *res, int n, uint32_t phase)
{
  for (int k = 0; k < n; k++) {
    GArray *b = lp->busy[res[k]];
    if (b->len <= phase / 64)
      g_array_set_size(b, phase / 64 + 1);
    g_array_index(b, guint64, phase / 64) |= (guint64)1 << (phase % 64);
  }
}
