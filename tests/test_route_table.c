/* netsched — the route table (sched/ir/route.h) and the verifier's link
 * check that walks it, against plain per-pair routing: on 240 seeded
 * random topologies (random and uniform switch trees, fat trees under
 * d-mod-k and s-mod-k, tori, random graphs) every route read from the
 * table is the topology's, edge for edge, and on a random schedule the verifier's contention and port
 * counts, busiest edge and longest path are those of a plain walk of each
 * transfer's ns_topology_route() — for a schedule held whole (the
 * router's table), streamed (the replay's own table) and with the link
 * checks on their own thread. */
#include "platforms/gen/shapes.h"
#include "sched/ir/route.h"
#include "sched/ir/route_table_internal.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

#define N_TOPOLOGIES 240

/* Topology number i of the sweep: its kind cycles, its shape and
 * seed come from i. */
static NsTopology *topology_for(guint i, GRand *rng)
{
  GError *error = NULL;
  NsTopology *t = NULL;
  switch (i % 6) {
  case 0: { /* random switch trees, from shallow to deep, tree routing */
    NsRandomKind kind = (NsRandomKind)((i / 6) % 5);
    t = ns_shape_random(i, g_rand_int_range(rng, 2, 40), g_rand_int_range(rng, 1, 12), kind,
                        100e6, 10e-6, &error);
    break;
  }
  case 1: { /* uniform trees of 1 to 3 levels */
    g_autofree char *spec = NULL;
    int levels = g_rand_int_range(rng, 1, 4);
    if (levels == 1)
      spec = g_strdup_printf("tree:%d", g_rand_int_range(rng, 2, 9));
    else if (levels == 2)
      spec = g_strdup_printf("tree:%d,%d", g_rand_int_range(rng, 1, 5), g_rand_int_range(rng, 2, 5));
    else
      spec = g_strdup_printf("tree:%d,%d,%d", g_rand_int_range(rng, 1, 4),
                             g_rand_int_range(rng, 1, 4), g_rand_int_range(rng, 2, 4));
    t = ns_shape_from_spec(spec, &error);
    break;
  }
  case 2: { /* k-ary n-trees, d-mod-k, and every other one s-mod-k */
    static const char *const specs[] = { "fattree:2,2", "fattree:2,3", "fattree:3,2",
                                         "fattree:4,2", "fattree:2,4",
                                         "fattree:3,3", "fattree:5,2" };
    t = ns_shape_from_spec(specs[(i / 6) % G_N_ELEMENTS(specs)], &error);
    g_assert_no_error(error);
    if ((i / 6) % 2) {
      NsTopology *s = ns_test_with_routing(t, "smodk");
      ns_topology_free(t);
      return s;
    }
    break;
  }
  case 3: { /* tori and meshes, dimension-order */
    g_autofree char *spec = g_strdup_printf("%s:%dx%d", (i / 6) % 2 ? "torus" : "mesh",
                                            g_rand_int_range(rng, 2, 6),
                                            g_rand_int_range(rng, 2, 6));
    t = ns_shape_from_spec(spec, &error);
    break;
  }
  case 4: /* random switch trees with machines anywhere (tree routing) */
    return ns_test_random_graph(i, g_rand_int_range(rng, 2, 30), g_rand_int_range(rng, 1, 10), 0);
  default: /* random graphs with cycles: shortest paths */
    return ns_test_random_graph(i, g_rand_int_range(rng, 2, 30), g_rand_int_range(rng, 2, 10),
                                g_rand_int_range(rng, 1, 6));
  }
  g_assert_no_error(error);
  g_assert_nonnull(t);
  return t;
}

static void test_routes_match(void)
{
  GRand *rng = g_rand_new_with_seed(24);
  guint tree_tables = 0, fat_tables[2] = { 0, 0 };
  for (guint i = 0; i < N_TOPOLOGIES; i++) {
    g_autoptr(NsTopology) t = topology_for(i, rng);
    g_autoptr(NsRouteTable) rt = ns_route_table_new(t);
    int cap = ns_topology_max_route_len(t) + 1;
    g_autofree int *want = g_new(int, cap);
    g_autofree int *got = g_new(int, cap);
    int n = ns_topology_n_machines(t);
    NsRoutingKind kind = ns_topology_routing(t);
    tree_tables += kind == NS_ROUTING_TREE;
    /* trees and fat trees are walked from the table's arrays, not routed */
    if (kind == NS_ROUTING_TREE || kind == NS_ROUTING_DMODK || kind == NS_ROUTING_SMODK)
      g_assert_true(ns_route_table_compact(rt));
    if (kind == NS_ROUTING_DMODK || kind == NS_ROUTING_SMODK)
      fat_tables[kind == NS_ROUTING_SMODK]++;
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++) {
        int va = ns_topology_machine_node(t, a), vb = ns_topology_machine_node(t, b);
        int len = ns_topology_route(t, va, vb, want);
        g_assert_cmpint(ns_route_table_route(rt, va, vb, got), ==, len);
        for (int k = 0; k < len; k++)
          g_assert_cmpint(got[k], ==, want[k]);
      }
  }
  g_assert_cmpuint(tree_tables, >=, N_TOPOLOGIES / 3); /* the table's own walk was tested */
  g_assert_cmpuint(fat_tables[0], >=, N_TOPOLOGIES / 15);
  g_assert_cmpuint(fat_tables[1], >=, N_TOPOLOGIES / 15);
  g_rand_free(rng);
}

