/* netsched — the verifier's first try on trees of one depth
 * (sched/verify/tree_links.c) against the general walk it stands in for
 * (NETSCHED_VERIFY_TREE_LINKS=off): on 400 seeded random cases — switch
 * trees of 1 to 4 levels with uneven fan-out (some with machines at
 * several depths, where the fast path must step aside), random phases
 * free of contention, some with 1 to 3 transfers more that share edges or
 * overflow ports, under every port model, phased and posted step by step,
 * inline and on the link thread — the two reports are the same: the
 * verdict and the counts of every check, each finding field by field and
 * in order, the transmission time bit for bit, the longest path and the
 * busiest edge. */
#include "platforms/gen/shapes.h"
#include "sched/ir/route.h"
#include "sched/planners/registry.h"
#include "sched/verify/tree_links_internal.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

#define N_CASES 400

/* A switch tree of `levels` levels of switches under the first switch
 * (tree routing's anchor), each switch with 1 to 4 children; machines
 * hang from the deepest switches (1 to 4 each), or, when `mixed`, also
 * from switches above them. Links of one speed unless `speeds`. */
static NsTopology *random_tree(GRand *rng, guint seed, int levels, gboolean mixed, gboolean speeds)
{
  g_autofree char *source = g_strdup_printf("test-tree(seed=%u)", seed);
  NsTopology *t = ns_topology_new(source);
  GError *error = NULL;
  GArray *level = g_array_new(FALSE, FALSE, sizeof(int)); /* the switches of the last level */
  int n_switches = 0, n_machines = 0;
  char name[32];
  g_snprintf(name, sizeof name, "s%d", n_switches++);
  int root = ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, &error);
  g_array_append_val(level, root);
  for (int l = 1; l < levels; l++) {
    GArray *next = g_array_new(FALSE, FALSE, sizeof(int));
    for (guint i = 0; i < level->len; i++) {
      int parent = g_array_index(level, int, i), kids = g_rand_int_range(rng, 1, 5);
      for (int k = 0; k < kids; k++) {
        g_snprintf(name, sizeof name, "s%d", n_switches++);
        int v = ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, &error);
        double bw = speeds && g_rand_int_range(rng, 0, 4) == 0 ? 50e6 : 100e6;
        g_assert_cmpint(ns_topology_add_link(t, parent, v, bw, 1e-6, 0, &error), >=, 0);
        g_array_append_val(next, v);
      }
      if (mixed && g_rand_int_range(rng, 0, 3) == 0) { /* a machine above the last level */
        g_snprintf(name, sizeof name, "n%d", n_machines++);
        int v = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, &error);
        g_assert_cmpint(ns_topology_add_link(t, parent, v, 100e6, 1e-6, 0, &error), >=, 0);
      }
    }
    g_array_unref(level);
    level = next;
  }
  for (guint i = 0; i < level->len; i++) {
    int parent = g_array_index(level, int, i), kids = g_rand_int_range(rng, 1, 5);
    for (int k = 0; k < kids || n_machines < 2; k++) {
      g_snprintf(name, sizeof name, "n%d", n_machines++);
      int v = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, &error);
      g_assert_cmpint(ns_topology_add_link(t, parent, v, 100e6, 1e-6, 0, &error), >=, 0);
    }
  }
  g_array_unref(level);
  g_assert_no_error(error);
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  return t;
}

/* Topology number i: mostly random trees, some uniform generated ones. */
static NsTopology *topology_for(guint i, GRand *rng)
{
  if (i % 8 == 7) {
    static const char *const specs[] = { "tree:5", "tree:3,4", "tree:2,3,2", "tree:2,2,2,3",
                                         "tree:4,1,3" };
    GError *error = NULL;
    NsTopology *t = ns_shape_from_spec(specs[(i / 8) % G_N_ELEMENTS(specs)], &error);
    g_assert_no_error(error);
    return t;
  }
  int levels = g_rand_int_range(rng, 1, 5);
  return random_tree(rng, i, levels, i % 8 == 3, i % 8 == 5);
}

/* Does transfer src -> dst cross an edge used in the phase (used[e])?
 * Marks its edges when not. */
