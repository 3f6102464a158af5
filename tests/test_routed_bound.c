/* The all-to-all bound for the routing in use (issue 17 items 1 and 2,
 * issue 18 item 8): the routed link loads of ns_a2a_routed_loads — closed
 * forms on rings, meshes and tori, next-hop trees on graphs and fat trees —
 * against a plain loop over every machine pair's route; the bound and its
 * bottleneck on a leaf/spine under `shortest` and `ecmp` and on the sweep's
 * Waxman graph; ECMP's spreading; large rings and tori completing; k-ary
 * n-trees in closed form, up to 16,384 machines. */
#include "analysis/bounds.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "platforms/routing/updown.h"
#include "sched/bound/lower_bound.h"
#include "sched/bound/routed_loads_internal.h"
#include "tests/testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static NsTopology *gen(const char *spec)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(spec, &error);
  g_assert_no_error(error);
  return t;
}

/* Brute force: every ordered pair's route, one message each. */
static void pair_loads(const NsTopology *t, uint64_t *edge, int *min, int *max, double *mean)
{
  int p = ns_topology_n_machines(t);
  int *route = g_new(int, ns_topology_max_route_len(t) + 1);
  memset(edge, 0, sizeof(uint64_t) * (gsize)ns_topology_n_edges(t));
  double sum = 0;
  *min = G_MAXINT;
  *max = 0;
  for (int a = 0; a < p; a++)
    for (int b = 0; b < p; b++) {
      if (a == b)
        continue;
      int len = ns_topology_route_machines(t, a, b, route);
      for (int k = 0; k < len; k++)
        edge[route[k]]++;
      *min = MIN(*min, len - 1);
      *max = MAX(*max, len - 1);
      sum += len - 1;
    }
  *mean = sum / ((double)p * (p - 1));
  g_free(route);
}

static void assert_loads_match(const NsTopology *t, const char *what)
{
  int n_edges = ns_topology_n_edges(t), min, max;
  double mean;
  uint64_t *want = g_new(uint64_t, n_edges), *got = g_new(uint64_t, n_edges);
  pair_loads(t, want, &min, &max, &mean);
  NsRoutedPaths paths;
  g_assert_true(ns_a2a_routed_loads(t, got, &paths));
  for (int e = 0; e < n_edges; e++)
    if (got[e] != want[e]) {
      g_autofree char *name = ns_topology_edge_name(t, e);
      g_error("%s: edge %s carries %" G_GUINT64_FORMAT " routed messages, computed %" G_GUINT64_FORMAT,
              what, name, want[e], got[e]);
    }
  if (ns_topology_routing(t) != NS_ROUTING_TREE) {
    g_assert_true(paths.exact);
    g_assert_cmpint(paths.min, ==, min);
    g_assert_cmpint(paths.max, ==, max);
    g_assert_cmpfloat_with_epsilon(paths.mean, mean, 1e-9 * MAX(1, mean));
  }
  /* ns_a2a_bound reports the same path lengths, and the bound for the
   * routing in use is never below the cut bound. */
  NsA2ABound b;
  ns_a2a_bound(t, 1000, &b);
  g_assert_cmpint(b.path_min, ==, min);
  g_assert_cmpint(b.path_max, ==, max);
  g_assert_cmpfloat_with_epsilon(b.path_mean, mean, 1e-9 * MAX(1, mean));
  g_assert_false(b.path_sampled);
  g_assert_true(b.routed_computed);
  g_assert_cmpfloat(b.bound.seconds, >=, b.cut.seconds);
  uint64_t top = 0;
  for (int e = 0; e < n_edges; e++)
    top = MAX(top, want[e]);
  g_assert_cmpfloat(b.routed_max, ==, (double)top);
  g_free(want);
  g_free(got);
}

/* Closed forms on rings, meshes and tori: sizes odd and even (ties at
 * N/2 going the positive way), rings of 2 (two cables), dimensions of 1. */
static void test_grid_closed_forms(void)
{
  const char *specs[] = {
    "ring:2", "ring:3", "ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "ring:9", "ring:16",
    "mesh:2", "mesh:5", "mesh:1x6", "mesh:6x1", "mesh:3x4", "mesh:4x4", "mesh:2x3x4",
    "torus:2x2", "torus:2x3", "torus:3x3", "torus:4x4", "torus:3x5", "torus:6x2", "torus:4x5",
    "torus:2x3x4", "torus:3x3x3", "torus:1x7", "torus:5x1x2", "hypercube:1", "hypercube:3",
    "hypercube:4", "torus:4x4:bandwidth=1Gbps",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    assert_loads_match(t, specs[i]);
  }
}

