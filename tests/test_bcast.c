/* bcast planners (issue #4): Algorithms 4 and 5 of the dissertation
 * (§3.4.2), the k-ary extension, the topology-unaware trees, the pipeline
 * phase construction and the Table 3.7 bounds.
 *
 * What is asserted:
 *  - hand-computed examples: Algorithm 4's order and Algorithm 5's tree on
 *    the Figure 1 cluster and on a 3-switch chain (root at the end and in
 *    the middle), the pipeline's exact phases for two small trees;
 *  - the O(1) contention test of bcast_dfs_internal.h equals routing the edges of
 *    actual trees, and binary-cf equals a literal implementation of Figure
 *    3.28 (route-based line 17) on a few hundred small random trees;
 *  - on 1000 seeded random trees: Algorithm 4 and 5 trees (and kary-cf)
 *    have no two tree edges of different senders on one directed edge,
 *    binary trees are at least as high as the complete binary tree
 *    (⌈log2(P+1)⌉ − 1, the exact lower bound for any binary tree on P
 *    nodes) and kary-cf(2) = binary-cf, kary-cf(1) = linear-cf, kary-cf(3)
 *    is no higher than binary-cf; the pipelined schedules pass every check
 *    of the verifier;
 *  - every bcast planner on the bundled topologies and random trees, one
 *    and several segments, various roots: dataflow, completeness and
 *    1-port; contention-free for the cf trees and flat; phases <=
 *    (X + H − 1)·D, with the exact counts for linear, flat and binomial;
 *  - topology-unaware linear and binary are contended on interleaved
 *    numbering, linear-cf and binary-cf are not;
 *  - bounds: tree shapes, Table 3.7 estimates on a star by hand, errors.
 */
#include "analysis/bounds_bcast.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "sched/planners/bcast/bcast_dfs_internal.h"
#include "sched/planners/bcast/bcast_pipeline_internal.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <math.h>

static const char *const all_planners[] = { "linear-cf", "binary-cf", "kary-cf", "linear",
                                            "binary",    "binomial",  "flat",
                                            "scatter-allgather" };

/* ---- helpers ------------------------------------------------------------ */

static NsSchedule *plan(const NsTopology *t, const char *algo, uint64_t msize, uint64_t segment,
                        int root, int arity)
{
  NsPlanParams params = { .msize = msize, .root = root, .segment = segment, .arity = arity };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, NS_COLL_BCAST, algo, &params, &error);
  if (error != NULL)
    g_error("%s: bcast/%s: %s", ns_topology_source(t), algo, error->message);
  g_assert_nonnull(s);
  return s;
}

/* parent[] of a single-tree schedule (newly allocated). */
static int *tree_of(const NsSchedule *s)
{
  int *parent = g_new(int, s->n_machines);
  GError *error = NULL;
  g_assert_true(ns_bcast_schedule_tree(s, parent, &error));
  g_assert_no_error(error);
  return parent;
}

/* An NsBcastTree from parent[] (children in machine order). */
static NsBcastTree *tree_from_parents(int n, int root, const int *parent)
{
  NsBcastTree *t = ns_bcast_tree_new(n, root);
  /* Breadth-first so parents are added before their children. */
  int *queue = g_new(int, n), head = 0, tail = 0;
  queue[tail++] = root;
  while (head < tail) {
    int v = queue[head++];
    for (int m = 0; m < n; m++)
      if (m != root && parent[m] == v) {
        g_assert_true(ns_bcast_tree_add(t, v, m));
        queue[tail++] = m;
      }
  }
  g_free(queue);
  GError *error = NULL;
  g_assert_true(ns_bcast_tree_finish(t, &error));
  g_assert_no_error(error);
  return t;
}

/* Height in edges of the tree given by parent[]. */
static int height_of(int n, int root, const int *parent)
{
  int h, d;
  g_assert_true(ns_bcast_tree_shape(n, root, parent, &h, &d, NULL));
  return h;
}

static int degree_of(int n, int root, const int *parent)
{
  int h, d;
  g_assert_true(ns_bcast_tree_shape(n, root, parent, &h, &d, NULL));
  return d;
}

/* Tree-level contention of §3.4.2 on the schedule's tree. */
static uint64_t tree_conflicts(const NsTopology *t, const NsSchedule *s)
{
  g_autofree int *parent = tree_of(s);
  g_autoptr(NsBcastTree) tree = tree_from_parents(s->n_machines, s->root, parent);
  return ns_bcast_tree_conflicts(t, tree, NULL);
}

static int min_binary_height(int nodes)
{
  return (int)ceil(log2((double)nodes + 1)) - 1;
}

/* Runs the verifier: dataflow, completeness and 1-port must pass (every
 * netsched bcast planner is 1-port); contention only when `contention_free`.
 * Returns the number of contention findings. */