static gboolean route_free(const NsTopology *t, int src, int dst, uint8_t *used, int *route)
{
  int a = ns_topology_machine_node(t, src), b = ns_topology_machine_node(t, dst);
  int len = ns_topology_route(t, a, b, route);
  for (int k = 0; k < len; k++)
    if (used[route[k]])
      return FALSE;
  for (int k = 0; k < len; k++)
    used[route[k]] = 1;
  return TRUE;
}

/* Random phases: most free of contention (transfers drawn at random, kept
 * when their route is free), some with 1 to 3 more drawn without looking
 * (shared edges, a machine sending or receiving twice), a few empty, a few
 * transfers of two chunks. */
static NsSchedule *random_schedule(const NsTopology *t, GRand *rng, uint64_t *shared_phases)
{
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "random", 1000);
  int p = s->n_machines, n_edges = ns_topology_n_edges(t);
  g_autofree uint8_t *used = g_new(uint8_t, n_edges);
  g_autofree int *route = g_new(int, ns_topology_max_route_len(t) + 1);
  int phases = g_rand_int_range(rng, 1, 40);
  for (int ph = 0; ph < phases; ph++) {
    ns_schedule_begin_phase(s);
    memset(used, 0, (gsize)n_edges);
    int tries = g_rand_int_range(rng, 0, 3 * p);
    for (int k = 0; k < tries; k++) {
      int a = g_rand_int_range(rng, 0, p), b = g_rand_int_range(rng, 0, p - 1);
      b += b >= a;
      if (!route_free(t, a, b, used, route))
        continue;
      if (g_rand_int_range(rng, 0, 10) == 0) {
        uint32_t two[2] = { ns_a2a_chunk(p, a, b), ns_a2a_chunk(p, a, a == 0 ? 1 : 0) };
        ns_schedule_add_chunks(s, a, b, 2, two);
      } else
        ns_schedule_add(s, a, b, ns_a2a_chunk(p, a, b));
    }
    if (g_rand_int_range(rng, 0, 3) == 0) {
      int extra = g_rand_int_range(rng, 1, 4);
      for (int k = 0; k < extra; k++) {
        int a = g_rand_int_range(rng, 0, p), b = g_rand_int_range(rng, 0, p - 1);
        b += b >= a;
        ns_schedule_add(s, a, b, ns_a2a_chunk(p, a, b));
      }
      (*shared_phases)++;
    }
  }
  if (g_rand_int_range(rng, 0, 5) == 0) { /* posted, checked step by step */
    s->execution = NS_EXEC_POSTED;
    s->sync_scheme = g_strdup(g_rand_boolean(rng) ? "window:1" : "window:2");
  }
  return s;
}

static void assert_same_reports(const NsVerifyReport *a, const NsVerifyReport *b)
{
  for (int c = 0; c < NS_N_CHECKS; c++) {
    g_assert_cmpint(a->ran[c], ==, b->ran[c]);
    g_assert_cmpuint(a->failures[c], ==, b->failures[c]);
  }
  g_assert_cmpuint(a->findings->len, ==, b->findings->len);
  for (guint k = 0; k < a->findings->len; k++) {
    const NsFinding *f = &g_array_index(a->findings, NsFinding, k);
    const NsFinding *g = &g_array_index(b->findings, NsFinding, k);
    g_assert_cmpint(f->kind, ==, g->kind);
    g_assert_cmpint(f->phase, ==, g->phase);
    g_assert_cmpint(f->step, ==, g->step);
    g_assert_cmpint(f->t1, ==, g->t1);
    g_assert_cmpint(f->t2, ==, g->t2);
    g_assert_cmpint(f->edge, ==, g->edge);
    g_assert_cmpuint(f->count, ==, g->count);
    g_assert_cmpint(f->machine, ==, g->machine);
    g_assert_cmpuint(f->chunk, ==, g->chunk);
    g_assert_cmpuint(f->value, ==, g->value);
    g_assert_cmpuint(f->bound, ==, g->bound);
  }
  g_assert_true(memcmp(&a->transmission_s, &b->transmission_s, sizeof(double)) == 0);
  g_assert_cmpuint(a->max_edge_use, ==, b->max_edge_use);
  g_assert_cmpint(a->max_path_len, ==, b->max_path_len);
  g_assert_cmpint(a->stepped, ==, b->stepped);
  g_assert_cmpuint(a->n_steps, ==, b->n_steps);
}

