/* netsched — AAPC bounds on trees (Faraj & Yuan §3, §4.1). See bounds.h. */
#include "analysis/bounds.h"
#include "analysis/stats.h"
#include "platforms/routing/tree.h"
#include <math.h>
#include <stdlib.h>

/* Breadth-first distances (in links) from node `src`; returns the machine
 * farthest away (lowest index on ties) and its distance in *dist_out. When
 * `stop_at_machine` is set, stops at the first other machine instead and
 * returns its distance. */
static int bfs_machines(const NsTopology *t, int src, gboolean stop_at_machine, int *dist_out,
                        int *dist, int *queue)
{
  int n = ns_topology_n_nodes(t);
  for (int v = 0; v < n; v++)
    dist[v] = -1;
  int head = 0, tail = 0, far = -1, far_d = -1;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    int v = queue[head++];
    int m = ns_topology_node_machine(t, v);
    if (m >= 0 && v != src) {
      if (stop_at_machine) {
        *dist_out = dist[v];
        return m;
      }
      if (dist[v] > far_d || (dist[v] == far_d && m < far)) {
        far = m;
        far_d = dist[v];
      }
    }
    const int *inc = ns_topology_incident(t, v);
    for (int k = 0; k < ns_topology_degree(t, v); k++) {
      int w = ns_topology_link_other(t, inc[k], v);
      if (dist[w] < 0) {
        dist[w] = dist[v] + 1;
        queue[tail++] = w;
      }
    }
  }
  *dist_out = far_d;
  return far;
}

/* Path statistics from routes, when the routed loads are too much work:
 * a reproducible sample of 2^22 pairs (every ordered pair up to 2048
 * machines). */
static void routed_paths(const NsTopology *t, NsA2ABound *out)
{
  int p = ns_topology_n_machines(t);
  int *route = g_new(int, ns_topology_max_route_len(t));
  uint64_t pairs = (uint64_t)p * (uint64_t)(p - 1);
  out->path_sampled = p > 2048;
  uint64_t samples = out->path_sampled ? ((uint64_t)1 << 22) : pairs, counted = 0;
  double sum = 0;
  out->path_min = G_MAXINT;
  out->path_max = 0;
  GRand *rng = g_rand_new_with_seed(1);
  for (uint64_t i = 0; i < samples; i++) {
    int a, b;
    if (out->path_sampled) {
      a = g_rand_int_range(rng, 0, p);
      b = g_rand_int_range(rng, 0, p - 1);
      b += b >= a;
    } else {
      a = (int)(i / (uint64_t)(p - 1));
      b = (int)(i % (uint64_t)(p - 1));
      b += b >= a;
    }
    int len = ns_topology_route_machines(t, a, b, route) - 1;
    out->path_min = MIN(out->path_min, len);
    out->path_max = MAX(out->path_max, len);
    sum += len;
    counted++;
  }
  g_rand_free(rng);
  out->path_mean = counted ? sum / (double)counted : 0;
  g_free(route);
}

static int compare_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The routed loads: the bound for the routing in use, their distribution
 * and (off trees) the path lengths. FALSE past NS_ROUTED_LOAD_MAX_WORK. */
static gboolean routed_figures(const NsTopology *t, uint64_t msize, NsA2ABound *out)
{
  int n_edges = ns_topology_n_edges(t);
  uint64_t *edge = g_new(uint64_t, n_edges);
  NsRoutedPaths paths;
  gboolean ok = ns_a2a_routed_loads(t, edge, &paths);
  if (ok) {
    NsRoutingKind routing = ns_topology_routing(t);
    if (routing != NS_ROUTING_TREE && routing != NS_ROUTING_DIMENSION_ORDER)
      ns_lower_bound_from_loads(t, &out->cut, edge, msize, &out->bound);
    double *sorted = g_new(double, n_edges), sum = 0;
    for (int e = 0; e < n_edges; e++) {
      sorted[e] = (double)edge[e];
      sum += sorted[e];
    }
    qsort(sorted, (size_t)n_edges, sizeof(double), compare_double);
    out->routed_computed = TRUE;
    out->routed_max = sorted[n_edges - 1];
    out->routed_mean = sum / n_edges;
    out->routed_p50 = ns_quantile_sorted(sorted, (gsize)n_edges, 0.5);
    out->routed_p90 = ns_quantile_sorted(sorted, (gsize)n_edges, 0.9);
    out->routed_p99 = ns_quantile_sorted(sorted, (gsize)n_edges, 0.99);
    g_free(sorted);
    if (paths.exact) {
      out->path_min = paths.min;
      out->path_max = paths.max;
      out->path_mean = paths.mean;
    }
  }
  g_free(edge);
  return ok;
}

