/* netsched — all-to-all link loads under the routing in use, and the bound
 * they give. See lower_bound.h ("the bound for the routing in use"). */
#include "sched/bound/lower_bound.h"
#include "platforms/routing/tree.h"
#include "sched/bound/routed_loads_internal.h"
#include <math.h>
#include <string.h>

/* Tree routing: the unique path; a link's load is |M_u|·|M_v| each way
 * (Faraj & Yuan §3). O(|V|). */
static void tree_loads(const NsTopology *t, uint64_t *edge)
{
  int n_links = ns_topology_n_links(t);
  uint64_t *loads = g_new(uint64_t, n_links);
  ns_a2a_link_loads(t, loads);
  for (int i = 0; i < n_links; i++)
    edge[2 * i] = edge[2 * i + 1] = loads[i];
  g_free(loads);
}

/* Dimension-order routing (routing_grid.c), closed form. A message from s
 * to t crosses dimension d's ring (or line) at the coordinates of t in the
 * dimensions before d and of s in those after, so every (a, b) pair of
 * positions on one ring of dimension d is travelled by Q = P/N_d messages.
 * On a ring of N, pairs at distance δ ≤ ⌊N/2⌋ go the positive way (ties
 * at N/2 positive) and pass each positive link ⌊N/2⌋(⌊N/2⌋+1)/2 times in
 * all, the others the negative way, ⌊(N−1)/2⌋(⌊(N−1)/2⌋+1)/2 times; on a
 * line of N the link between c and c+1 is crossed by (c+1)(N−c−1) pairs
 * each way. Edges come from one-hop routes to the neighbours, so a ring of
 * two gets the two cables the routing uses. O(P·dims). */
static void grid_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  int sizes[NS_MAX_DIMS];
  gboolean wrap;
  int n_dims = ns_topology_grid(t, sizes, &wrap), p = ns_topology_n_machines(t);
  int route[2], c[NS_MAX_DIMS];
  int longest = 0;
  for (int d = 0; d < n_dims; d++)
    longest += wrap ? sizes[d] / 2 : sizes[d] - 1;
  for (int m = 0; m < p; m++) {
    ns_topology_machine_coords(t, m, c);
    for (int d = 0; d < n_dims; d++) {
      uint64_t n = (uint64_t)sizes[d], q = (uint64_t)p / n, x = (uint64_t)c[d];
      if (n == 1)
        continue;
      int keep = c[d];
      if (wrap || x + 1 < n) { /* m -> its positive neighbour */
        c[d] = (int)((x + 1) % n);
        ns_topology_route_machines(t, m, ns_topology_machine_at(t, c), route);
        uint64_t f = n / 2;
        edge[route[0]] = q * (wrap ? f * (f + 1) / 2 : (x + 1) * (n - x - 1));
      }
      if (wrap || x > 0) { /* m -> its negative neighbour: that one's positive edge, back */
        c[d] = (int)((x + n - 1) % n);
        ns_topology_route_machines(t, ns_topology_machine_at(t, c), m, route);
        uint64_t g = (n - 1) / 2;
        edge[route[0] ^ 1] = q * (wrap ? g * (g + 1) / 2 : x * (n - x));
      }
      c[d] = keep;
    }
  }
  double hops = 0;
  for (int e = 0; e < ns_topology_n_edges(t); e++)
    hops += (double)edge[e];
  paths->min = 0; /* grid neighbours cross no routing machine */
  paths->max = longest - 1;
  double pairs = (double)p * (p - 1); /* integers, exact below 2^53: the mean of a pair walk */
  paths->mean = (hops - pairs) / pairs;
}

/* Destination-based routing (shortest, ecmp, dmodk; smodk reversed): the
 * routes towards each machine d form a tree (ns_topology_next_hops); the
 * load of the edge leaving node v towards d is the number of machines in
 * v's subtree — accumulated leaves first, as Brandes accumulates
 * dependencies on shortest-path trees. O(|M|·|V|) time, O(|V|) memory
 * besides the loads. */