/* Whether the fast path takes this schedule on this topology (what
 * links_init asks, ports checked). */
static gboolean fast_path_taken(const NsTopology *t, const NsSchedule *s)
{
  GError *error = NULL;
  g_autofree int *node = ns_schedule_machine_nodes(t, s, &error);
  g_assert_no_error(error);
  NsRouteTable *table = ns_route_table_new(t);
  g_autofree int *ports = g_new(int, s->n_machines);
  for (int m = 0; m < s->n_machines; m++)
    ports[m] = 1;
  NsTreeLinks tl;
  ns_tree_links_init(&tl, table, node, s->n_machines, ns_topology_n_edges(t), ports);
  gboolean taken = tl.table != NULL;
  ns_tree_links_clear(&tl);
  ns_route_table_free(table);
  return taken;
}

static void test_fast_path_matches_walk(void)
{
  GRand *rng = g_rand_new_with_seed(31);
  uint64_t fast = 0, shared_phases = 0, edge_findings = 0, port_findings = 0, clean = 0;
  for (guint i = 0; i < N_CASES; i++) {
    g_autoptr(NsTopology) t = topology_for(i, rng);
    g_autoptr(NsSchedule) s = random_schedule(t, rng, &shared_phases);
    g_test_message("case %u: %s", i, ns_topology_source(t));
    fast += fast_path_taken(t, s);
    NsVerifyOptions opt;
    ns_verify_options_init(&opt);
    static const NsPortModel ports[] = { NS_PORT_TOPOLOGY, NS_PORT_ONE, NS_PORT_K, NS_PORT_ALL };
    opt.port = ports[i % G_N_ELEMENTS(ports)];
    opt.k = g_rand_int_range(rng, 1, 3);
    opt.max_findings = g_rand_boolean(rng) ? 3 : 20;
    /* inline, or on the link thread in small batches (every other one
     * checked by the calling thread) */
    gboolean threaded = g_rand_boolean(rng);
    g_setenv("NETSCHED_VERIFY_INLINE_TRANSFERS", threaded ? "0" : "1048576", TRUE);
    g_setenv("NETSCHED_VERIFY_BATCH_TRANSFERS", "5", TRUE);
    g_setenv("NETSCHED_VERIFY_SPLIT", "alternate", TRUE);
    NsVerifyReport with = { 0 }, without = { 0 };
    GError *error = NULL;
    g_assert_true(ns_verify(t, s, &opt, &with, &error));
    g_assert_no_error(error);
    g_setenv("NETSCHED_VERIFY_TREE_LINKS", "off", TRUE);
    g_assert_true(ns_verify(t, s, &opt, &without, &error));
    g_assert_no_error(error);
    g_unsetenv("NETSCHED_VERIFY_TREE_LINKS");
    assert_same_reports(&with, &without);
    edge_findings += with.failures[NS_CHECK_CONTENTION];
    port_findings += with.failures[NS_CHECK_PORT];
    clean += with.failures[NS_CHECK_CONTENTION] == 0 && with.failures[NS_CHECK_PORT] == 0;
    ns_verify_report_clear(&with);
    ns_verify_report_clear(&without);
  }
  g_unsetenv("NETSCHED_VERIFY_INLINE_TRANSFERS");
  g_unsetenv("NETSCHED_VERIFY_BATCH_TRANSFERS");
  g_unsetenv("NETSCHED_VERIFY_SPLIT");
  g_test_message("fast path %" G_GUINT64_FORMAT "/%d cases, %" G_GUINT64_FORMAT
                 " phases with shared edges, %" G_GUINT64_FORMAT " edge and %" G_GUINT64_FORMAT
                 " port findings, %" G_GUINT64_FORMAT " clean cases",
                 fast, N_CASES, shared_phases, edge_findings, port_findings, clean);
  /* the sweep covers both paths, contention, ports and clean schedules */
  g_assert_cmpuint(fast, >=, N_CASES / 2);
  g_assert_cmpuint(fast, <, N_CASES);
  g_assert_cmpuint(edge_findings, >, 0);
  g_assert_cmpuint(port_findings, >, 0);
  g_assert_cmpuint(clean, >, 0);
  g_rand_free(rng);
}

