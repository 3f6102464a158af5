/* Fabrics beyond switch trees: routing rules on tori, meshes, hypercubes
 * and fat trees; the lower bound (Liu Gang et al.'s Lemma 1); shift on
 * d-mod-k fat trees; rate-weighted contention and Faraj-Yuan phases packed
 * for mixed link speeds (verified and simulated); spanning trees of random
 * graphs. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/routing/spanning.h"
#include "platforms/io/topology_digest.h"
#include "platforms/io/topology_io.h"
#include "sched/bound/lower_bound.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "sim/sim.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

static NsTopology *gen(const char *spec)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(spec, &error);
  g_assert_no_error(error);
  return t;
}

static NsSchedule *plan(const NsTopology *t, const char *algorithm, uint64_t msize)
{
  NsPlanParams params = { .msize = msize };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, algorithm, &params, &error);
  g_assert_no_error(error);
  return s;
}

/* Torus distance between coordinates a and b on a ring of n. */
static int ring_distance(int a, int b, int n)
{
  int d = abs(a - b);
  return MIN(d, n - d);
}

/* Dimension-order: every route is as long as the torus (or mesh) distance,
 * corrects dimension 0 first, and at distance N/2 goes the positive way. */
static void test_dimension_order(void)
{
  const char *specs[] = { "torus:8x8", "torus:6x4", "torus:4x4x4", "torus:5x3", "ring:8",
                          "ring:2", "mesh:4x3", "hypercube:4" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_DIMENSION_ORDER);
    int dims[NS_MAX_DIMS], n_dims;
    gboolean wrap;
    n_dims = ns_topology_grid(t, dims, &wrap);
    int p = ns_topology_n_machines(t);
    int *route = g_new(int, ns_topology_max_route_len(t));
    for (int a = 0; a < p; a++)
      for (int b = 0; b < p; b++) {
        if (a == b)
          continue;
        int ca[NS_MAX_DIMS], cb[NS_MAX_DIMS], want = 0;
        ns_topology_machine_coords(t, a, ca);
        ns_topology_machine_coords(t, b, cb);
        for (int d = 0; d < n_dims; d++)
          want += wrap ? ring_distance(ca[d], cb[d], dims[d]) : abs(ca[d] - cb[d]);
        int len = ns_topology_route_machines(t, a, b, route);
        g_assert_cmpint(len, ==, want);
        /* The first hop moves along the first dimension that differs, the
         * positive way when the distance is exactly N/2. */
        int first = 0;
        while (ca[first] == cb[first])
          first++;
        int next = ns_topology_node_machine(t, ns_topology_edge_to(t, route[0]));
        int cn[NS_MAX_DIMS];
        ns_topology_machine_coords(t, next, cn);
        for (int d = 0; d < n_dims; d++)
          g_assert_cmpint(cn[d] == ca[d], ==, d != first);
        if (wrap && dims[first] % 2 == 0 &&
            ring_distance(ca[first], cb[first], dims[first]) == dims[first] / 2)
          g_assert_cmpint(cn[first], ==, (ca[first] + 1) % dims[first]);
      }
    g_free(route);
  }
  /* A ring of 2 has two cables: each direction takes its own. */
  g_autoptr(NsTopology) r2 = gen("ring:2");
  int there, back;
  g_assert_cmpint(ns_topology_route_machines(r2, 0, 1, &there), ==, 1);
  g_assert_cmpint(ns_topology_route_machines(r2, 1, 0, &back), ==, 1);
  g_assert_cmpint(ns_edge_link(there), !=, ns_edge_link(back));
}

/* The lower bound on rings and tori is Liu Gang et al.'s Lemma 1:
 * N_1·ΠN_i·m/8 message times for the largest (even) dimension N_1, that is
 * ⌈p²/8⌉ on a ring of p and r·c²/8 on an r×c torus with c ≥ r. */