/* Next-hop trees: shortest and ecmp on graphs, d-mod-k and s-mod-k on fat
 * trees, trees and explicit routes, against the pairs' routes. */
static void test_next_hop_trees(void)
{
  const char *specs[] = {
    "fattree:2,3", "fattree:4,2", "fattree:3,3", "fattree:2,1", "leafspine:3,2,4",
    "leafspine:4,3,5", "leafspine:2,1,1", "waxman:7,12", "waxman:1,50,4", "tree:2,3",
    "chain:3,2", "star:4",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    assert_loads_match(t, specs[i]);
    if (ns_topology_routing(t) == NS_ROUTING_DMODK) {
      g_autoptr(NsTopology) s = ns_test_with_routing(t, "smodk");
      g_assert_cmpint(ns_topology_routing(s), ==, NS_ROUTING_SMODK);
      assert_loads_match(s, specs[i]);
    }
    if (ns_topology_routing(t) == NS_ROUTING_ECMP) {
      g_autoptr(NsTopology) s = ns_test_with_routing(t, "shortest");
      assert_loads_match(s, specs[i]);
    }
  }
  for (uint64_t seed = 1; seed <= 12; seed++) {
    g_autoptr(NsTopology) t = ns_test_random_graph(seed, 9, 7, 5);
    assert_loads_match(t, "random graph");
    if (ns_topology_routing(t) == NS_ROUTING_SHORTEST) {
      g_autoptr(NsTopology) e = ns_test_with_routing(t, "ecmp");
      assert_loads_match(e, "random graph, ecmp");
    }
  }
  g_autofree char *path = ns_test_data("fabrics/explicit-ring.topo");
  GError *error = NULL;
  g_autoptr(NsTopology) ring = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  assert_loads_match(ring, "explicit-ring.topo");
}

/* Issue 17 item 1: a leaf/spine of 128 machines (8 leaves of 16, 4 spines,
 * non-blocking up-links) under `shortest` sends every message between two
 * leaves over spine0. The cut bound names n0's port (127 messages); the
 * bound for the routing in use is leaf0->spine0's 16 x 112 = 1792
 * messages at 400 Mbit/s. Item 2: under ecmp each up-link carries
 * 16 x 112 / 4 = 448 and the ports bind again. */
static void test_leafspine(void)
{
  g_autoptr(NsTopology) ecmp = gen("leafspine:8,4,16");
  g_assert_cmpint(ns_topology_routing(ecmp), ==, NS_ROUTING_ECMP);
  g_assert_cmpint(ns_topology_n_machines(ecmp), ==, 128);
  g_autoptr(NsTopology) shortest = ns_test_with_routing(ecmp, "shortest");
  NsA2ABound b;
  ns_a2a_bound(shortest, 65536, &b);
  g_assert_cmpint(b.cut.kind, ==, NS_BOUND_PORT_SEND);
  g_assert_cmpuint(b.cut.load, ==, 127);
  g_assert_cmpint(b.bound.kind, ==, NS_BOUND_LINK);
  g_assert_cmpuint(b.bound.load, ==, 1792);
  g_assert_cmpuint(b.load, ==, 1792);
  g_autofree char *why = ns_lower_bound_describe(shortest, &b.bound);
  g_assert_cmpstr(why, ==, "leaf0->spine0: 1792 messages a link at 0.4 Gbit/s");
  g_assert_cmpint(b.n_bottlenecks, ==, 16); /* leaf -> spine0 and back, 8 leaves */
  g_assert_cmpfloat_with_epsilon(b.time_bound, 1792 * 65536 * 8 / 400e6, 1e-12);
  g_assert_cmpfloat(b.routed_max, ==, 1792);
  /* verify and design use the same bound. */
  NsLowerBound routed;
  ns_lower_bound_routed(shortest, NS_COLL_ALLTOALL, 65536, -1, 1, &routed);
  g_assert_cmpuint(routed.load, ==, 1792);
  ns_lower_bound_routed(shortest, NS_COLL_ALLGATHER, 65536, -1, 1, &routed);
  g_assert_cmpint(routed.kind, !=, NS_BOUND_LINK); /* all-gather: the cut bound */

  ns_a2a_bound(ecmp, 65536, &b);
  g_assert_cmpint(b.bound.kind, ==, NS_BOUND_PORT_SEND);
  g_assert_cmpuint(b.bound.load, ==, 127);
  g_assert_cmpfloat(b.routed_max, ==, 448);
  uint64_t *edge = g_new(uint64_t, ns_topology_n_edges(ecmp));
  g_assert_true(ns_a2a_routed_loads(ecmp, edge, NULL));
  for (int e = 0; e < ns_topology_n_edges(ecmp); e++) {
    const NsNode *from = ns_topology_node(ecmp, ns_topology_edge_from(ecmp, e));
    const NsNode *to = ns_topology_node(ecmp, ns_topology_edge_to(ecmp, e));
    if (from->kind == NS_NODE_SWITCH && to->kind == NS_NODE_SWITCH)
      g_assert_cmpuint(edge[e], ==, 448); /* every up- and down-link alike */
  }
  g_free(edge);
  /* Oversubscribed 2:1 (up-links at 200 Mbit/s): the up-links bind. */
  g_autoptr(NsTopology) over = gen("leafspine:8,4,16,2");
  ns_a2a_bound(over, 65536, &b);
  g_assert_cmpint(b.bound.kind, ==, NS_BOUND_BLOCK); /* the leaf: routed = cut */
  g_autofree char *leaf = ns_lower_bound_describe(over, &b.bound);
  g_assert_cmpstr(leaf, ==, "the 4 links leaving the block below leaf0: 448 messages a link at 0.2 Gbit/s");
  g_assert_cmpfloat_with_epsilon(b.time_bound, 448 * 65536 * 8 / 200e6, 1e-12);
}

