/* netsched — shortest-path routing on any graph (and the fallback of
 * explicit routing), with ties to the lowest link id (`shortest`) or spread
 * over the equal-cost next hops (`ecmp`).
 *
 * For every destination machine d a breadth-first search from d gives the
 * hop distance of every node; the next hops of node v towards d are its
 * neighbours one hop closer, in link-id order. `shortest` takes the first
 * of them — routes are shortest in hops and deterministic, ties going to
 * the link of lowest id, so every message between two leaves of a
 * leaf/spine crosses the same spine. `ecmp` takes next hop number d mod k
 * of the k equal-cost ones (d the destination machine's index): the
 * destination-keyed spreading of d-mod-k (Zahavi et al. 2010) applied at
 * every node with a choice, as a switch's ECMP group spreads flows. On a
 * leaf/spine whose machines are numbered leaf by leaf, every up-link of a
 * leaf then carries the messages to the destinations of one residue class,
 * and the all-to-all load of each up- and down-link is M(P-M)/S for S
 * spines (when S divides M): the cut bound of the leaf. Both routings
 * depend only on the destination, so the routes towards d form a tree
 * (ns_topology_next_hops).
 * The set-up stores that next link for every (destination machine, node):
 * O(|M|·(|V|+|E|)) time and |M|·|V| entries of memory, refused above
 * 2^27 entries (512 MiB) with advice (a spanning tree, or a structured
 * routing). Routes between machines only.
 *
 * The table is built when first asked for (a route, the next hops, the
 * longest route), not when the topology is loaded: most commands that load
 * a random graph never route on it (a sweep's path statistics run their own
 * search over the switches; `topo convert`, a spanning tree), and the
 * table was 87 % of the CPU of a Waxman sweep (issue #24). Only the size
 * check stays at load time, so a table too large is still refused there.
 * The first query builds it under a GOnce, so threads may share the
 * topology (the verifier's link thread routes while the main thread
 * does). */
#include "platforms/model/error.h"
#include "platforms/model/topology_internal.h"

#define MAX_ENTRIES ((uint64_t)1 << 27)

typedef struct {
  gsize built;          /* GOnce flag: next[] and longest are filled */
  gboolean spread;      /* ecmp */
  int *next;            /* next[d * n_nodes + v]: link from v towards machine d, -1 at d */
  int n_nodes;
  int longest;          /* the longest route, in links */
} Shortest;

static gint tables_built; /* ns_routing_shortest_tables_built() */

/* Fills the next-hop table: a breadth-first search from every machine.
 * `spread`: next hop d mod k of the k equal-cost ones (ecmp), else the
 * first. */
static void fill_table(const NsTopology *t, Shortest *s)
{
  int n = s->n_nodes, p = t->n_machines;
  s->next = g_new(int, (gsize)n * p);
  int *dist = g_new(int, n);
  int longest = 0;
  gboolean spread = s->spread;
  for (int d = 0; d < p; d++) {
    ns_topology_hop_distances(t, t->machine_node[d], dist);
    int *next = s->next + (gsize)d * n;
    for (int v = 0; v < n; v++) {
      longest = MAX(longest, dist[v]);
      next[v] = -1;
      if (dist[v] <= 0)
        continue;
      int k_equal = 0; /* equal-cost next hops (ecmp) */
      for (int k = t->inc_start[v]; k < t->inc_start[v + 1] && spread; k++)
        k_equal += dist[ns_topology_link_other(t, t->inc[k], v)] == dist[v] - 1;
      int pick = spread ? d % k_equal : 0;
      for (int k = t->inc_start[v]; k < t->inc_start[v + 1]; k++)
        if (dist[ns_topology_link_other(t, t->inc[k], v)] == dist[v] - 1 && pick-- == 0) {
          next[v] = t->inc[k];
          break;
        }
    }
  }
  g_free(dist);
  s->longest = longest;
  g_atomic_int_inc(&tables_built);
}