static void test_lemma1(void)
{
  for (int p = 4; p <= 64; p += 2) {
    g_autofree char *spec = g_strdup_printf("ring:%d", p);
    g_autoptr(NsTopology) t = gen(spec);
    NsLowerBound b;
    ns_lower_bound(t, NS_COLL_ALLTOALL, 1000, -1, 1, &b);
    g_assert_cmpuint(b.load, ==, (uint64_t)(p * p + 7) / 8);
    if (p > 4) /* on 4 nodes the ports bind as much (⌈3/2⌉ = 2) and come first */
      g_assert_cmpint(b.kind, ==, NS_BOUND_BISECTION);
  }
  const int tori[][2] = { { 4, 4 }, { 4, 8 }, { 8, 12 }, { 16, 16 }, { 8, 4 } };
  for (gsize i = 0; i < G_N_ELEMENTS(tori); i++) {
    g_autofree char *spec = g_strdup_printf("torus:%dx%d", tori[i][0], tori[i][1]);
    g_autoptr(NsTopology) t = gen(spec);
    int r = MIN(tori[i][0], tori[i][1]), c = MAX(tori[i][0], tori[i][1]);
    NsLowerBound b;
    ns_lower_bound(t, NS_COLL_ALLTOALL, 1000, -1, 1, &b);
    g_assert_cmpuint(b.load, ==, (uint64_t)(r * c * c / 8));
  }
}

static NsVerifyReport verify(const NsTopology *t, const NsSchedule *s)
{
  return ns_test_verify(t, s);
}

/* d-mod-k on full k-ary n-trees: routes climb to the nearest common
 * ancestor level; every shift permutation is contention-free, so shift is
 * optimal (p−1 phases, the port bound); a permutation of two messages into
 * the same up-port is rejected. */
static void test_fat_tree_shift(void)
{
  const char *specs[] = { "fattree:4,2", "fattree:4,3", "fattree:2,4", "fattree:8,2",
                          "fattree:3,3" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_DMODK);
    g_autoptr(NsSchedule) s = plan(t, "shift", 4096);
    NsVerifyReport r = verify(t, s);
    g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 0);
    g_assert_true(ns_verify_passed(&r, NS_REQUIRE_OPTIMAL | NS_REQUIRE_SHORTEST));
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)ns_topology_n_machines(t) - 1);
    ns_verify_report_clear(&r);
  }
  /* fattree:4,2: n0 and n1 share leaf switch L1s0; n4 and n8 are both
   * reached through its up-port 0 (4 mod 4 = 8 mod 4). */
  g_autoptr(NsTopology) t = gen("fattree:4,2");
  g_autoptr(NsSchedule) bad = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 4096);
  ns_schedule_begin_phase(bad);
  ns_schedule_add(bad, 0, 4, ns_a2a_chunk(16, 0, 4));
  ns_schedule_add(bad, 1, 8, ns_a2a_chunk(16, 1, 8));
  NsVerifyReport r = verify(t, bad);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 1);
  const NsFinding *f = &g_array_index(r.findings, NsFinding, 0);
  g_autofree char *edge = ns_topology_edge_name(t, f->edge);
  g_assert_cmpstr(edge, ==, "L1s0->L2s0");
  ns_verify_report_clear(&r);
  /* With n4 -> n9 instead the up-ports differ: contention-free. */
  g_autoptr(NsSchedule) good = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 4096);
  ns_schedule_begin_phase(good);
  ns_schedule_add(good, 0, 4, ns_a2a_chunk(16, 0, 4));
  ns_schedule_add(good, 1, 9, ns_a2a_chunk(16, 1, 9));
  r = verify(t, good);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 0);
  ns_verify_report_clear(&r);
}

/* Rates: a 10 Gbit/s uplink carries ten 1 Gbit/s transfers in a phase, not
 * eleven; the report names the edge. */
static void test_weighted_contention(void)
{
  g_autoptr(NsTopology) t = gen("chain:2,16:bandwidth=1Gbps:uplink=10Gbps");
  for (int n = 10; n <= 11; n++) {
    g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 4096);
    ns_schedule_begin_phase(s);
    for (int i = 0; i < n; i++)
      ns_schedule_add(s, i, 16 + i, ns_a2a_chunk(32, i, 16 + i));
    NsVerifyReport r = verify(t, s);
    g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, n == 11 ? 1 : 0);
    g_assert_cmpuint(r.max_edge_use, ==, (uint64_t)n);
    if (n == 11) {
      const NsFinding *f = &g_array_index(r.findings, NsFinding, 0);
      g_autofree char *d = ns_finding_describe(f, t, s);
      g_assert_nonnull(strstr(d, "carries 11 transfers"));
    }
    ns_verify_report_clear(&r);
  }
}