/* Where the fast path steps aside: machines at two depths, a tree deeper
 * than NS_TREE_LINKS_LEVELS, the switch (not a machine) of a schedule
 * that names one, a machine without ports, NETSCHED_VERIFY_TREE_LINKS=off. */
static void test_fast_path_bounds(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) uniform = ns_shape_from_spec("tree:2,3,2", &error);
  g_autoptr(NsTopology) deep = ns_shape_from_spec("tree:2,1,1,2,2", &error);
  g_assert_no_error(error);
  NsRouteTable *table = ns_route_table_new(uniform);
  int p = ns_topology_n_machines(uniform);
  g_autofree int *node = g_new(int, p);
  g_autofree int *ports = g_new(int, p);
  for (int m = 0; m < p; m++) {
    node[m] = ns_topology_machine_node(uniform, m);
    ports[m] = 1;
  }
  int n_edges = ns_topology_n_edges(uniform);
  NsTreeLinks tl;
  ns_tree_links_init(&tl, table, node, p, n_edges, ports);
  g_assert_nonnull(tl.table);
  g_assert_cmpint(tl.depth, ==, 3);
  ns_tree_links_clear(&tl);
  ns_tree_links_init(&tl, table, node, p, n_edges, NULL); /* ports not checked */
  g_assert_nonnull(tl.table);
  ns_tree_links_clear(&tl);
  ports[1] = 0;
  ns_tree_links_init(&tl, table, node, p, n_edges, ports);
  g_assert_null(tl.table);
  ports[1] = 1;
  int machine1 = node[1], anchor = 0;
  /* tree routing's anchor: the first switch */
  while (ns_topology_node_machine(uniform, anchor) >= 0)
    anchor++;
  node[1] = anchor;
  ns_tree_links_init(&tl, table, node, p, n_edges, ports);
  g_assert_null(tl.table);
  node[1] = node[0]; /* two machines on one node */
  ns_tree_links_init(&tl, table, node, p, n_edges, ports);
  g_assert_null(tl.table);
  node[1] = machine1;
  g_setenv("NETSCHED_VERIFY_TREE_LINKS", "off", TRUE);
  ns_tree_links_init(&tl, table, node, p, n_edges, ports);
  g_assert_null(tl.table);
  g_unsetenv("NETSCHED_VERIFY_TREE_LINKS");
  ns_route_table_free(table);

  table = ns_route_table_new(deep); /* 5 levels */
  p = ns_topology_n_machines(deep);
  g_autofree int *deep_node = g_new(int, p);
  for (int m = 0; m < p; m++)
    deep_node[m] = ns_topology_machine_node(deep, m);
  ns_tree_links_init(&tl, table, deep_node, p, ns_topology_n_edges(deep), NULL);
  g_assert_null(tl.table);
  ns_route_table_free(table);

  /* a tree with a machine one level up: the fast path steps aside */
  GRand *rng = g_rand_new_with_seed(7);
  gboolean declined = FALSE;
  for (guint seed = 0; seed < 50 && !declined; seed++) {
    g_autoptr(NsTopology) mixed = random_tree(rng, seed, 3, TRUE, FALSE);
    table = ns_route_table_new(mixed);
    p = ns_topology_n_machines(mixed);
    g_autofree int *mixed_node = g_new(int, p);
    gboolean two_depths = FALSE;
    for (int m = 0; m < p; m++) {
      mixed_node[m] = ns_topology_machine_node(mixed, m);
      two_depths |= ns_route_tree_row(table, mixed_node[m])[table->stride - 1] != table->width;
    }
    ns_tree_links_init(&tl, table, mixed_node, p, ns_topology_n_edges(mixed), NULL);
    g_assert_true((tl.table == NULL) == two_depths);
    declined = tl.table == NULL;
    ns_tree_links_clear(&tl);
    ns_route_table_free(table);
  }
  g_assert_true(declined);
  g_rand_free(rng);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify-tree-links/fast-path-matches-walk", test_fast_path_matches_walk);
  g_test_add_func("/verify-tree-links/bounds", test_fast_path_bounds);
  return g_test_run();
}