/* The table, built by the first caller (thread-safe). */
static const Shortest *table(const NsTopology *t, void *data)
{
  Shortest *s = data;
  if (g_once_init_enter(&s->built)) {
    fill_table(t, s);
    g_once_init_leave(&s->built, 1);
  }
  return s;
}

guint ns_routing_shortest_tables_built(void)
{
  return (guint)g_atomic_int_get(&tables_built);
}

/* Sets up a table, to be built when first asked for; used by shortest, ecmp
 * and explicit routing. Refuses a table above MAX_ENTRIES now. */
gboolean ns_routing_shortest_table(NsTopology *t, gboolean spread, void **data, GError **error)
{
  int n = (int)t->nodes->len, p = t->n_machines;
  if ((uint64_t)n * (uint64_t)p > MAX_ENTRIES) {
    ns_set_error_at(error, NS_ERROR_INPUT, t->source, t->routing_line,
                    "%s routing of %d machines over %d nodes needs a table of %.0f "
                    "MiB (at most 512 MiB): take a spanning tree (--spanning) or declare a "
                    "structured routing (dmodk, dimension-order)",
                    spread ? "ecmp" : "shortest-path", p, n,
                    (double)n * p * sizeof(int) / 1048576.0);
    return FALSE;
  }
  Shortest *s = g_new0(Shortest, 1);
  s->n_nodes = n;
  s->spread = spread;
  *data = s;
  return TRUE;
}

int ns_routing_shortest_longest(const NsTopology *t, void *data)
{
  return table(t, data)->longest;
}

/* The shortest route from node src to machine node dst. */
int ns_routing_shortest_walk(const NsTopology *t, void *data, int src, int dst, int *edges)
{
  const Shortest *s = table(t, data);
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
  return ns_routing_shortest_table(t, t->routing == NS_ROUTING_ECMP, &t->routing_data, error);
}

static int shortest_max_route_len(const NsTopology *t)
{
  return ns_routing_shortest_longest(t, t->routing_data);
}

/* The routes towards machine d, one next link per node. */
void ns_routing_shortest_next_hops(const NsTopology *t, void *data, int dst_machine,
                                   int *next_edge)
{
  const Shortest *s = table(t, data);
  const int *next = s->next + (gsize)dst_machine * s->n_nodes;
  for (int v = 0; v < s->n_nodes; v++)
    next_edge[v] = next[v] < 0 ? -1 : ns_edge_from_link(t, next[v], v);
}

static gboolean shortest_next_hops(const NsTopology *t, int dst_machine, int *next_edge)
{
  ns_routing_shortest_next_hops(t, t->routing_data, dst_machine, next_edge);
  return TRUE;
}

static int shortest_route(const NsTopology *t, int src, int dst, int *edges)
{
  return ns_routing_shortest_walk(t, t->routing_data, src, dst, edges);
}

static char *shortest_describe(const NsTopology *t)
{
  if (t->routing == NS_ROUTING_ECMP)
    return g_strdup("ecmp: a shortest path in hops; at each node the next hop towards machine d "
                    "is number d mod k of the k neighbours one hop closer, in link-id order");
  return g_strdup("shortest: a shortest path in hops; at each node the next hop is the "
                  "neighbour one hop closer over the link of lowest id");
}

const NsRoutingOps ns_routing_shortest_ops = {
  .kind = NS_ROUTING_SHORTEST,
  .build = shortest_build,
  .route = shortest_route,
  .next_hops = shortest_next_hops,
  .max_route_len = shortest_max_route_len,
  .describe = shortest_describe,
  .free_data = shortest_free,
};

const NsRoutingOps ns_routing_ecmp_ops = {
  .kind = NS_ROUTING_ECMP,
  .build = shortest_build,
  .route = shortest_route,
  .next_hops = shortest_next_hops,
  .max_route_len = shortest_max_route_len,
  .describe = shortest_describe,
  .free_data = shortest_free,
};