/* Faraj-Yuan on mixed speeds (the acceptance): 4×16 machines with
 * 1 Gbit/s machine links under 10 Gbit/s uplinks, and 2×32 in a chain with
 * a 10 Gbit/s trunk. The packed schedule is verified contention-free, its
 * transmission time and its simulated completion (ideal model) are within
 * 10 % of the bandwidth-weighted bound; with one link speed the schedule
 * is the paper's, unpacked. */
static void test_faraj_mixed_speeds(void)
{
  const char *specs[] = { "tree:4,16:bandwidth=1Gbps:uplink=10Gbps",
                          "chain:2,32:bandwidth=1Gbps:uplink=10Gbps" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    g_autoptr(NsSchedule) s = plan(t, "faraj", 1 << 20);
    NsVerifyReport r = verify(t, s);
    g_assert_true(ns_verify_passed(&r, 0));
    g_assert_cmpfloat(r.transmission_s, <=, 1.10 * r.bound_s);
    g_assert_cmpfloat(r.transmission_s, >=, r.bound_s);
    ns_verify_report_clear(&r);
    NsSimOptions opt;
    ns_sim_options_init(&opt);
    g_assert_true(ns_sync_scheme_parse("sender-all", &opt.sync, NULL));
    opt.sync_set = TRUE;
    NsSimResult sim;
    GError *error = NULL;
    g_assert_true(ns_simulate(t, s, &opt, &sim, &error));
    g_assert_no_error(error);
    g_test_message("%s: %u phases, simulated %.4f s, bound %.4f s, ratio %.4f", specs[i],
                   ns_schedule_n_phases(s), sim.completion, sim.bound, sim.ratio);
    g_assert_cmpfloat(sim.ratio, <, 1.10);
    ns_sim_result_clear(&sim);
    ns_sim_options_clear(&opt);
  }
  g_autoptr(NsTopology) uniform = gen("tree:4,16");
  g_autoptr(NsSchedule) s = plan(uniform, "faraj", 1024);
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 768); /* 16 × 48, unpacked */
}

/* The dissertation's random-topology study builds spanning trees of random
 * switch graphs (§3.3.3): on 500 random graphs × bfs, dfs, kruskal and
 * uniform trees, faraj is complete, contention-free and optimal for the
 * tree (phases = its bottleneck load), and a seed gives the same tree
 * every time. */
static void test_spanning_trees(void)
{
  const char *methods[] = { "bfs", "dfs", "kruskal", "uniform" };
  for (uint64_t seed = 1; seed <= 500; seed++) {
    int switches = 3 + (int)(seed % 9), machines = switches * 5 / 2 + (int)(seed % 7);
    g_autoptr(NsTopology) graph = ns_test_random_graph(seed, machines, switches, switches);
    for (gsize m = 0; m < G_N_ELEMENTS(methods); m++) {
      g_autofree char *text = g_strdup_printf("%s:%" G_GUINT64_FORMAT, methods[m], seed);
      NsSpanSpec spec;
      GError *error = NULL;
      g_assert_true(ns_span_spec_parse(text, &spec, &error));
      g_autoptr(NsTopology) tree = ns_topology_spanning_tree(graph, &spec, &error);
      g_assert_no_error(error);
      g_assert_cmpint(ns_topology_routing(tree), ==, NS_ROUTING_TREE);
      g_assert_cmpint(ns_topology_n_links(tree), ==, ns_topology_n_nodes(tree) - 1);
      g_assert_cmpint(ns_topology_n_machines(tree), ==, machines);
      g_autoptr(NsSchedule) s = plan(tree, "faraj", 1024);
      NsVerifyReport r = verify(tree, s);
      g_assert_true(ns_verify_passed(&r, NS_REQUIRE_OPTIMAL));
      ns_verify_report_clear(&r);
      if (seed % 50 == 0) { /* reproducible */
        g_autoptr(NsTopology) again = ns_topology_spanning_tree(graph, &spec, &error);
        g_autofree char *d1 = ns_topology_digest(tree), *d2 = ns_topology_digest(again);
        g_assert_cmpstr(d1, ==, d2);
      }
      ns_span_spec_clear(&spec);
    }
  }
}