/* The verifier's first try marks routes with ns_route_table_mark (a
 * fixed-length walk of tree rows or fat-tree climbs, levels above the
 * meeting level masked): on every pair of every topology of the sweep,
 * in a group of its own, it reports nothing marked and marks exactly the
 * route's edges (each reported by a second walk, none other), and the
 * next group starts with no edge marked. */
static void test_mark_matches_route(void)
{
  GRand *rng = g_rand_new_with_seed(24);
  for (guint i = 0; i < N_TOPOLOGIES; i++) {
    g_autoptr(NsTopology) t = topology_for(i, rng);
    g_autoptr(NsRouteTable) rt = ns_route_table_new(t);
    int cap = ns_topology_max_route_len(t) + 1, n = ns_topology_n_machines(t), len;
    int n_edges = ns_topology_n_edges(t);
    g_autofree int *want = g_new(int, cap);
    g_autofree int *scratch = g_new(int, cap);
    g_autofree gboolean *on_route = g_new(gboolean, n_edges);
    NsEdgeMarks marks;
    ns_edge_marks_init(&marks, n_edges);
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++) {
        int va = ns_topology_machine_node(t, a), vb = ns_topology_machine_node(t, b);
        int want_len = ns_topology_route(t, va, vb, want);
        ns_edge_marks_next_group(&marks);
        g_assert_cmpuint(ns_route_table_mark(rt, va, vb, &marks, scratch, &len), ==, 0);
        g_assert_cmpint(len, ==, want_len);
        memset(on_route, 0, sizeof(gboolean) * (gsize)n_edges);
        for (int k = 0; k < want_len; k++)
          on_route[want[k]] = TRUE;
        for (int e = 0; e < n_edges; e++) /* marked: reported when marked again */
          g_assert_cmpint(ns_edge_marks_set(&marks, e, 1) != 0, ==, on_route[e]);
      }
    ns_edge_marks_clear(&marks);
  }
  g_rand_free(rng);
}

/* The marks' tags wrap after 255 groups: a mark of the group before the
 * wrap is not one of the groups after it; a masked mark (the dummy's)
 * reports nothing. */
static void test_marks_wrap(void)
{
  NsEdgeMarks marks;
  ns_edge_marks_init(&marks, 200);
  marks.group = 253;
  for (int round = 0; round < 3; round++) { /* groups 254, 255, then 1 */
    ns_edge_marks_next_group(&marks);
    g_assert_cmpuint(ns_edge_marks_set(&marks, 130, 1), ==, 0);
    g_assert_cmpuint(ns_edge_marks_set(&marks, 130, 1), !=, 0);
    g_assert_cmpuint(ns_edge_marks_set(&marks, 131, 0), ==, 0); /* masked: nothing marked */
    g_assert_cmpuint(ns_edge_marks_set(&marks, 131, 0), ==, 0);
    g_assert_cmpuint(ns_edge_marks_set(&marks, 131, 1), ==, 0);
  }
  g_assert_cmpuint(marks.group, ==, 1);
  ns_edge_marks_clear(&marks);
}

/* What the link checks must find, by a plain walk: per phase, each
 * transfer's route from the topology; a transfer's rate is the smallest
 * bandwidth on its route and each one that takes an edge past its
 * bandwidth is a finding, as each send or receive past a machine's ports. */
typedef struct {
  uint64_t edge_findings, port_findings, max_use;
  int max_path;
} Expected;