/**
 * \function ns_a2a_bound
 * \brief The all-to-all bounds of a topology: both bounds, routed loads, path lengths.
 *
 * \param topo A finalized topology.
 * \param msize Bytes of a message.
 * \param out Filled.
 * \errors none.
 * \complexity O(|V| + |M|·depth) on a tree; O(|M|·dims) on rings, meshes and tori; O(|M|·|V|)
 *        elsewhere; past NS_ROUTED_LOAD_MAX_WORK the routed figures are skipped and path lengths
 *        come from 2^22 seeded random pairs.
 * \source Faraj and Yuan §3 (Lemma 1); docs/architecture.md, "Two lower bounds".
 */
void ns_a2a_bound(const NsTopology *t, uint64_t msize, NsA2ABound *out)
{
  int p = ns_topology_n_machines(t);
  *out = (NsA2ABound){ .root = -1, .bottleneck_link = -1 };
  ns_lower_bound(t, NS_COLL_ALLTOALL, msize, -1, 1, &out->cut);
  out->bound = out->cut;
  gboolean routed = routed_figures(t, msize, out);
  out->load = out->bound.load;
  out->time_bound = out->bound.seconds;
  out->n_bottlenecks = out->bound.kind == NS_BOUND_LINK ? out->bound.n_bottlenecks : 0;
  if (out->bound.kind == NS_BOUND_LINK)
    out->bottleneck_link = ns_edge_link(out->bound.edge);
  double total_bits = (double)p * (p - 1) * (double)msize * 8.0;
  out->throughput_bound = out->time_bound > 0 ? total_bits / out->time_bound : 0;
  if (ns_topology_routing(t) != NS_ROUTING_TREE) {
    if (!routed)
      routed_paths(t, out);
    return;
  }
  if (out->bottleneck_link >= 0) {
    const NsLink *bl = ns_topology_link(t, out->bottleneck_link);
    int child = ns_tree_parent(t, bl->a) == bl->b ? bl->a : bl->b;
    int below = ns_tree_machines_below(t, child);
    out->m_u = MAX(below, p - below);
    out->m_v = MIN(below, p - below);
  }
  out->root = ns_a2a_find_root(t);
  /* Mean path length: every ordered pair crosses (switches + 1) links; the
   * AAPC load of a link is |M_u|·|M_v| each way. */
  uint64_t *loads = g_new(uint64_t, ns_topology_n_links(t));
  ns_a2a_link_loads(t, loads);
  double sum_edges = 0;
  for (int i = 0; i < ns_topology_n_links(t); i++)
    sum_edges += 2.0 * (double)loads[i];
  g_free(loads);
  out->path_mean = sum_edges / ((double)p * (p - 1)) - 1.0;
  int n = ns_topology_n_nodes(t);
  int *dist = g_new(int, n), *queue = g_new(int, n);
  int d;
  /* Farthest machines of a tree: a double sweep finds the pair. */
  int a = bfs_machines(t, ns_topology_machine_node(t, 0), FALSE, &d, dist, queue);
  bfs_machines(t, ns_topology_machine_node(t, a), FALSE, &d, dist, queue);
  out->path_max = d - 1;
  out->path_min = G_MAXINT;
  for (int m = 0; m < p && out->path_min > 1; m++) {
    bfs_machines(t, ns_topology_machine_node(t, m), TRUE, &d, dist, queue);
    out->path_min = MIN(out->path_min, d - 1);
  }
  g_free(dist);
  g_free(queue);
}