/* A transfer's own route: on a ring of 4, n0->n2 and n1->n3 both at
 * distance 2 = N/2 go the positive way and share n1->n2; sending n1->n3
 * the negative way (n1, n0, n3) removes the contention — what Liu Gang et
 * al.'s ring exchange needs. The verifier honours the route, rejects a
 * broken one, and the simulator follows it. */
static void test_own_routes(void)
{
  g_autoptr(NsTopology) t = gen("ring:4");
  g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 65536);
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 0, 2, ns_a2a_chunk(4, 0, 2));
  ns_schedule_add(s, 1, 3, ns_a2a_chunk(4, 1, 3));
  NsVerifyReport r = verify(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 1);
  ns_verify_report_clear(&r);
  ns_schedule_set_route(s, 1, 3, (const char *const[]){ "n1", "n0", "n3" });
  r = verify(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_SHORTEST], ==, 0);
  ns_verify_report_clear(&r);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.allow_invalid = TRUE; /* two messages only: routing, not completeness, is tested */
  NsSimResult sim;
  GError *error = NULL;
  gboolean simulated = ns_simulate(t, s, &opt, &sim, &error);
  g_assert_no_error(error);
  g_assert_true(simulated);
  g_assert_cmpfloat(sim.completion, <, 1.01 * 65536 * 8 / 100e6 + 1e-3); /* no sharing */
  ns_sim_result_clear(&sim);
  ns_sim_options_clear(&opt);
  /* A route that skips a link is an input error. */
  g_autoptr(NsSchedule) bad = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 64);
  ns_schedule_begin_phase(bad);
  ns_schedule_add(bad, 1, 3, ns_a2a_chunk(4, 1, 3));
  ns_schedule_set_route(bad, 0, 2, (const char *const[]){ "n1", "n3" });
  NsVerifyReport rb = { 0 };
  g_assert_false(ns_verify(t, bad, NULL, &rb, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "which no link joins"));
  g_clear_error(&error);
  ns_verify_report_clear(&rb);
}

/* ---- formats ---------------------------------------------------------------- */

/* Every machine pair's route as node names, "n0 s0 s1 n4". */
static char *route_text(const NsTopology *t, int a, int b)
{
  g_autofree int *edges = g_new(int, (gsize)ns_topology_max_route_len(t) + 1);
  int n = ns_topology_route_machines(t, a, b, edges);
  GString *r = g_string_new(ns_topology_machine_name(t, a));
  for (int k = 0; k < n; k++)
    g_string_append_printf(r, " %s", ns_topology_node(t, ns_topology_edge_to(t, edges[k]))->name);
  return g_string_free(r, FALSE);
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Links as a sorted multiset of "a b bandwidth latency" with a < b. */
static char *links_text(const NsTopology *t)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
  for (int l = 0; l < ns_topology_n_links(t); l++) {
    const NsLink *k = ns_topology_link(t, l);
    const char *a = ns_topology_node(t, k->a)->name, *b = ns_topology_node(t, k->b)->name;
    if (strcmp(a, b) > 0) {
      const char *x = a;
      a = b;
      b = x;
    }
    g_ptr_array_add(items, g_strdup_printf("%s %s %.17g %.17g", a, b, k->bandwidth, k->latency));
  }
  g_ptr_array_sort(items, compare_strings);
  GString *out = g_string_new(NULL);
  for (guint i = 0; i < items->len; i++)
    g_string_append_printf(out, "%s\n", (char *)items->pdata[i]);
  return g_string_free(out, FALSE);
}

/* b describes the same fabric as a: machines in the same order, the same
 * links, routing, grid, port models and the same route for every pair. */
