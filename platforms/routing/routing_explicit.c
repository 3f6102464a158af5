/* netsched — explicit routing: the routes the input lists.
 *
 * A user who knows how the fabric forwards (a vendor's routing tables, a
 * measured traceroute) lists routes node by node (ns_topology_add_route;
 * `route A via X Y B` in the native format); between two consecutive nodes
 * the link of lowest id is used. Machine pairs without a listed route take
 * the shortest path (routing_shortest.c: its table built when first asked
 * for). The set-up checks every listed route: it joins two distinct
 * machines, its nodes are linked one to the next, it visits no node twice,
 * and no pair is listed twice. */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"
#include <string.h>

typedef struct {
  GHashTable *pairs;    /* (src machine, dst machine) key -> index + 1 into heads */
  GArray *edges;        /* int: the routes' directed edges, back to back */
  GArray *spans;        /* Span per listed route */
  void *fallback;       /* shortest-path tables */
} Explicit;

typedef struct {
  int first, n;
} Span;

static gpointer pair_key(const NsTopology *t, int src_machine, int dst_machine)
{
  return GSIZE_TO_POINTER((gsize)src_machine * (gsize)t->n_machines + (gsize)dst_machine + 1);
}

static void explicit_free(NsTopology *t)
{
  Explicit *x = t->routing_data;
  if (x == NULL)
    return;
  g_hash_table_unref(x->pairs);
  g_array_unref(x->edges);
  g_array_unref(x->spans);
  ns_routing_shortest_release(x->fallback);
  g_free(x);
  t->routing_data = NULL;
}

static gboolean fail_route(NsTopology *t, const RouteHead *h, GError **error, const char *fmt,
                           const char *a, const char *b)
{
  ns_set_error_at(error, NS_ERROR_INPUT, t->source, h->line, fmt, a, b);
  explicit_free(t);
  return FALSE;
}

static gboolean explicit_build(NsTopology *t, GError **error)
{
  Explicit *x = g_new0(Explicit, 1);
  t->routing_data = x;
  x->pairs = g_hash_table_new(g_direct_hash, g_direct_equal);
  x->edges = g_array_new(FALSE, FALSE, sizeof(int));
  x->spans = g_array_new(FALSE, FALSE, sizeof(Span));
  int longest = 0;
  int *seen = g_new0(int, t->nodes->len);
  for (guint i = 0; i < t->route_heads->len; i++) {
    const RouteHead *h = &g_array_index(t->route_heads, RouteHead, i);
    const int *nodes = &g_array_index(t->route_nodes, int, h->first);
    const char *first = g_array_index(t->nodes, NsNode, nodes[0]).name;
    const char *last = g_array_index(t->nodes, NsNode, nodes[h->n - 1]).name;
    int s = t->node_machine[nodes[0]], d = t->node_machine[nodes[h->n - 1]];
    if (s < 0 || d < 0 || s == d) {
      g_free(seen);
      return fail_route(t, h, error, "a route joins two distinct machines ('%s' to '%s')", first,
                        last);
    }
    if (g_hash_table_contains(x->pairs, pair_key(t, s, d))) {
      g_free(seen);
      return fail_route(t, h, error, "a second route from '%s' to '%s'", first, last);
    }
    Span sp = { (int)x->edges->len, h->n - 1 };
    for (int k = 0; k < h->n; k++) {
      if (seen[nodes[k]] == (int)i + 1) {
        g_free(seen);
        return fail_route(t, h, error, "the route from '%s' to '%s' visits a node twice", first,
                          last);
      }
      seen[nodes[k]] = (int)i + 1;
      if (k == 0)
        continue;
      int li = ns_topology_link_between(t, nodes[k - 1], nodes[k]);
      if (li < 0) {
        g_free(seen);
        return fail_route(t, h, error, "no link joins '%s' and '%s' on this route",
                          g_array_index(t->nodes, NsNode, nodes[k - 1]).name,
                          g_array_index(t->nodes, NsNode, nodes[k]).name);
      }
      int e = ns_edge_from_link(t, li, nodes[k - 1]);
      g_array_append_val(x->edges, e);
    }
    g_array_append_val(x->spans, sp);
    g_hash_table_insert(x->pairs, pair_key(t, s, d), GUINT_TO_POINTER(x->spans->len));
    longest = MAX(longest, sp.n);
  }
  g_free(seen);
  if (!ns_routing_shortest_table(t, FALSE, &x->fallback, error)) {
    explicit_free(t);
    return FALSE;
  }
  t->max_route_len = longest; /* the listed routes; the fallback's when first asked */
  return TRUE;
}

static int explicit_max_route_len(const NsTopology *t)
{
  const Explicit *x = t->routing_data;
  return MAX(t->max_route_len, ns_routing_shortest_longest(t, x->fallback));
}

static int explicit_route(const NsTopology *t, int src, int dst, int *edges)
{
  const Explicit *x = t->routing_data;
  guint idx = GPOINTER_TO_UINT(
      g_hash_table_lookup(x->pairs, pair_key(t, t->node_machine[src], t->node_machine[dst])));
  if (idx == 0)
    return ns_routing_shortest_walk(t, x->fallback, src, dst, edges);
  const Span *sp = &g_array_index(x->spans, Span, idx - 1);
  memcpy(edges, &g_array_index(x->edges, int, sp->first), sizeof(int) * (size_t)sp->n);
  return sp->n;
}

static char *explicit_describe(const NsTopology *t)
{
  const Explicit *x = t->routing_data;
  return g_strdup_printf("explicit: %u listed route%s; other pairs a shortest path (next hop "
                         "over the link of lowest id)",
                         x->spans->len, x->spans->len == 1 ? "" : "s");
}

const NsRoutingOps ns_routing_explicit_ops = {
  .kind = NS_ROUTING_EXPLICIT,
  .build = explicit_build,
  .route = explicit_route,
  .max_route_len = explicit_max_route_len,
  .describe = explicit_describe,
  .free_data = explicit_free,
};