static uint64_t check_schedule(const NsTopology *t, const NsSchedule *s,
                               gboolean contention_free)
{
  /* A pipeline takes (X+H-1)·D phases where the bandwidth bound allows
   * about X: optimality is informative here (and tested on its own). */
  NsVerifyReport r = ns_test_verify_correct(t, s, contention_free);
  g_assert_true(r.ran[NS_CHECK_PORT]);
  uint64_t required = (uint64_t)s->n_segments * (uint64_t)(s->n_machines - 1);
  g_assert_cmpuint(r.n_required, ==, required);
  g_assert_cmpuint(r.n_delivered, ==, required);
  g_assert_cmpuint(r.n_chunk_moves, ==, required); /* each segment once to each machine */
  uint64_t contention = r.failures[NS_CHECK_CONTENTION];
  ns_verify_report_clear(&r);
  return contention;
}

static NsTopology *load_topology(const char *relative)
{
  g_autofree char *path = ns_test_source(relative);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  g_assert_nonnull(t);
  return t;
}

static int machine(const NsTopology *t, const char *name)
{
  int m = ns_topology_find_machine(t, name);
  g_assert_cmpint(m, >=, 0);
  return m;
}

/* "n1<-n0 n2<-n1 ..." for every non-root machine in machine order. */
static char *parents_text(const NsTopology *t, const NsSchedule *s)
{
  g_autofree int *parent = tree_of(s);
  GString *out = g_string_new(NULL);
  for (int m = 0; m < s->n_machines; m++)
    if (m != s->root)
      g_string_append_printf(out, "%s%s<-%s", out->len ? " " : "",
                             ns_topology_machine_name(t, m),
                             ns_topology_machine_name(t, parent[m]));
  return g_string_free(out, FALSE);
}

/* Seeded random trees as in tests/test_faraj.c: every kind, mostly small,
 * every tenth up to `max_machines`. */
static NsTopology *random_tree(uint64_t seed, int max_machines)
{
  const NsRandomKind kinds[] = { NS_RANDOM_UNIFORM, NS_RANDOM_STAR, NS_RANDOM_CHAIN,
                                 NS_RANDOM_DEEP, NS_RANDOM_UNBALANCED };
  NsRandomKind kind = kinds[seed % G_N_ELEMENTS(kinds)];
  int machines = seed % 10 == 0 ? 2 + (int)(seed * 7919 % (guint64)(max_machines - 1))
                                : 2 + (int)(seed * 31 % (guint64)MIN(max_machines - 1, 47));
  int switches = 1 + (int)(seed * 104729 % (guint64)MAX(machines / 2, 1));
  GError *error = NULL;
  NsTopology *t = ns_shape_random(seed, machines, switches, kind, 100e6, 10e-6, &error);
  g_assert_no_error(error);
  return t;
}

/* ---- registry, parameters, segmentation --------------------------------- */