static void assert_same_fabric(const NsTopology *a, const NsTopology *b, const char *what)
{
  int p = ns_topology_n_machines(a);
  g_assert_cmpint(ns_topology_n_machines(b), ==, p);
  g_assert_cmpint(ns_topology_n_switches(b), ==, ns_topology_n_switches(a));
  g_assert_cmpint(ns_topology_routing(b), ==, ns_topology_routing(a));
  int sa[NS_MAX_DIMS], sb[NS_MAX_DIMS];
  gboolean wa, wb;
  int da = ns_topology_grid(a, sa, &wa), db = ns_topology_grid(b, sb, &wb);
  g_assert_cmpint(da, ==, db);
  for (int d = 0; d < da; d++)
    g_assert_cmpint(sa[d], ==, sb[d]);
  g_assert_true(da == 0 || wa == wb);
  g_autofree char *la = links_text(a), *lb = links_text(b);
  g_assert_cmpstr(la, ==, lb);
  for (int m = 0; m < p; m++) {
    g_assert_cmpstr(ns_topology_machine_name(b, m), ==, ns_topology_machine_name(a, m));
    g_assert_cmpint(ns_topology_machine_port_kind(b, m), ==, ns_topology_machine_port_kind(a, m));
    g_assert_cmpint(ns_topology_machine_ports(b, m), ==, ns_topology_machine_ports(a, m));
  }
  for (int x = 0; x < p; x++)
    for (int y = 0; y < p; y++) {
      if (x == y)
        continue;
      g_autofree char *ra = route_text(a, x, y), *rb = route_text(b, x, y);
      if (strcmp(ra, rb) != 0)
        g_error("%s: route %d->%d differs: '%s' written, '%s' read back", what, x, y, ra, rb);
    }
}

static NsTopology *reread(const NsTopology *t, gboolean graphml)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  GError *error = NULL;
  g_assert_true(graphml ? ns_topology_write_graphml(t, f, &error)
                        : ns_topology_write_native(t, f, &error));
  g_assert_no_error(error);
  fclose(f);
  NsTopology *again = graphml
                          ? ns_topology_parse_graphml("again.graphml", text, len, NULL, NULL, &error)
                          : ns_topology_parse_native("again.topo", text, len, NULL, NULL, &error);
  if (again == NULL)
    g_error("%s\n%s", error->message, text);
  free(text);
  return again;
}

/* The native format and GraphML state every fabric — link speeds, the
 * routing, grids, port models — and read back to the same routes; explicit
 * routes round-trip through the native format (GraphML refuses them). */
static void test_formats(void)
{
  const char *specs[] = {
    "torus:4x4", "torus:3x2", "mesh:3x5:ports=2", "ring:5", "hypercube:3", "fattree:4,2",
    "fattree:2,3", "star:5:ports=1", "chain:2,3:bandwidth=1Gbps:uplink=10Gbps",
    "waxman:7,12", "tree:2,3:latency=1us", "leafspine:3,2,4:uplink=1Gbps",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = gen(specs[i]);
    for (int graphml = 0; graphml < 2; graphml++) {
      g_autoptr(NsTopology) again = reread(t, graphml);
      assert_same_fabric(t, again, specs[i]);
    }
  }
  for (uint64_t seed = 1; seed <= 20; seed++) { /* shortest-path routing on random graphs */
    g_autoptr(NsTopology) t = ns_test_random_graph(seed, 10, 6, 4);
    for (int graphml = 0; graphml < 2; graphml++) {
      g_autoptr(NsTopology) again = reread(t, graphml);
      assert_same_fabric(t, again, "random graph");
    }
  }
  g_autofree char *path = ns_test_data("fabrics/explicit-ring.topo");
  GError *error = NULL;
  g_autoptr(NsTopology) ring = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_routing(ring), ==, NS_ROUTING_EXPLICIT);
  g_autofree char *long_way = route_text(ring, 0, 4);
  g_assert_cmpstr(long_way, ==, "n0 s0 s1 s2 n4");
  g_autofree char *short_way = route_text(ring, 1, 4); /* not listed: shortest */
  g_assert_cmpstr(short_way, ==, "n1 s0 s2 n4");
  g_autoptr(NsTopology) again = reread(ring, FALSE);
  assert_same_fabric(ring, again, "explicit-ring.topo");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  g_assert_false(ns_topology_write_graphml(ring, f, &error));
  fclose(f);
  free(text);
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_nonnull(strstr(error->message, "explicit routes have no GraphML form"));
  g_clear_error(&error);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/fabrics/dimension-order", test_dimension_order);
  g_test_add_func("/fabrics/lemma1", test_lemma1);
  g_test_add_func("/fabrics/fat-tree-shift", test_fat_tree_shift);
  g_test_add_func("/fabrics/weighted-contention", test_weighted_contention);
  g_test_add_func("/fabrics/faraj-mixed-speeds", test_faraj_mixed_speeds);
  g_test_add_func("/fabrics/spanning-trees", test_spanning_trees);
  g_test_add_func("/fabrics/own-routes", test_own_routes);
  g_test_add_func("/fabrics/formats", test_formats);
  return g_test_run();
}
