/* netsched — shortest-path routing on any graph (and the fallback of
 * explicit routing).
 *
 * For every destination machine d a breadth-first search from d gives the
 * hop distance of every node; from node v the next hop towards d is the
 * first neighbour, in link-id order, one hop closer — so routes are
 * shortest in hops and deterministic, ties going to the link of lowest id.
 * The set-up stores that next link for every (destination machine, node):
 * O(|M|·(|V|+|E|)) time and |M|·|V| entries of memory, refused above
 * 2^27 entries (512 MiB) with advice (a spanning tree, or a structured
 * routing). Routes between machines only. */
#include "platforms/error.h"
#include "platforms/topology_private.h"

#define MAX_ENTRIES ((uint64_t)1 << 27)

typedef struct {
  int *next;            /* next[d * n_nodes + v]: link from v towards machine d, -1 at d */
  int n_nodes;
} Shortest;

/* Builds the next-hop table; used by shortest and explicit routing. */
gboolean ns_routing_shortest_table(NsTopology *t, void **data, int *max_len, GError **error)
{
  int n = (int)t->nodes->len, p = t->n_machines;
  if ((uint64_t)n * (uint64_t)p > MAX_ENTRIES) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->routing_line,
                    "shortest-path routing of %d machines over %d nodes needs a table of %.0f "
                    "MiB (at most 512 MiB): take a spanning tree (--spanning) or declare a "
                    "structured routing (dmodk, dimension-order)",
                    p, n, (double)n * p * sizeof(int) / 1048576.0);
    return FALSE;
  }
  Shortest *s = g_new0(Shortest, 1);
  s->n_nodes = n;
  s->next = g_new(int, (gsize)n * p);
  int *dist = g_new(int, n);
  int longest = 0;
  for (int d = 0; d < p; d++) {
    ns_topology_hop_distances(t, t->machine_node[d], dist);
    int *next = s->next + (gsize)d * n;
    for (int v = 0; v < n; v++) {
      longest = MAX(longest, dist[v]);
      next[v] = -1;
      for (int k = t->inc_start[v]; k < t->inc_start[v + 1] && dist[v] > 0; k++)
        if (dist[ns_topology_link_other(t, t->inc[k], v)] == dist[v] - 1) {
          next[v] = t->inc[k];
          break;
        }
    }
  }
  g_free(dist);
  *data = s;
  *max_len = longest;
  return TRUE;
}

/* The shortest route from node src to machine node dst. */
int ns_routing_shortest_walk(const NsTopology *t, const void *data, int src, int dst, int *edges)
{
  const Shortest *s = data;
  const int *next = s->next + (gsize)t->node_machine[dst] * s->n_nodes;
  int len = 0;
  for (int v = src; v != dst;) {
    int li = next[v];
    edges[len++] = ns_edge_from_link(t, li, v);
    v = ns_topology_link_other(t, li, v);
  }
  return len;
}

void ns_routing_shortest_release(void *data)
{
  Shortest *s = data;
  if (s != NULL) {
    g_free(s->next);
    g_free(s);
  }
}

static void shortest_free(NsTopology *t)
{
  ns_routing_shortest_release(t->routing_data);
  t->routing_data = NULL;
}

static gboolean shortest_build(NsTopology *t, GError **error)
{
  return ns_routing_shortest_table(t, &t->routing_data, &t->max_route_len, error);
}

static int shortest_route(const NsTopology *t, int src, int dst, int *edges)
{
  return ns_routing_shortest_walk(t, t->routing_data, src, dst, edges);
}

static char *shortest_describe(const NsTopology *t)
{
  return g_strdup("shortest: a shortest path in hops; at each node the next hop is the "
                  "neighbour one hop closer over the link of lowest id");
}

const NsRoutingOps ns_routing_shortest_ops = {
  .kind = NS_ROUTING_SHORTEST,
  .build = shortest_build,
  .route = shortest_route,
  .describe = shortest_describe,
  .free_data = shortest_free,
};