static Expected walk(const NsTopology *t, const NsSchedule *s)
{
  Expected x = { 0 };
  int n_edges = ns_topology_n_edges(t), p = s->n_machines;
  g_autofree double *rate = g_new(double, n_edges);
  g_autofree uint64_t *uses = g_new(uint64_t, n_edges);
  g_autofree int *sends = g_new(int, p);
  g_autofree int *recvs = g_new(int, p);
  g_autofree int *route = g_new(int, ns_topology_max_route_len(t) + 1);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    NsPhase phase = ns_schedule_phase(s, ph);
    memset(rate, 0, sizeof(double) * (gsize)n_edges);
    memset(uses, 0, sizeof(uint64_t) * (gsize)n_edges);
    memset(sends, 0, sizeof(int) * (gsize)p);
    memset(recvs, 0, sizeof(int) * (gsize)p);
    for (uint64_t i = 0; i < phase.n; i++) {
      const NsTransfer *tr = &phase.transfers[i];
      int a = ns_topology_machine_node(t, tr->src), b = ns_topology_machine_node(t, tr->dst);
      int len = ns_topology_route(t, a, b, route);
      x.max_path = MAX(x.max_path, len - 1);
      double r = G_MAXDOUBLE;
      for (int k = 0; k < len; k++)
        r = MIN(r, ns_topology_link(t, ns_edge_link(route[k]))->bandwidth);
      for (int k = 0; k < len; k++) {
        double cap = ns_topology_link(t, ns_edge_link(route[k]))->bandwidth;
        rate[route[k]] += r;
        uint64_t u = ++uses[route[k]]; /* not inside MAX(): evaluated twice */
        x.max_use = MAX(x.max_use, u);
        x.edge_findings += rate[route[k]] > cap * (1 + 1e-9);
      }
      x.port_findings += ++sends[tr->src] > ns_topology_machine_ports(t, tr->src);
      x.port_findings += ++recvs[tr->dst] > ns_topology_machine_ports(t, tr->dst);
    }
  }
  return x;
}

/* A random all-to-all: random direct messages in random phases, some
 * phases sparse (mostly unshared: the first try's pass), some crowded. */
static NsSchedule *random_schedule(const NsTopology *t, GRand *rng)
{
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "random", 1024);
  int p = s->n_machines;
  int phases = g_rand_int_range(rng, 1, 12);
  for (int ph = 0; ph < phases; ph++) {
    ns_schedule_begin_phase(s);
    int n = g_rand_int_range(rng, 0, g_rand_boolean(rng) ? 3 : 3 * p);
    for (int k = 0; k < n; k++) {
      int a = g_rand_int_range(rng, 0, p), b = g_rand_int_range(rng, 0, p - 1);
      b += b >= a;
      ns_schedule_add(s, a, b, ns_a2a_chunk(p, a, b));
    }
  }
  return s;
}

static void assert_links(const NsVerifyReport *r, const Expected *x)
{
  g_assert_cmpuint(r->failures[NS_CHECK_CONTENTION], ==, x->edge_findings);
  g_assert_cmpuint(r->failures[NS_CHECK_PORT], ==, x->port_findings);
  g_assert_cmpuint(r->max_edge_use, ==, x->max_use);
  g_assert_cmpint(r->max_path_len, ==, x->max_path);
}

/* The same schedule through a session, phase by phase (streamed: the
 * replay routes through its own table). */
static void verify_streamed(const NsTopology *t, const NsSchedule *s, NsVerifyReport *r)
{
  GError *error = NULL;
  NsVerifySession *vs = ns_verify_begin(t, s, NULL, 0, &error);
  g_assert_no_error(error);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    NsPhase phase = ns_schedule_phase(s, ph);
    g_assert_true(ns_verify_phase(vs, phase.transfers, phase.n, phase.chunk_pool, &error));
  }
  g_assert_true(ns_verify_end(vs, NULL, r, &error));
  g_assert_no_error(error);
  ns_verify_session_free(vs);
}

static void test_link_check_matches_walk(void)
{
  GRand *rng = g_rand_new_with_seed(2024);
  for (guint i = 0; i < N_TOPOLOGIES; i++) {
    g_autoptr(NsTopology) t = topology_for(i, rng);
    g_autoptr(NsSchedule) s = random_schedule(t, rng);
    Expected x = walk(t, s);
    g_test_message("topology %u: %s", i, ns_topology_source(t));
    /* every third one with the link checks on their thread */
    g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", i % 3 == 0 ? "0" : "1048576", TRUE);
    NsVerifyReport whole = ns_test_verify(t, s);
    assert_links(&whole, &x);
    NsVerifyReport streamed = { 0 };
    verify_streamed(t, s, &streamed);
    assert_links(&streamed, &x);
    g_assert_cmpuint(streamed.findings->len, ==, whole.findings->len);
    for (guint k = 0; k < whole.findings->len; k++) {
      const NsFinding *f = &g_array_index(whole.findings, NsFinding, k);
      const NsFinding *g = &g_array_index(streamed.findings, NsFinding, k);
      g_assert_cmpint(f->kind, ==, g->kind);
      g_assert_cmpint(f->t1, ==, g->t1);
      g_assert_cmpint(f->t2, ==, g->t2);
      g_assert_cmpint(f->edge, ==, g->edge);
    }
    ns_verify_report_clear(&whole);
    ns_verify_report_clear(&streamed);
  }
  g_rand_free(rng);
}