void ns_next_hop_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  int n = ns_topology_n_nodes(t), p = ns_topology_n_machines(t), n_edges = ns_topology_n_edges(t);
  gboolean reversed = ns_topology_routing(t) == NS_ROUTING_SMODK;
  int *next = g_new(int, n), *first = g_new(int, n + 2), *child = g_new(int, n);
  int *order = g_new(int, n), *depth = g_new(int, n), *count = g_new(int, n);
  int *head_of = g_new(int, n_edges); /* the node each directed edge enters */
  gboolean *machine = g_new(gboolean, n);
  for (int e = 0; e < n_edges; e++)
    head_of[e] = ns_topology_edge_to(t, e);
  for (int v = 0; v < n; v++)
    machine[v] = ns_topology_node_machine(t, v) >= 0;
  double sum = 0;
  paths->min = G_MAXINT;
  paths->max = 0;
  for (int d = 0; d < p; d++) {
    ns_topology_next_hops(t, d, next);
    /* Children lists (CSR by parent) of the tree towards d: counted into
     * first[parent + 2], summed, then filled through first[parent + 1]. */
    memset(first, 0, sizeof(int) * (gsize)(n + 2));
    for (int v = 0; v < n; v++)
      if (next[v] >= 0)
        first[head_of[next[v]] + 2]++;
    for (int v = 2; v <= n; v++)
      first[v] += first[v - 1];
    for (int v = 0; v < n; v++)
      if (next[v] >= 0)
        child[first[head_of[next[v]] + 1]++] = v;
    /* Breadth-first from d over the children, then sizes leaves first. */
    int head = 0, tail = 0, root = ns_topology_machine_node(t, d);
    order[tail++] = root;
    depth[root] = 0;
    while (head < tail) {
      int v = order[head++];
      for (int k = first[v]; k < first[v + 1]; k++) {
        depth[child[k]] = depth[v] + 1;
        order[tail++] = child[k];
      }
    }
    for (int v = 0; v < n; v++)
      count[v] = 0;
    for (int i = tail - 1; i > 0; i--) { /* order[0] is d */
      int v = order[i];
      if (machine[v]) {
        count[v]++;
        paths->min = MIN(paths->min, depth[v] - 1);
        paths->max = MAX(paths->max, depth[v] - 1);
        sum += depth[v] - 1;
      }
      edge[reversed ? next[v] ^ 1 : next[v]] += (uint64_t)count[v];
      count[head_of[next[v]]] += count[v];
    }
  }
  paths->mean = sum / ((double)p * (p - 1));
  g_free(next);
  g_free(first);
  g_free(child);
  g_free(order);
  g_free(depth);
  g_free(count);
  g_free(head_of);
  g_free(machine);
}

/* Any routing: every ordered pair's route. O(|M|²·route length). */
void ns_pair_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  int p = ns_topology_n_machines(t);
  int *route = g_new(int, MAX(ns_topology_max_route_len(t), 1));
  double sum = 0;
  paths->min = G_MAXINT;
  paths->max = 0;
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      int len = ns_topology_route_machines(t, a, b, route);
      for (int k = 0; k < len; k++)
        edge[route[k]]++;
      paths->min = MIN(paths->min, len - 1);
      paths->max = MAX(paths->max, len - 1);
      sum += len - 1;
    }
  paths->mean = sum / ((double)p * (p - 1));
  g_free(route);
}

/**
 * \function ns_a2a_routed_loads
 * \brief All-to-all messages on every directed edge under the routing in use.
 *
 * Each ordered machine pair sends one message along its route; counted
 * without walking the pairs where the routing allows it: closed forms per
 * dimension for dimension-order, subtree sizes over the tree of routes
 * towards each machine for shortest, ecmp, d-mod-k and s-mod-k (in closed
 * form on k-ary n-trees of a power-of-two number of machines, level by
 * level on other levelled fat trees: lower_bound_fat.c), |M_u|·|M_v| per
 * tree link; explicit routes pair by pair.
 *
 * \param topo A finalized topology.
 * \param edge ns_topology_n_edges() counters, filled.
 * \param paths When not NULL, the routes' path lengths (not under tree
 *        routing).
 * \return FALSE (edge zeroed) when the work would exceed
 *         NS_ROUTED_LOAD_MAX_WORK (NS_UPDOWN_LOAD_MAX_WORK level by level).
 * \errors none.
 * \complexity O(|V|) on trees, O(|M|·dims) under dimension-order,
 *         O(|V|·arity + |M|·levels) on k-ary n-trees under d-mod-k and
 *         s-mod-k where the closed form holds, O(|M|·|V|) for other
 *         destination-based routings, O(|M|²·route length) for explicit
 *         routes.
 * \source issue 17 items 1-2 (the routed bound); docs/architecture.md.
 */