/* The sweep's gen:waxman:1,50,4: the cut bound's 1464 messages a link,
 * the routed 1961 on s12->s39 (issue 17 item 1). */
static void test_waxman(void)
{
  g_autoptr(NsTopology) t = gen("waxman:1,50,4");
  NsA2ABound b;
  ns_a2a_bound(t, 65536, &b);
  g_assert_cmpuint(b.cut.load, ==, 1464);
  g_assert_cmpuint(b.load, ==, 1961);
  g_autofree char *why = ns_lower_bound_describe(t, &b.bound);
  g_assert_cmpstr(why, ==, "s12->s39: 1961 messages a link at 0.1 Gbit/s");
}

/* Generator errors. */
static void test_leafspine_errors(void)
{
  const char *bad[][2] = {
    { "leafspine:1,2,3", "leafspine:1,2,3: expected LEAVES,SPINES,MACHINES_PER_LEAF" },
    { "leafspine:2,0,3", "leafspine:2,0,3: expected" },
    { "leafspine:2,2", "leafspine:2,2: expected" },
    { "leafspine:2,2,2,0", "leafspine:2,2,2,0: expected" },
    { "leafspine:2,2,2,x", "leafspine:2,2,2,x: expected" },
    { "leafspine:2,2,2,2:uplink=1Gbps", "give the oversubscription or uplink=, not both" },
    { "leafspine:1000,1000,1000", "1002000 nodes and 2000000 links (at most 1,000,000 nodes" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *error = NULL;
    g_assert_null(ns_shape_from_spec(bad[i][0], &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    if (strstr(error->message, bad[i][1]) == NULL)
      g_error("%s: %s", bad[i][0], error->message);
    g_error_free(error);
  }
}

/* Issue 18 item 8: rings and tori of 10,000 machines took minutes
 * (every pair routed hop by hop); the closed forms make them O(P). No
 * time is asserted: a regression to the pair walk would time the test
 * out. The closed form on a ring of N: ⌊N/2⌋(⌊N/2⌋+1)/2 messages on
 * every positive link. */
static void test_large_grids(void)
{
  g_autoptr(NsTopology) ring = gen("ring:10000");
  NsA2ABound b;
  ns_a2a_bound(ring, 1, &b);
  g_assert_cmpfloat(b.routed_max, ==, 5000.0 * 5001 / 2);
  g_assert_cmpuint(b.load, ==, 12500000); /* Lemma 1: 10000^2 / 8 */
  g_assert_cmpint(b.path_max, ==, 4999);
  g_assert_false(b.path_sampled);
  g_autoptr(NsTopology) torus = gen("torus:100x100");
  ns_a2a_bound(torus, 1, &b);
  g_assert_cmpfloat(b.routed_max, ==, 100.0 * 50 * 51 / 2);
  g_assert_cmpint(b.path_max, ==, 99);
  g_autoptr(NsTopology) mesh = gen("mesh:1x10000");
  ns_a2a_bound(mesh, 1, &b);
  g_assert_cmpfloat(b.routed_max, ==, 5000.0 * 5000);
}

/* One method of ns_a2a_routed_loads (routed_loads_internal.h), taken
 * directly, against every pair's route; FALSE when it does not apply. */
static gboolean method_matches(const NsTopology *t, const char *what,
                               gboolean (*method)(const NsTopology *, uint64_t *, NsRoutedPaths *))
{
  int n_edges = ns_topology_n_edges(t), min, max;
  double mean;
  g_autofree uint64_t *want = g_new(uint64_t, n_edges), *got = g_new0(uint64_t, n_edges);
  NsRoutedPaths paths;
  if (!method(t, got, &paths))
    return FALSE;
  pair_loads(t, want, &min, &max, &mean);
  for (int e = 0; e < n_edges; e++)
    if (got[e] != want[e])
      g_error("%s: edge %d carries %" G_GUINT64_FORMAT ", computed %" G_GUINT64_FORMAT, what, e,
              want[e], got[e]);
  g_assert_cmpint(paths.min, ==, min);
  g_assert_cmpint(paths.max, ==, max);
  g_assert_cmpfloat_with_epsilon(paths.mean, mean, 1e-9 * MAX(1, mean));
  return TRUE;
}

/* k-ary n-trees under d-mod-k and s-mod-k, k = 2..6 and n = 2..4, and the
 * 4-ary quadrics: what ns_a2a_routed_loads takes (the closed form for k a
 * power of two, level by level for the others: lower_bound_fat.c), and
 * each of the two taken directly, against every pair's route. */
static void test_fat_trees(void)
{
  for (int k = 2; k <= 6; k++)
    for (int n = 2; n <= 4; n++) {
      g_autofree char *spec = g_strdup_printf("fattree:%d,%d", k, n);
      g_autoptr(NsTopology) t = gen(spec);
      g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_DMODK);
      g_autoptr(NsTopology) s = ns_test_with_routing(t, "smodk");
      const NsTopology *both[] = { t, s };
      for (int i = 0; i < 2; i++) {
        assert_loads_match(both[i], spec);
        g_assert_true(method_matches(both[i], spec, ns_updown_loads));
        g_assert_true(method_matches(both[i], spec, ns_fat_closed_loads) == ((k & (k - 1)) == 0));
      }
    }
  const char *more[] = { "fattree:2,1", "fattree:8,2", "fattree:2,7", "quadrics:2", "quadrics:3" };
  for (gsize i = 0; i < G_N_ELEMENTS(more); i++) {
    g_autoptr(NsTopology) t = gen(more[i]);
    assert_loads_match(t, more[i]);
  }
  g_autoptr(NsTopology) ecmp = gen("leafspine:3,2,4"); /* not d-mod-k: neither applies */
  g_assert_false(method_matches(ecmp, "leafspine", ns_updown_loads));
  g_assert_false(method_matches(ecmp, "leafspine", ns_fat_closed_loads));
}

/* A k-ary n-tree under d-mod-k, past NS_ROUTED_LOAD_MAX_WORK for the
 * next-hop trees, gets its routed loads. By hand (p = k^n machines): a
 * machine's own climb takes one up-link a level, each level's p up-links
 * one machine's each (d-mod-k spreads them), and the link at level l
 * carries p − k^l messages each way (the pairs that have not met by level
 * l). So the busiest are the machines' own links, p − 1, the port's load:
 * the bound for the routing in use is the cut bound. In all, n levels of p
 * links, both ways: 2p · (n·p − (k^n − 1)/(k − 1)) messages. Paths:
 * (k − 1)·k^(L−1) of a source's p − 1 destinations meet it at level L,
 * crossing 2L − 1 nodes: min 1, max 2n − 1, mean their weighted sum over
 * p − 1 (4-ary 7-tree: 202071 / 16383). */
static void assert_even_spread(const char *spec, uint64_t k, int n)
{
  g_autoptr(NsTopology) t = gen(spec);
  uint64_t p = 1;
  for (int l = 0; l < n; l++)
    p *= k;
  g_assert_cmpuint((uint64_t)ns_topology_n_machines(t), ==, p);
  NsA2ABound b;
  ns_a2a_bound(t, 1, &b);
  g_assert_true(b.routed_computed);
  g_assert_false(b.path_sampled);
  g_assert_cmpfloat(b.routed_max, ==, (double)(p - 1));
  g_assert_cmpfloat(b.bound.seconds, ==, b.cut.seconds);
  g_assert_cmpuint(b.load, ==, p - 1);
  double crossings = 0;
  for (uint64_t L = 1, kl = 1; L <= (uint64_t)n; L++, kl *= k)
    crossings += (double)((k - 1) * kl * (2 * L - 1));
  g_assert_cmpint(b.path_min, ==, 1);
  g_assert_cmpint(b.path_max, ==, 2 * n - 1);
  g_assert_cmpfloat_with_epsilon(b.path_mean, crossings / (double)(p - 1), 1e-12);
  int n_edges = ns_topology_n_edges(t);
  g_assert_cmpuint((uint64_t)n_edges, ==, 2 * (uint64_t)n * p);
  uint64_t *edge = g_new(uint64_t, n_edges);
  g_assert_true(ns_a2a_routed_loads(t, edge, NULL));
  NsUpDownLinks up;
  g_assert_true(ns_updown_links(t, &up));
  g_assert_cmpint(up.n_levels, ==, n + 1);
  uint64_t per_level[16] = { 0 }, sum = 0;
  g_assert_cmpint(n, <, 16);
  for (int e = 0; e < n_edges; e++) {
    sum += edge[e];
    int level = MIN(up.level[ns_topology_edge_from(t, e)], up.level[ns_topology_edge_to(t, e)]);
    if (per_level[level] == 0)
      per_level[level] = edge[e];
    g_assert_cmpuint(edge[e], ==, per_level[level]);
  }
  for (int l = 0, kl = 1; l < n; l++, kl *= (int)k)
    g_assert_cmpuint(per_level[l], ==, p - (uint64_t)kl);
  g_assert_cmpuint(sum, ==, 2 * p * ((uint64_t)n * p - (p - 1) / (k - 1)));
  g_free(edge);
}

/* The 4-ary 7-tree (16,384 machines, 45,056 nodes), in closed form:
 * 16384 − 4^l a link at level l, paths 1..13 of mean 202071 / 16383. */
static void test_fattree_4_7(void)
{
  assert_even_spread("fattree:4,7", 4, 7);
}

/* The 3-ary 8-tree (6,561 machines × 24,057 nodes: past
 * NS_ROUTED_LOAD_MAX_WORK, within NS_UPDOWN_LOAD_MAX_WORK; 3 not a power of
 * two: no closed form) level by level: 6561 − 3^l a link at level l. */
static void test_fattree_3_8(void)
{
  g_autoptr(NsTopology) t = gen("fattree:3,8");
  double work = (double)ns_topology_n_machines(t) * ns_topology_n_nodes(t);
  g_assert_cmpfloat(work, >, NS_ROUTED_LOAD_MAX_WORK);
  g_assert_cmpfloat(work, <=, NS_UPDOWN_LOAD_MAX_WORK);
  assert_even_spread("fattree:3,8", 3, 8);
}

/* Past NS_UPDOWN_LOAD_MAX_WORK (a 3-ary 9-tree: 19,683 machines x 78,732
 * nodes, no closed form) the routed loads are skipped: the cut bound,
 * sampled path lengths, as before. */
static void test_past_the_limit(void)
{
  g_autoptr(NsTopology) t = gen("fattree:3,9");
  g_assert_cmpfloat((double)ns_topology_n_machines(t) * ns_topology_n_nodes(t), >,
                    NS_UPDOWN_LOAD_MAX_WORK);
  NsA2ABound b;
  ns_a2a_bound(t, 1, &b);
  g_assert_false(b.routed_computed);
  g_assert_true(b.path_sampled);
  g_assert_cmpfloat(b.bound.seconds, ==, b.cut.seconds);
  g_assert_cmpuint(b.load, ==, 19682);
  uint64_t *edge = g_new(uint64_t, ns_topology_n_edges(t));
  g_assert_false(ns_a2a_routed_loads(t, edge, NULL));
  g_free(edge);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/routed-bound/grid-closed-forms", test_grid_closed_forms);
  g_test_add_func("/routed-bound/next-hop-trees", test_next_hop_trees);
  g_test_add_func("/routed-bound/leafspine", test_leafspine);
  g_test_add_func("/routed-bound/waxman", test_waxman);
  g_test_add_func("/routed-bound/leafspine-errors", test_leafspine_errors);
  g_test_add_func("/routed-bound/large-grids", test_large_grids);
  g_test_add_func("/routed-bound/fat-trees", test_fat_trees);
  g_test_add_func("/routed-bound/fattree-4-7", test_fattree_4_7);
  g_test_add_func("/routed-bound/fattree-3-8", test_fattree_3_8);
  g_test_add_func("/routed-bound/past-the-limit", test_past_the_limit);
  return g_test_run();
}