/* A chain of 3,000 switches, a machine on each: rows for its 6,000 nodes
 * would need 6,000 · 3,000 ints, past the table's 64 MiB bound, so the
 * table routes through the topology — the same routes, in bounded memory. */
static void test_deep_chain(void)
{
  g_autoptr(NsTopology) t = ns_shape_chain(3000, 1, 100e6, 10e-6);
  g_assert_cmpint(ns_topology_routing(t), ==, NS_ROUTING_TREE);
  g_autoptr(NsRouteTable) rt = ns_route_table_new(t);
  g_assert_false(ns_route_table_compact(rt));
  int cap = ns_topology_max_route_len(t) + 1;
  g_autofree int *want = g_new(int, cap);
  g_autofree int *got = g_new(int, cap);
  static const int pairs[][2] = { { 0, 2999 }, { 2999, 0 }, { 1500, 1501 }, { 7, 2500 } };
  for (gsize i = 0; i < G_N_ELEMENTS(pairs); i++) {
    int a = ns_topology_machine_node(t, pairs[i][0]), b = ns_topology_machine_node(t, pairs[i][1]);
    int len = ns_topology_route(t, a, b, want);
    g_assert_cmpint(ns_route_table_route(rt, a, b, got), ==, len);
    g_assert_cmpmem(got, sizeof(int) * (gsize)len, want, sizeof(int) * (gsize)len);
  }
}

/* The fat-tree table's closed form (a power-of-two arity: the meeting
 * level by the highest differing bit, every level's edge read at once)
 * and its level-by-level climb (any other arity): on every pair of the
 * k-ary n-trees k = 2..6, n = 2..4, under d-mod-k and s-mod-k, the route
 * is the topology's edge for edge, and the marks report nothing, mark
 * every edge of it and give its length. */
static void test_fat_closed_form(void)
{
  for (int k = 2; k <= 6; k++)
    for (int levels = 2; levels <= 4; levels++)
      for (int by_source = 0; by_source <= 1; by_source++) {
        g_autofree char *spec = g_strdup_printf("fattree:%d,%d", k, levels);
        GError *error = NULL;
        g_autoptr(NsTopology) d = ns_shape_from_spec(spec, &error);
        g_assert_no_error(error);
        g_autoptr(NsTopology) t = by_source ? ns_test_with_routing(d, "smodk") : NULL;
        const NsTopology *topo = by_source ? t : d;
        g_autoptr(NsRouteTable) rt = ns_route_table_new(topo);
        g_assert_nonnull(rt->fat);
        g_assert_cmpint(rt->fat->closed, ==, (k & (k - 1)) == 0);
        int cap = ns_topology_max_route_len(topo) + 1, n = ns_topology_n_machines(topo), len;
        g_autofree int *want = g_new(int, cap);
        g_autofree int *got = g_new(int, cap);
        NsEdgeMarks marks;
        ns_edge_marks_init(&marks, ns_topology_n_edges(topo));
        for (int a = 0; a < n; a++)
          for (int b = 0; b < n; b++) {
            int va = ns_topology_machine_node(topo, a), vb = ns_topology_machine_node(topo, b);
            int want_len = ns_topology_route(topo, va, vb, want);
            g_assert_cmpint(ns_route_table_route(rt, va, vb, got), ==, want_len);
            for (int e = 0; e < want_len; e++)
              g_assert_cmpint(got[e], ==, want[e]);
            ns_edge_marks_next_group(&marks);
            g_assert_cmpuint(ns_route_table_mark(rt, va, vb, &marks, got, &len), ==, 0);
            g_assert_cmpint(len, ==, want_len);
            for (int e = 0; e < want_len; e++)
              g_assert_cmpuint(ns_edge_marks_set(&marks, want[e], 1), !=, 0);
          }
        ns_edge_marks_clear(&marks);
      }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/route-table/routes-match-topology", test_routes_match);
  g_test_add_func("/route-table/mark-matches-route", test_mark_matches_route);
  g_test_add_func("/route-table/marks-wrap", test_marks_wrap);
  g_test_add_func("/route-table/link-check-matches-walk", test_link_check_matches_walk);
  g_test_add_func("/route-table/deep-chain", test_deep_chain);
  g_test_add_func("/route-table/fat-closed-form", test_fat_closed_form);
  return g_test_run();
}