gboolean ns_a2a_routed_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths)
{
  NsRoutedPaths scratch;
  paths = paths != NULL ? paths : &scratch;
  *paths = (NsRoutedPaths){ .min = -1, .max = -1, .mean = NAN };
  memset(edge, 0, sizeof(uint64_t) * (gsize)ns_topology_n_edges(t));
  double p = ns_topology_n_machines(t), n = ns_topology_n_nodes(t);
  switch (ns_topology_routing(t)) {
  case NS_ROUTING_TREE:
    tree_loads(t, edge);
    return TRUE;
  case NS_ROUTING_DIMENSION_ORDER:
    grid_loads(t, edge, paths);
    paths->exact = TRUE;
    return TRUE;
  case NS_ROUTING_EXPLICIT:
    if (p * p * MAX(ns_topology_max_route_len(t), 1) > NS_ROUTED_LOAD_MAX_WORK)
      return FALSE;
    ns_pair_loads(t, edge, paths);
    paths->exact = TRUE;
    return TRUE;
  default:
    if (ns_fat_closed_loads(t, edge, paths)) {
      paths->exact = TRUE;
      return TRUE;
    }
    if (p * n <= NS_UPDOWN_LOAD_MAX_WORK && ns_updown_loads(t, edge, paths)) {
      paths->exact = TRUE;
      return TRUE;
    }
    if (p * n > NS_ROUTED_LOAD_MAX_WORK)
      return FALSE;
    ns_next_hop_loads(t, edge, paths);
    paths->exact = TRUE;
    return TRUE;
  }
}

/**
 * \function ns_lower_bound_from_loads
 * \brief The routed bound from counted loads and the cut bound.
 *
 * The busiest directed link (kind LINK, its messages, the number of links
 * as busy) when it exceeds the cut bound, else the cut bound itself.
 *
 * \param topo The topology the loads were counted on.
 * \param cut The cut bound of the same collective (ns_lower_bound()).
 * \param edge The loads of ns_a2a_routed_loads().
 * \param msize Bytes of a message.
 * \param out Filled with the bound.
 * \errors none.
 * \complexity O(|E|).
 * \source docs/architecture.md, "Two lower bounds".
 */
void ns_lower_bound_from_loads(const NsTopology *t, const NsLowerBound *cut,
                               const uint64_t *edge, uint64_t msize, NsLowerBound *out)
{
  *out = *cut;
  double bits = (double)msize * 8.0, best = 0;
  int best_edge = -1, ties = 0;
  for (int e = 0; e < ns_topology_n_edges(t); e++) {
    double s = (double)edge[e] * bits / ns_topology_link(t, ns_edge_link(e))->bandwidth;
    if (s > best * (1 + 1e-12)) {
      best = s;
      best_edge = e;
      ties = 1;
    } else if (best > 0 && fabs(s - best) <= best * 1e-12) {
      ties++;
    }
  }
  /* The routing reaches the cut bound: the cut names the bottleneck. */
  if (best_edge < 0 || best <= cut->seconds * (1 + 1e-12))
    return;
  const NsLink *l = ns_topology_link(t, ns_edge_link(best_edge));
  *out = (NsLowerBound){ .seconds = best, .kind = NS_BOUND_LINK, .machine = -1,
                         .edge = best_edge, .dim = -1, .node = -1, .n_links = 1,
                         .load = edge[best_edge], .bandwidth = l->bandwidth,
                         .n_bottlenecks = ties };
}

/**
 * \function ns_lower_bound_routed
 * \brief The transmission lower bound for the routing in use.
 *
 * For the all-to-all, the busiest directed link under the topology's own
 * routes when it exceeds the cut bound (ns_lower_bound()); the cut bound
 * for the other collectives, on trees, under dimension-order routing and
 * when the routed loads are too costly to count (NS_ROUTED_LOAD_MAX_WORK).
 *
 * \param topo A finalized topology.
 * \param c The collective.
 * \param msize Bytes of a chunk.
 * \param root The broadcast's root machine (ignored otherwise).
 * \param n_segments The broadcast's number of segments (ignored otherwise).
 * \param out Filled with the bound, its kind and what binds.
 * \errors none.
 * \complexity That of ns_lower_bound() plus ns_a2a_routed_loads():
 *         O(|M|·|V|) for destination-based routings, O(|M|²·route length)
 *         for explicit routes.
 * \source docs/architecture.md, "Two lower bounds"; issue 17 items 1-2.
 */
void ns_lower_bound_routed(const NsTopology *t, NsCollective c, uint64_t msize, int root,
                           uint32_t n_segments, NsLowerBound *out)
{
  NsLowerBound cut;
  ns_lower_bound(t, c, msize, root, n_segments, &cut);
  NsRoutingKind routing = ns_topology_routing(t);
  /* Only the all-to-all's messages are bound to their routes (a broadcast
   * or all-gather forwards through machines of its choosing); on a tree
   * the two bounds are one; on a direct network the machines relay. */
  if (c != NS_COLL_ALLTOALL || routing == NS_ROUTING_TREE ||
      routing == NS_ROUTING_DIMENSION_ORDER) {
    *out = cut;
    return;
  }
  uint64_t *edge = g_new(uint64_t, ns_topology_n_edges(t));
  if (ns_a2a_routed_loads(t, edge, NULL))
    ns_lower_bound_from_loads(t, &cut, edge, msize, out);
  else
    *out = cut;
  g_free(edge);
}