static void test_registry_and_params(void)
{
  for (gsize i = 0; i < G_N_ELEMENTS(all_planners); i++) {
    const NsPlanner *p = ns_planner_find(NS_COLL_BCAST, all_planners[i]);
    g_assert_nonnull(p);
    g_assert_cmpstr(p->name, ==, all_planners[i]);
    g_autofree char *underscored = g_strdelimit(g_strdup(all_planners[i]), "-", '_');
    g_assert_true(ns_planner_find(NS_COLL_BCAST, underscored) == p);
  }
  g_assert_null(ns_planner_find(NS_COLL_BCAST, "binary-c"));
  g_assert_null(ns_planner_find(NS_COLL_BCAST, "linear-cf-"));
  g_assert_null(ns_planner_find(NS_COLL_ALLTOALL, "linear-cf"));
  g_assert_nonnull(ns_planner_find(NS_COLL_ALLTOALL, "faraj"));

  g_autoptr(NsTopology) t = ns_shape_star(6, 100e6, 10e-6);
  GError *error = NULL;
  for (gsize i = 0; i < G_N_ELEMENTS(all_planners); i++) {
    NsPlanParams bad_root = { .msize = 1024, .root = 6 };
    g_assert_null(ns_plan(t, NS_COLL_BCAST, all_planners[i], &bad_root, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_nonnull(strstr(error->message, "root 6 is not a machine index (0..5)"));
    g_clear_error(&error);
    NsPlanParams empty = { .msize = 0 };
    g_assert_null(ns_plan(t, NS_COLL_BCAST, all_planners[i], &empty, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_clear_error(&error);
    NsPlanParams huge = { .msize = UINT64_C(1) << 40, .segment = 1 };
    g_assert_null(ns_plan(t, NS_COLL_BCAST, all_planners[i], &huge, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(error->message, "use a larger segment size"));
    g_clear_error(&error);
  }
  NsPlanParams neg = { .msize = 1024, .arity = -1 };
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "kary-cf", &neg, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);

  /* Segmentation: X = ceil(msize / segment), msize = segment size. */
  struct { uint64_t msize, segment, x, bytes; } cases[] = {
    { 10000, 3000, 4, 3000 }, { 10000, 0, 1, 10000 }, { 10000, 10000, 1, 10000 },
    { 10000, 20000, 1, 10000 }, { 65536, 8192, 8, 8192 }, { 1, 0, 1, 1 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsSchedule) s = plan(t, "linear-cf", cases[i].msize, cases[i].segment, 2, 0);
    g_assert_cmpuint(s->n_segments, ==, cases[i].x);
    g_assert_cmpuint(s->msize, ==, cases[i].bytes);
    g_assert_cmpint(s->root, ==, 2);
    g_assert_true(s->collective == NS_COLL_BCAST);
    g_assert_cmpstr(s->algorithm, ==, "linear-cf");
    check_schedule(t, s, TRUE);
  }
  /* scatter-allgather without a segment size: P blocks of ceil(msize/P). */
  g_autoptr(NsSchedule) sa = plan(t, "scatter-allgather", 65536, 0, 0, 0);
  g_assert_cmpuint(sa->n_segments, ==, 6);
  g_assert_cmpuint(sa->msize, ==, 10923);
  check_schedule(t, sa, TRUE);
}

/* ---- the pipeline -------------------------------------------------------- */

static void test_pipeline_exact(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(4, 100e6, 10e-6);
  /* n0 -> {n1, n2}, n1 -> n3; two segments. */
  g_autoptr(NsBcastTree) tree = ns_bcast_tree_new(4, 0);
  g_assert_true(ns_bcast_tree_add(tree, 0, 1));
  g_assert_true(ns_bcast_tree_add(tree, 0, 2));
  g_assert_false(ns_bcast_tree_add(tree, 3, 2)); /* 3 is not in the tree yet */
  g_assert_false(ns_bcast_tree_add(tree, 2, 1)); /* 1 already has a parent */
  g_assert_false(ns_bcast_tree_add(tree, 0, 0));
  g_assert_true(ns_bcast_tree_add(tree, 1, 3));
  g_assert_true(ns_bcast_tree_finish(tree, NULL));
  g_assert_cmpint(ns_bcast_tree_height(tree), ==, 2);
  g_assert_cmpint(ns_bcast_tree_degree(tree), ==, 2);
  g_autoptr(NsSchedule) s = ns_bcast_pipeline(t, tree, "test", 2, 512);
  const char *expected[] = { "n0->n1:0", "n0->n2:0 n1->n3:0", "n0->n1:1", "n0->n2:1 n1->n3:1" };
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, G_N_ELEMENTS(expected));
  for (guint p = 0; p < G_N_ELEMENTS(expected); p++) {
    g_autofree char *got = ns_schedule_phase_text(s, p, TRUE);
    g_assert_cmpstr(got, ==, expected[p]);
  }
  check_schedule(t, s, TRUE);

  /* A chain of 4 and 3 segments: segment s leaves machine i in phase s+i. */
  g_autoptr(NsBcastTree) chain = ns_bcast_tree_new(4, 0);
  for (int i = 1; i < 4; i++)
    g_assert_true(ns_bcast_tree_add(chain, i - 1, i));
  g_assert_true(ns_bcast_tree_finish(chain, NULL));
  g_autoptr(NsSchedule) c = ns_bcast_pipeline(t, chain, "test", 3, 512);
  const char *expected_chain[] = { "n0->n1:0", "n0->n1:1 n1->n2:0", "n0->n1:2 n1->n2:1 n2->n3:0",
                                   "n1->n2:2 n2->n3:1", "n2->n3:2" };
  g_assert_cmpuint(ns_schedule_n_phases(c), ==, G_N_ELEMENTS(expected_chain));
  for (guint p = 0; p < G_N_ELEMENTS(expected_chain); p++) {
    g_autofree char *got = ns_schedule_phase_text(c, p, TRUE);
    g_assert_cmpstr(got, ==, expected_chain[p]);
  }

  /* An unfinished tree is refused, naming the machine left out. */
  g_autoptr(NsBcastTree) partial = ns_bcast_tree_new(3, 1);
  g_assert_true(ns_bcast_tree_add(partial, 1, 0));
  GError *error = NULL;
  g_assert_false(ns_bcast_tree_finish(partial, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "machine 2 is not reached"));
  g_clear_error(&error);
}

/* ---- hand-computed trees ---------------------------------------------- */

/* Algorithm 4 on Figure 1 (faraj-fig1.topo: n0-n2 on s0, n3-n4 on s3, n5 on
 * s1; s0 and s3 hang from s1; s1's links in file order: n5, s0, s3). */
static void test_algorithm4_by_hand(void)
{
  g_autoptr(NsTopology) t = load_topology("scenarios/topologies/faraj-fig1.topo");
  struct { const char *root, *order; } cases[] = {
    { "n0", "n0 n1 n2 n5 n3 n4" }, /* s0, s1, s3 */
    { "n3", "n3 n4 n5 n0 n1 n2" }, /* s3, s1, s0 */
    { "n5", "n5 n0 n1 n2 n3 n4" }, /* s1, s0, s3 */
    { "n2", "n2 n0 n1 n5 n3 n4" }, /* the root first on its switch */
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    int root = machine(t, cases[i].root);
    g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(t, root, NULL);
    GString *order = g_string_new(NULL);
    for (int k = 0; k < d->n; k++)
      g_string_append_printf(order, "%s%s", k ? " " : "", ns_topology_machine_name(t, d->m[k]));
    g_assert_cmpstr(order->str, ==, cases[i].order);
    g_string_free(order, TRUE);
    /* The linear-cf schedule is that chain, pipelined: X + P - 2 phases. */
    g_autoptr(NsSchedule) s = plan(t, "linear-cf", 4 * 1024, 1024, root, 0);
    g_autofree int *parent = tree_of(s);
    for (int k = 1; k < d->n; k++)
      g_assert_cmpint(parent[d->m[k]], ==, d->m[k - 1]);
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, 4 + 6 - 2);
    check_schedule(t, s, TRUE);
  }
}

/* Algorithm 5 by hand (the DP of Figure 3.28 worked on paper):
 *
 * Figure 1, root n0: m = n0 n1 n2 | n5 | n3 n4. tree(0,5): k = 2 gives
 * max(0, best[2][5] = 2) + 1 = 3; k = 3 (n0 -> n5 over s0->s1 against
 * tree(1,2) = n1 -> n2, local to s0: no clash) gives max(best[1][2] = 1,
 * best[3][5] = 1) + 1 = 2 = ⌈log2 7⌉ − 1: k = 3. tree(3,5) = n5 -> n3,
 * n5 -> n4.
 *
 * chain:3,2 (s0 - s1 - s2, two machines each, n0 n1 | n2 n3 | n4 n5), root
 * n0: k = 3 (n0 -> n3 over s0->s1 against tree(1,2) = n1 -> n2 over s0->s1)
 * clashes, so do k = 4, 5; k = 2 gives height 3: n0 -> n1, n0 -> n2, then
 * tree(2,5) with k = 4: n2 -> n3, n2 -> n4, n4 -> n5.
 *
 * chain:3,2, root n2 (on the middle switch; DFS from s1 visits s2 first,
 * s1's first link being s2's): m = n2 n3 | n4 n5 | n0 n1. k = 2 gives
 * max(0, best[2][5] = 2) + 1 = 3; k = 3 (n2 -> n5 over s1->s2 against
 * tree(1,2) = n3 -> n4 over s1->s2) clashes; k = 4 (n2 -> n0 over s1->s0
 * against tree(1,3) = n3 -> n4, n3 -> n5 over s1->s2 only) is allowed and
 * gives max(best[1][3] = 1, best[4][5] = 1) + 1 = 2 = ⌈log2 7⌉ − 1: k = 4.
 * From the end of the chain the cluster needs height 3, from the middle
 * the complete binary tree's 2 is contention-free. */
static void test_algorithm5_by_hand(void)
{
  g_autoptr(NsTopology) fig1 = load_topology("scenarios/topologies/faraj-fig1.topo");
  g_autoptr(NsTopology) chain = ns_shape_chain(3, 2, 100e6, 10e-6);
  struct { const NsTopology *t; const char *root, *parents; int height; } cases[] = {
    { fig1, "n0", "n1<-n0 n2<-n1 n3<-n5 n4<-n5 n5<-n0", 2 },
    { chain, "n0", "n1<-n0 n2<-n0 n3<-n2 n4<-n2 n5<-n4", 3 },
    { chain, "n2", "n0<-n2 n1<-n0 n3<-n2 n4<-n3 n5<-n3", 2 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    int root = machine(cases[i].t, cases[i].root);
    g_autoptr(NsSchedule) s = plan(cases[i].t, "binary-cf", 8192, 1024, root, 0);
    g_autofree char *got = parents_text(cases[i].t, s);
    g_assert_cmpstr(got, ==, cases[i].parents);
    g_autofree int *parent = tree_of(s);
    g_assert_cmpint(height_of(s->n_machines, root, parent), ==, cases[i].height);
    g_assert_cmpuint(tree_conflicts(cases[i].t, s), ==, 0);
    check_schedule(cases[i].t, s, TRUE);
    /* kary-cf with arity 2 is Algorithm 5. */
    g_autoptr(NsSchedule) k2 = plan(cases[i].t, "kary-cf", 8192, 1024, root, 2);
    g_autofree char *got2 = parents_text(cases[i].t, k2);
    g_assert_cmpstr(got2, ==, cases[i].parents);
  }
  /* The topology-unaware binary tree on the chain from n0 clashes:
   * n0 -> n2 and n1 -> n3 both cross s0->s1 (the tree-level test). */
  g_autoptr(NsSchedule) b = plan(chain, "binary", 8192, 1024, 0, 0);
  g_assert_cmpuint(tree_conflicts(chain, b), >, 0);
}

/* ---- the O(1) contention test against routed trees --------------------- */

/* Does m_i -> m_k share a directed edge with one of the edges (u -> v,
 * positions) listed in `edges`? By routing. */
static gboolean routed_clash(const NsTopology *t, const NsBcastDfs *d, int i, int k,
                             const int *edges, int n_edges, int *route, uint8_t *mark)
{
  int len = ns_topology_route_machines(t, d->m[i], d->m[k], route);
  for (int r = 0; r < len; r++)
    mark[route[r]] = 1;
  gboolean clash = FALSE;
  for (int e = 0; e < n_edges && !clash; e++) {
    int l = ns_topology_route_machines(t, d->m[edges[2 * e]], d->m[edges[2 * e + 1]], route);
    for (int r = 0; r < l; r++)
      clash |= mark[route[r]];
  }
  len = ns_topology_route_machines(t, d->m[i], d->m[k], route);
  for (int r = 0; r < len; r++)
    mark[route[r]] = 0;
  return clash;
}

static void test_contention_predicate(void)
{
  int checked = 0;
  for (uint64_t seed = 1; seed <= 150; seed++) {
    g_autoptr(NsTopology) t = random_tree(seed, 40);
    int p = ns_topology_n_machines(t);
    int root = (int)(seed * 7 % (uint64_t)p);
    g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(t, root, NULL);
    g_assert_nonnull(d);
    int *route = g_new(int, ns_topology_max_route_len(t));
    uint8_t *mark = g_new0(uint8_t, ns_topology_n_edges(t));
    int *edges = g_new(int, 2 * (gsize)p);
    for (int i = 0; i < p; i++)
      for (int k = i + 2; k < p; k++) {
        /* Two very different forward trees over m_{i+1}..m_{k-1}: the
         * chain and the star from m_{i+1}. The test claims both clash
         * exactly when it says no. */
        int n = 0;
        for (int u = i + 1; u + 1 <= k - 1; u++, n++) {
          edges[2 * n] = u;
          edges[2 * n + 1] = u + 1;
        }
        gboolean chain = routed_clash(t, d, i, k, edges, n, route, mark);
        n = 0;
        for (int v = i + 2; v <= k - 1; v++, n++) {
          edges[2 * n] = i + 1;
          edges[2 * n + 1] = v;
        }
        gboolean star = routed_clash(t, d, i, k, edges, n, route, mark);
        gboolean ok = ns_bcast_dfs_can_send(d, i, k);
        if (ok == chain || ok == star)
          g_error("%s root %d: m_%d -> m_%d: predicate %d, chain clash %d, star clash %d",
                  ns_topology_source(t), root, i, k, ok, chain, star);
        checked++;
      }
    g_free(route);
    g_free(mark);
    g_free(edges);
  }
  g_assert_cmpint(checked, >, 10000);
}

/* ---- Figure 3.28, literally ------------------------------------------- */

/* Algorithm 5 as printed: tree[i][j] as explicit edge lists, line 17 by
 * routing every edge of tree[i+1][k-1]. O(P^4) and more; small P only.
 * Returns parent[] over machine indices (newly allocated). */
static int *literal_algorithm5(const NsTopology *t, int root)
{
  g_autoptr(NsBcastDfs) d = ns_bcast_dfs_new(t, root, NULL);
  int p = d->n;
  GArray **tree = g_new0(GArray *, (gsize)p * p); /* pairs of positions */
  int *best = g_new0(int, (gsize)p * p);
  int *route = g_new(int, ns_topology_max_route_len(t));
  uint8_t *mark = g_new0(uint8_t, ns_topology_n_edges(t));
#define TREE(i, j) tree[(gsize)(i) * p + (j)]
#define BEST(i, j) best[(gsize)(i) * p + (j)]
  for (int i = 0; i < p; i++) { /* lines 2-4 */
    TREE(i, i) = g_array_new(FALSE, FALSE, sizeof(int));
    BEST(i, i) = 0;
  }
  for (int i = 0; i + 1 < p; i++) { /* lines 5-8 */
    TREE(i, i + 1) = g_array_new(FALSE, FALSE, sizeof(int));
    int e[2] = { i, i + 1 };
    g_array_append_vals(TREE(i, i + 1), e, 2);
    BEST(i, i + 1) = 1;
  }
  for (int i = 0; i + 2 < p; i++) { /* lines 9-12 */
    TREE(i, i + 2) = g_array_new(FALSE, FALSE, sizeof(int));
    int e[4] = { i, i + 1, i, i + 2 };
    g_array_append_vals(TREE(i, i + 2), e, 4);
    BEST(i, i + 2) = 1;
  }
  for (int j = 3; j < p; j++) {     /* line 13 */
    for (int i = 0; i < p - j; i++) { /* line 14 */
      int b = G_MAXINT, index = -1;
      for (int k = i + 2; k <= i + j; k++) { /* line 16 */
        GArray *left = TREE(i + 1, k - 1);
        if (routed_clash(t, d, i, k, (const int *)(void *)left->data, (int)left->len / 2, route,
                         mark))
          continue; /* line 17 */
        int h = MAX(BEST(i + 1, k - 1), BEST(k, i + j)) + 1;
        if (b > h) { /* line 18 */
          b = h;
          index = k;
        }
      }
      g_assert_cmpint(index, >=, 0);
      GArray *tr = g_array_new(FALSE, FALSE, sizeof(int)); /* line 24 */
      g_array_append_vals(tr, TREE(i + 1, index - 1)->data, TREE(i + 1, index - 1)->len);
      g_array_append_vals(tr, TREE(index, i + j)->data, TREE(index, i + j)->len);
      int e[4] = { i, i + 1, i, index };
      g_array_append_vals(tr, e, 4);
      TREE(i, i + j) = tr;
      BEST(i, i + j) = b;
    }
  }
  int *parent = g_new(int, p);
  for (int m = 0; m < p; m++)
    parent[m] = -1;
  GArray *final = TREE(0, p - 1);
  for (guint e = 0; e < final->len; e += 2)
    parent[d->m[g_array_index(final, int, e + 1)]] = d->m[g_array_index(final, int, e)];
  for (gsize x = 0; x < (gsize)p * p; x++)
    if (tree[x] != NULL)
      g_array_unref(tree[x]);
#undef TREE
#undef BEST
  g_free(tree);
  g_free(best);
  g_free(route);
  g_free(mark);
  return parent;
}

static void test_literal_algorithm5(void)
{
  int compared = 0;
  for (uint64_t seed = 1; compared < 300; seed++) {
    g_autoptr(NsTopology) t = random_tree(seed, 30);
    int p = ns_topology_n_machines(t);
    int root = (int)(seed * 13 % (uint64_t)p);
    g_autofree int *want = literal_algorithm5(t, root);
    g_autoptr(NsSchedule) s = plan(t, "binary-cf", 1024, 0, root, 0);
    g_autofree int *got = tree_of(s);
    for (int m = 0; m < p; m++)
      if (got[m] != want[m])
        g_error("%s root %d: binary-cf gives machine %d parent %d, Figure 3.28 gives %d",
                ns_topology_source(t), root, m, got[m], want[m]);
    compared++;
  }
}

/* ---- 1000 random trees -------------------------------------------------- */

static void test_random_trees(void)
{
  int checked = 0;
  for (uint64_t seed = 1; checked < 1000; seed++) {
    g_autoptr(NsTopology) t = random_tree(seed, 100);
    int p = ns_topology_n_machines(t);
    int root = (int)(seed * 31 % (uint64_t)p);
    /* Three segments so every phase mixes machines at several depths. */
    g_autoptr(NsSchedule) lin = plan(t, "linear-cf", 3 * 1024, 1024, root, 0);
    g_autoptr(NsSchedule) bin = plan(t, "binary-cf", 3 * 1024, 1024, root, 0);
    g_autoptr(NsSchedule) k1 = plan(t, "kary-cf", 3 * 1024, 1024, root, 1);
    g_autoptr(NsSchedule) k2 = plan(t, "kary-cf", 3 * 1024, 1024, root, 2);
    g_autoptr(NsSchedule) k3 = plan(t, "kary-cf", 3 * 1024, 1024, root, 0);
    g_autofree int *pl = tree_of(lin), *pb = tree_of(bin), *p1 = tree_of(k1),
                   *p2 = tree_of(k2), *p3 = tree_of(k3);

    /* Theorems 4 and 5: no two tree edges of different senders share a
     * directed edge — directly on the trees and through the verifier. */
    g_assert_cmpuint(tree_conflicts(t, lin), ==, 0);
    g_assert_cmpuint(tree_conflicts(t, bin), ==, 0);
    g_assert_cmpuint(tree_conflicts(t, k3), ==, 0);
    check_schedule(t, lin, TRUE);
    check_schedule(t, bin, TRUE);
    check_schedule(t, k3, TRUE);

    g_assert_cmpint(degree_of(p, root, pl), ==, p > 1 ? 1 : 0);
    g_assert_cmpint(height_of(p, root, pl), ==, p - 1);
    int hb = height_of(p, root, pb), h3 = height_of(p, root, p3);
    g_assert_cmpint(degree_of(p, root, pb), <=, 2);
    g_assert_cmpint(hb, >=, min_binary_height(p));
    g_assert_cmpint(hb, <=, p - 1);
    g_assert_cmpint(degree_of(p, root, p3), <=, 3);
    g_assert_cmpint(h3, <=, hb); /* more children allowed, never higher */
    for (int m = 0; m < p; m++) {
      g_assert_cmpint(p2[m], ==, pb[m]); /* arity 2 is Algorithm 5 */
      g_assert_cmpint(p1[m], ==, pl[m]); /* arity 1 is Algorithm 4 */
    }
    checked++;
  }
}

/* Without switches to cross (one switch) nothing clashes and Algorithm 5
 * finds the complete binary tree's height. */
static void test_single_switch_height(void)
{
  for (int p = 2; p <= 70; p++) {
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 10e-6);
    g_autoptr(NsSchedule) s = plan(t, "binary-cf", 1024, 0, p / 3, 0);
    g_autofree int *parent = tree_of(s);
    g_assert_cmpint(height_of(p, p / 3, parent), ==, min_binary_height(p));
    /* One segment: 2 phases per level at most, (1 + H - 1)·2. */
    g_assert_cmpuint(ns_schedule_n_phases(s), <=, 2 * (guint64)min_binary_height(p));
  }
}

/* ---- every planner, bundled topologies and random trees ---------------- */

static gboolean is_cf(const char *algo)
{
  return g_str_has_suffix(algo, "-cf") || g_strcmp0(algo, "flat") == 0;
}

static void check_all_planners(const NsTopology *t)
{
  int p = ns_topology_n_machines(t);
  const int roots[] = { 0, p / 2, p - 1 };
  /* (msize, segment): one segment; 5 segments; an uneven last segment. */
  const uint64_t sizes[][2] = { { 65536, 0 }, { 5 * 4096, 4096 }, { 10000, 3000 } };
  for (gsize a = 0; a < G_N_ELEMENTS(all_planners); a++)
    for (gsize r = 0; r < G_N_ELEMENTS(roots); r++)
      for (gsize z = 0; z < G_N_ELEMENTS(sizes); z++) {
        const char *algo = all_planners[a];
        g_autoptr(NsSchedule) s = plan(t, algo, sizes[z][0], sizes[z][1], roots[r], 0);
        check_schedule(t, s, is_cf(algo));
        uint64_t x = s->n_segments, phases = ns_schedule_n_phases(s);
        if (g_strcmp0(algo, "scatter-allgather") == 0) {
          int lg = 0;
          while ((1 << lg) < p)
            lg++;
          g_assert_cmpuint(phases, <=, (uint64_t)lg + (uint64_t)p - 1);
          continue;
        }
        NsBcastBound b;
        GError *error = NULL;
        g_assert_true(ns_bcast_bound(t, s, &b, &error));
        g_assert_no_error(error);
        g_assert_true(b.is_tree);
        g_assert_cmpuint(phases, <=, b.pipeline_phases); /* (X + H - 1)·D */
        if (g_str_has_prefix(algo, "linear"))
          g_assert_cmpuint(phases, ==, x + (uint64_t)p - 2);
        if (g_strcmp0(algo, "flat") == 0)
          g_assert_cmpuint(phases, ==, x * (uint64_t)(p - 1));
        if (g_strcmp0(algo, "binomial") == 0 && x == 1)
          g_assert_cmpuint(phases, ==, (uint64_t)ceil(log2(p)));
      }
}

static void test_bundled_topologies(void)
{
  g_autofree char *dir_path = ns_test_source("scenarios/topologies");
  GError *error = NULL;
  GDir *dir = g_dir_open(dir_path, 0, &error);
  g_assert_no_error(error);
  int loaded = 0;
  const char *name;
  while ((name = g_dir_read_name(dir)) != NULL) {
    if (!g_str_has_suffix(name, ".topo"))
      continue;
    g_autofree char *rel = g_build_filename("scenarios/topologies", name, NULL);
    g_autoptr(NsTopology) t = load_topology(rel);
    check_all_planners(t);
    loaded++;
  }
  g_dir_close(dir);
  g_assert_cmpint(loaded, >=, 5);
}

static void test_random_all_planners(void)
{
  for (uint64_t seed = 2001; seed < 2101; seed++) {
    g_autoptr(NsTopology) t = random_tree(seed, 60);
    check_all_planners(t);
  }
  /* Two machines, the smallest cluster. */
  g_autoptr(NsTopology) two = ns_shape_star(2, 100e6, 10e-6);
  check_all_planners(two);
}

/* ---- contention of topology-unaware trees ------------------------------ */

static void test_interleaved_numbering(void)
{
  g_autoptr(NsTopology) t = load_topology("scenarios/topologies/bcast-interleaved.topo");
  for (int root = 0; root < 2; root++) {
    /* 8 segments: the pipeline keeps several machines sending at once. */
    g_autoptr(NsSchedule) lin = plan(t, "linear", 65536, 8192, root, 0);
    g_autoptr(NsSchedule) bin = plan(t, "binary", 65536, 8192, root, 0);
    g_autoptr(NsSchedule) lcf = plan(t, "linear-cf", 65536, 8192, root, 0);
    g_autoptr(NsSchedule) bcf = plan(t, "binary-cf", 65536, 8192, root, 0);
    g_assert_cmpuint(tree_conflicts(t, lin), >, 0);
    g_assert_cmpuint(tree_conflicts(t, bin), >, 0);
    g_assert_cmpuint(check_schedule(t, lin, FALSE), >, 0);
    g_assert_cmpuint(check_schedule(t, bin, FALSE), >, 0);
    g_assert_cmpuint(tree_conflicts(t, lcf), ==, 0);
    g_assert_cmpuint(tree_conflicts(t, bcf), ==, 0);
    g_assert_cmpuint(check_schedule(t, lcf, TRUE), ==, 0);
    g_assert_cmpuint(check_schedule(t, bcf, TRUE), ==, 0);
    /* Algorithm 4 crosses s0 -> s1 once: all of s0's machines, then s1's. */
    g_autofree int *parent = tree_of(lcf);
    int crossings = 0;
    for (int m = 0; m < 16; m++)
      crossings += m != root && parent[m] % 2 != m % 2;
    g_assert_cmpint(crossings, ==, 1);
  }
}

/* ---- bounds -------------------------------------------------------------- */

static void test_bounds(void)
{
  /* star:8 at 100 Mbit/s, 10 us a link: T(n) = 8n/1e8 + 20 us. */
  g_autoptr(NsTopology) t = ns_shape_star(8, 100e6, 10e-6);
#define T(n) ((n) * 8.0 / 100e6 + 20e-6)
  struct { const char *algo; uint64_t segment; int h, d; double estimate; const char *formula; } cases[] = {
    { "linear-cf", 8192, 7, 1, (8 + 7 - 1) * 1 * T(8192), "(X+H-1)*D*T(msize/X)" },
    { "linear", 0, 7, 1, 7 * T(65536), "(X+H-1)*D*T(msize/X)" },
    { "binary", 8192, 3, 2, (8 + 3 - 1) * 2 * T(8192), "(X+H-1)*D*T(msize/X)" },
    { "binary-cf", 8192, 3, 2, (8 + 3 - 1) * 2 * T(8192), "(X+H-1)*D*T(msize/X)" },
    { "flat", 0, 1, 7, 7 * T(65536), "(P-1)*T(msize)" },
    { "binomial", 0, 3, 3, 3 * T(65536), "ceil(log2 P)*T(msize)" },
    { "binomial", 8192, 3, 3, (8 + 3 - 1) * 3 * T(8192), "(X+H-1)*D*T(msize/X)" },
    { "scatter-allgather", 0, 0, 0, 2 * T(65536.0 * 7 / 8), "2*T((P-1)/P*msize)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsSchedule) s = plan(t, cases[i].algo, 65536, cases[i].segment, 0, 0);
    NsBcastBound b;
    GError *error = NULL;
    g_assert_true(ns_bcast_bound(t, s, &b, &error));
    g_assert_no_error(error);
    g_assert_cmpint(b.height, ==, cases[i].h);
    g_assert_cmpint(b.degree, ==, cases[i].d);
    g_assert_cmpstr(b.formula, ==, cases[i].formula);
    g_assert_cmpfloat_with_epsilon(b.estimate, cases[i].estimate, 1e-12);
    g_assert_cmpfloat_with_epsilon(b.lower_bound, T(65536), 1e-12);
    g_assert_cmpuint(b.msize, ==, 65536);
    g_assert_true(b.estimate >= b.lower_bound);
    g_assert_true(b.phased_time >= b.lower_bound);
  }
  g_assert_cmpfloat_with_epsilon(ns_bcast_transfer_time(t, 0, 5, 1000), T(1000), 1e-15);
  g_assert_cmpfloat(ns_bcast_transfer_time(t, 3, 3, 1000), ==, 0);
#undef T

  /* Scatter-allgather is not one tree. */
  g_autoptr(NsSchedule) sa = plan(t, "scatter-allgather", 65536, 0, 0, 0);
  int parent[8];
  GError *error = NULL;
  g_assert_false(ns_bcast_schedule_tree(sa, parent, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_clear_error(&error);

  /* Tree shapes from parent arrays, and what is not a tree. */
  int h, d;
  const int binary7[] = { -1, 0, 0, 1, 1, 2, 2 };
  g_assert_true(ns_bcast_tree_shape(7, 0, binary7, &h, &d, NULL));
  g_assert_cmpint(h, ==, 2);
  g_assert_cmpint(d, ==, 2);
  const int cycle[] = { -1, 2, 3, 1 };
  g_assert_false(ns_bcast_tree_shape(4, 0, cycle, &h, &d, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  const int two_roots[] = { -1, -1, 0 };
  g_assert_false(ns_bcast_tree_shape(3, 0, two_roots, &h, &d, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  const int lone[] = { -1 };
  g_assert_true(ns_bcast_tree_shape(1, 0, lone, &h, &d, NULL));
  g_assert_cmpint(h, ==, 0);
  g_assert_cmpint(d, ==, 0);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/bcast/registry-and-params", test_registry_and_params);
  g_test_add_func("/bcast/pipeline-exact", test_pipeline_exact);
  g_test_add_func("/bcast/algorithm4-by-hand", test_algorithm4_by_hand);
  g_test_add_func("/bcast/algorithm5-by-hand", test_algorithm5_by_hand);
  g_test_add_func("/bcast/contention-predicate", test_contention_predicate);
  g_test_add_func("/bcast/figure-3.28-literal", test_literal_algorithm5);
  g_test_add_func("/bcast/random-trees-1000", test_random_trees);
  g_test_add_func("/bcast/single-switch-height", test_single_switch_height);
  g_test_add_func("/bcast/bundled-topologies", test_bundled_topologies);
  g_test_add_func("/bcast/random-all-planners", test_random_all_planners);
  g_test_add_func("/bcast/interleaved-numbering", test_interleaved_numbering);
  g_test_add_func("/bcast/bounds", test_bounds);
  return g_test_run();
}
