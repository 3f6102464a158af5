/* netsched — transfers' own routes on the exported platform.
 *
 * SimGrid routes every host pair one way. A schedule whose transfers take
 * routes of their own (sched/ir/route.h) is simulated on a platform whose
 * routes for those pairs are theirs; two transfers of one pair routed two
 * ways cannot be simulated, and say so. Shared by the replay (sim.c) and
 * every export of the platform a schedule runs on (ns_sim_write_platform:
 * topo convert --schedule, smpirun's files). */
#include "platforms/io/topology_simgrid.h"
#include "platforms/model/error.h"
#include "sim/pair_routes_internal.h"
#include "sim/sim.h"
#include <string.h>

/* Topology machines (a, b) as a table key. */
static gpointer pair_key(int a, int b) { return GSIZE_TO_POINTER(((gsize)a << 32 | (gsize)b) + 1); }

int ns_sim_pair_route(void *data, int src, int dst, int *edges)
{
  NsSimPairRoutes *pr = data;
  GArray *route = g_hash_table_lookup(pr->table, pair_key(src, dst));
  if (route == NULL)
    return -1;
  memcpy(edges, route->data, sizeof(int) * route->len);
  return (int)route->len;
}

void ns_sim_pair_routes_free(NsSimPairRoutes *pr)
{
  if (pr == NULL)
    return;
  if (pr->table != NULL)
    g_hash_table_unref(pr->table);
  g_free(pr);
}

NsSimPairRoutes *ns_sim_pair_routes(const NsTopology *topo, const NsSchedule *s,
                                    const NsRouter *shared, GError **error)
{
  NsSimPairRoutes *pr = g_new0(NsSimPairRoutes, 1);
  if (s->routes == NULL || s->routes->len == 0)
    return pr;
  int *node = ns_schedule_machine_nodes(topo, s, error);
  NsRouter *built = NULL;
  const NsRouter *router = node == NULL     ? NULL
                           : shared != NULL ? shared
                                            : (built = ns_router_new(topo, s, node, error));
  if (router == NULL) {
    g_free(node);
    ns_sim_pair_routes_free(pr);
    return NULL;
  }
  pr->table =
      g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, (GDestroyNotify)g_array_unref);
  int *route = g_new(int, ns_router_max_len(router));
  gboolean ok = TRUE;
  /* Pairs with own routes first, then every transfer must agree with them. */
  for (int pass = 0; pass < 2 && ok; pass++)
    for (uint64_t t = 0; t < ns_schedule_n_transfers(s) && ok; t++) {
      gboolean own = ns_router_is_own(router, t);
      if (pass == 0 && !own)
        continue;
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      int a = ns_topology_node_machine(topo, node[tr->src]);
      int b = ns_topology_node_machine(topo, node[tr->dst]);
      gpointer key = pair_key(a, b);
      int len = ns_router_route(router, t, route);
      GArray *known = g_hash_table_lookup(pr->table, key);
      if (known == NULL && pass == 0) {
        known = g_array_sized_new(FALSE, FALSE, sizeof(int), (guint)len);
        g_array_append_vals(known, route, (guint)len);
        g_hash_table_insert(pr->table, key, known);
        continue;
      }
      if (known == NULL)
        continue; /* a pair no own route touches: the topology's route */
      if ((guint)len != known->len || memcmp(known->data, route, sizeof(int) * (size_t)len) != 0) {
        ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                        "transfer #%" G_GUINT64_FORMAT " %s->%s takes another route than an "
                        "earlier transfer of the same pair: SimGrid routes a pair one way",
                        t, s->machines[tr->src], s->machines[tr->dst]);
        ok = FALSE;
      }
    }
  g_free(route);
  ns_router_free(built);
  g_free(node);
  if (!ok) {
    ns_sim_pair_routes_free(pr);
    return NULL;
  }
  return pr;
}

gboolean ns_sim_write_platform(const NsTopology *topo, const NsSchedule *s, FILE *out,
                               GError **error)
{
  int *node = ns_schedule_machine_nodes(topo, s, error); /* its machines are the topology's */
  if (node == NULL)
    return FALSE;
  g_free(node);
  NsSimPairRoutes *pairs = ns_sim_pair_routes(topo, s, NULL, error);
  if (pairs == NULL)
    return FALSE;
  NsSimGridExport exp = { .pair_route = pairs->table != NULL ? ns_sim_pair_route : NULL,
                          .pair_data = pairs };
  gboolean ok = ns_topology_write_simgrid_with(topo, &exp, out, error);
  ns_sim_pair_routes_free(pairs);
  return ok;
}
