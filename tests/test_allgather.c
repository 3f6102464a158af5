/* All-gather planners (issue #4): the logical rings of the dissertation
 * §3.3 (LR1, LR2, LR3) and the topology-unaware baselines, checked by the
 * verifier, against the paper's Figure 3.19 and against a brute-force
 * optimum on every small tree. */
#include "analysis/bounds_allgather.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "analysis/bounds.h"
#include "analysis/topology_summary_internal.h"
#include "platforms/io/topology_io.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

static const char *const all_algos[] = { "lr1",    "lr2",    "lr3",         "ring",
                                         "rdb",    "bruck",  "simple",      "2dmesh",
                                         "gather-bcast" };

static gboolean contention_free_algo(const char *a)
{
  return g_str_equal(a, "lr1") || g_str_equal(a, "lr2") || g_str_equal(a, "lr3");
}

static NsTopology *load(const char *relative)
{
  g_autofree char *path = ns_test_source(relative);
  GError *error = NULL;
  NsTopology *t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
  g_assert_no_error(error);
  return t;
}

static NsSchedule *plan(const NsTopology *t, const char *algo, GError **error)
{
  NsPlanParams params = { .msize = 4096, .root = 0 };
  return ns_plan(t, NS_COLL_ALLGATHER, algo, &params, error);
}


/* Plans `algo` and checks what every all-gather must satisfy, plus
 * contention-freedom and 1-port for the logical rings. Returns the
 * schedule's longest path (switches), or −1 when lr2 refused. */
static int check_algo(const NsTopology *t, const char *algo)
{
  GError *error = NULL;
  g_autoptr(NsSchedule) s = plan(t, algo, &error);
  if (s == NULL && g_str_equal(algo, "lr2")) {
    NsTwoHop th;
    g_assert_false(ns_allgather_two_hop(t, &th));
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(error->message, ns_topology_node(t, th.sw)->name));
    g_error_free(error);
    return -1;
  }
  g_assert_no_error(error);
  g_assert_nonnull(s);
  g_assert_cmpint(s->collective, ==, NS_COLL_ALLGATHER);
  g_assert_cmpstr(s->algorithm, ==, algo);
  int p = ns_topology_n_machines(t);
  NsVerifyReport r = ns_test_verify(t, s);
  if (r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE] > 0)
    g_error("%s on %s: dataflow %" G_GUINT64_FORMAT ", complete %" G_GUINT64_FORMAT, algo,
            ns_topology_source(t), r.failures[NS_CHECK_DATAFLOW],
            r.failures[NS_CHECK_COMPLETE]);
  g_assert_cmpuint(r.n_required, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(r.n_chunk_moves, ==, (uint64_t)p * (p - 1)); /* each block once */
  if (contention_free_algo(algo)) {
    g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 0);
    g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 0);
    g_assert_true(ns_verify_passed(&r, FALSE));
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)(p - 1));
  }
  if (!g_str_equal(algo, "simple") && !g_str_equal(algo, "gather-bcast"))
    g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 0); /* 1-port by construction */
  int path = r.max_path_len;
  ns_verify_report_clear(&r);
  return path;
}

/* ---- Figure 3.19 --------------------------------------------------------- */

static void test_fig3_19(void)
{
  g_autoptr(NsTopology) t = load("scenarios/topologies/faraj-fig3-19.topo");
  g_assert_cmpint(ns_topology_n_machines(t), ==, 8);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
  GError *error = NULL;
  g_assert_cmpint(ns_allgather_lr1_path(t), ==, 4);
  g_assert_cmpint(ns_allgather_lr2_path(t), ==, 2);
  g_assert_cmpint(ns_allgather_lr3_path(t, &error), ==, 2);
  g_assert_no_error(error);
  /* The schedules agree: the verifier's longest route. */
  g_assert_cmpint(check_algo(t, "lr1"), ==, 4);
  g_assert_cmpint(check_algo(t, "lr2"), ==, 2);
  g_assert_cmpint(check_algo(t, "lr3"), ==, 2);
  /* LR1's ring is n0 … n7 and its 4-switch hop is n7 -> n0 (the text). */
  int ring[8];
  ns_ring_lr1(t, ring);
  for (int i = 0; i < 8; i++)
    g_assert_cmpint(ring[i], ==, i);
  g_assert_cmpint(ns_path_length(t, 7, 0), ==, 4);
  /* LR2 follows Figure 3.18: n0 [n2 [n4 [n6 n7] n5] n3] n1. */
  const int lr2[8] = { 0, 2, 4, 6, 7, 5, 3, 1 };
  g_assert_true(ns_ring_lr2(t, ring, NULL));
  for (int i = 0; i < 8; i++)
    g_assert_cmpint(ring[i], ==, lr2[i]);

  /* Bounds: (P−1)·msize/B, plus (d−1)(P−1)·pkt/B on store-and-forward. */
  NsAllgatherBound b;
  g_assert_true(ns_allgather_bound(t, 65536, NS_DEFAULT_PACKET, &b, &error));
  g_assert_no_error(error);
  g_assert_true(b.two_hop.holds);
  g_assert_true(b.store_and_forward);
  g_assert_cmpfloat_with_epsilon(b.time_bound, 7 * 65536 * 8 / 100e6, 1e-12);
  g_assert_cmpfloat_with_epsilon(b.lr1_time, b.time_bound + 3 * 7 * 1500 * 8 / 100e6, 1e-12);
  g_assert_cmpfloat_with_epsilon(b.lr2_time, b.time_bound + 1 * 7 * 1500 * 8 / 100e6, 1e-12);
  g_assert_cmpfloat_with_epsilon(b.lr3_time, b.lr2_time, 1e-12);
}

/* ---- Theorem 3 ----------------------------------------------------------- */

static void test_lr2_refuses(void)
{
  /* Faraj–Yuan Figure 1: s1 has one machine (n5) and two switches. */
  g_autoptr(NsTopology) t = load("scenarios/topologies/faraj-fig1.topo");
  NsTwoHop th;
  g_assert_false(ns_allgather_two_hop(t, &th));
  g_assert_cmpstr(ns_topology_node(t, th.sw)->name, ==, "s1");
  g_assert_cmpint(th.machines, ==, 1);
  g_assert_cmpint(th.switches, ==, 2);
  GError *error = NULL;
  NsSchedule *s = plan(t, "lr2", &error);
  g_assert_null(s);
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "allgather/lr2 needs every switch to have at least as many directly attached "
                  "machines as directly attached switches (Theorem 3: no contention-free 2-hop "
                  "ring exists otherwise): switch s1 has 1 directly attached machine but 2 "
                  "directly attached switches; use lr3 (optimal ring) or lr1");
  g_error_free(error);
  g_assert_cmpint(ns_allgather_lr2_path(t), ==, -1);
  /* Necessity: no 2-hop ring exists, so the optimum is 3. */
  g_assert_cmpint(ns_allgather_lr3_path(t, NULL), ==, 3);
}

/* ---- every small tree: LR3 against brute force ------------------------- */

typedef struct {
  int p, n_edges, best, lower;
  int *len;        /* p×p path lengths */
  int **route;     /* p×p directed edge lists */
  int *n_route;
  gboolean *used;  /* per directed edge */
  int *ring;
  gboolean *taken;
} Brute;

static gboolean claim(Brute *b, int a, int c)
{
  int k = a * b->p + c;
  for (int e = 0; e < b->n_route[k]; e++)
    if (b->used[b->route[k][e]]) {
      for (int u = 0; u < e; u++)
        b->used[b->route[k][u]] = FALSE;
      return FALSE;
    }
  for (int e = 0; e < b->n_route[k]; e++)
    b->used[b->route[k][e]] = TRUE;
  return TRUE;
}

static void release(Brute *b, int a, int c)
{
  int k = a * b->p + c;
  for (int e = 0; e < b->n_route[k]; e++)
    b->used[b->route[k][e]] = FALSE;
}

/* Extends ring[0..pos−1] (hops so far contention-free, longest `cur`) by
 * every machine not yet taken; the ring closes at pos == p. Branches whose
 * longest hop already reaches the best ring found are cut (they cannot
 * improve it); the search stops at the lower bound. */
static void brute_extend(Brute *b, int pos, int cur)
{
  if (b->best <= b->lower)
    return;
  int last = b->ring[pos - 1];
  if (pos == b->p) {
    int l = b->len[last * b->p + b->ring[0]];
    if (MAX(cur, l) < b->best && claim(b, last, b->ring[0])) {
      b->best = MAX(cur, l);
      release(b, last, b->ring[0]);
    }
    return;
  }
  for (int m = 1; m < b->p; m++) {
    if (b->taken[m] || MAX(cur, b->len[last * b->p + m]) >= b->best)
      continue;
    if (!claim(b, last, m))
      continue;
    b->taken[m] = TRUE;
    b->ring[pos] = m;
    brute_extend(b, pos + 1, MAX(cur, b->len[last * b->p + m]));
    b->taken[m] = FALSE;
    release(b, last, m);
  }
}

/* Smallest maximum path length over all contention-free rings (no two hops
 * on one directed edge), by exhaustive search over the (p−1)! rings that
 * start at machine 0. */
static int brute_force(const NsTopology *t)
{
  int p = ns_topology_n_machines(t);
  Brute b = { .p = p, .n_edges = ns_topology_n_edges(t), .best = G_MAXINT,
              .lower = ns_topology_n_switches(t) == 1 ? 1 : 2 };
  b.len = g_new(int, p * p);
  b.route = g_new(int *, p * p);
  b.n_route = g_new(int, p * p);
  b.used = g_new0(gboolean, b.n_edges);
  b.ring = g_new(int, p);
  b.taken = g_new0(gboolean, p);
  for (int a = 0; a < p; a++)
    for (int c = 0; c < p; c++) {
      b.route[a * p + c] = g_new(int, ns_topology_max_route_len(t));
      b.n_route[a * p + c] = ns_topology_route_machines(t, a, c, b.route[a * p + c]);
      b.len[a * p + c] = b.n_route[a * p + c] - 1;
    }
  b.ring[0] = 0;
  b.taken[0] = TRUE;
  brute_extend(&b, 1, 0);
  for (int k = 0; k < p * p; k++)
    g_free(b.route[k]);
  g_free(b.len);
  g_free(b.route);
  g_free(b.n_route);
  g_free(b.used);
  g_free(b.ring);
  g_free(b.taken);
  return b.best;
}

static int compare_strptr(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Canonical form of a tree of s switches (adjacency from a parent array)
 * with count[v] machines on switch v: the smallest AHU-style encoding over
 * all roots. */
static char *encode_rooted(const int *par, int s, const int *count, int v, int from)
{
  GPtrArray *kids = g_ptr_array_new_with_free_func(g_free);
  for (int w = 0; w < s; w++) {
    gboolean adjacent = (w > 0 && par[w] == v) || (v > 0 && par[v] == w);
    if (adjacent && w != from)
      g_ptr_array_add(kids, encode_rooted(par, s, count, w, v));
  }
  g_ptr_array_sort(kids, compare_strptr);
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "(%d", count[v]);
  for (guint i = 0; i < kids->len; i++)
    g_string_append(out, g_ptr_array_index(kids, i));
  g_string_append_c(out, ')');
  g_ptr_array_free(kids, TRUE);
  return g_string_free(out, FALSE);
}

static char *canonical(const int *par, int s, const int *count)
{
  char *best = NULL;
  for (int r = 0; r < s; r++) {
    char *c = encode_rooted(par, s, count, r, -1);
    if (best == NULL || strcmp(c, best) < 0) {
      g_free(best);
      best = c;
    } else {
      g_free(c);
    }
  }
  return best;
}

/* Builds the topology: switches s0..s{s−1} (s0 first: the anchor), the
 * machines n0..n{p−1} dealt to the switches in a seeded shuffle, so that
 * machine numbering does not follow the switches. */
static NsTopology *build(const int *par, int s, const int *count, uint32_t seed)
{
  NsTopology *t = ns_topology_new("enumerated");
  int p = 0, *owner = g_new(int, 16);
  for (int v = 0; v < s; v++) {
    g_autofree char *name = g_strdup_printf("s%d", v);
    g_assert_cmpint(ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), ==, v);
    for (int k = 0; k < count[v]; k++)
      owner[p++] = v;
  }
  GRand *rng = g_rand_new_with_seed(seed);
  ns_test_shuffle(rng, owner, p);
  g_rand_free(rng);
  for (int m = 0; m < p; m++) {
    g_autofree char *name = g_strdup_printf("n%d", m);
    int id = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
    g_assert_cmpint(ns_topology_add_link(t, id, owner[m], 100e6, 0, 0, NULL), >=, 0);
  }
  for (int v = 1; v < s; v++)
    g_assert_cmpint(ns_topology_add_link(t, v, par[v], 100e6, 0, 0, NULL), >=, 0);
  GError *error = NULL;
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_switches(t), ==, s); /* nothing pruned */
  g_free(owner);
  return t;
}

typedef struct {
  GHashTable *seen;
  int shapes, with_lr2, by_optimum[10];
} Enum;

static void check_shape(Enum *en, const int *par, int s, const int *count)
{
  char *key = canonical(par, s, count);
  if (g_hash_table_contains(en->seen, key)) {
    g_free(key);
    return;
  }
  g_hash_table_add(en->seen, key);
  en->shapes++;
  g_autoptr(NsTopology) t = build(par, s, count, (uint32_t)en->shapes);
  int best = brute_force(t);
  GError *error = NULL;
  int ring[16], d3 = -1;
  g_assert_true(ns_ring_lr3(t, ring, &d3, &error));
  g_assert_no_error(error);
  if (d3 != best)
    g_error("shape %s: LR3 gives %d, brute force %d", key, d3, best);
  en->by_optimum[MIN(best, 9)]++;
  int d1 = ns_allgather_lr1_path(t), d2 = ns_allgather_lr2_path(t);
  g_assert_cmpint(d3, <=, d1);
  NsTwoHop th;
  g_assert_cmpint(ns_allgather_two_hop(t, &th), ==, d2 >= 0);
  if (d2 >= 0) {
    en->with_lr2++;
    g_assert_cmpint(d3, <=, d2);
    g_assert_cmpint(d2, <=, d1);
    g_assert_cmpint(d2, <=, 2); /* Theorem 3, sufficiency */
  } else {
    g_assert_cmpint(best, >=, 3); /* Theorem 3, necessity */
  }
  /* The rings themselves: the verifier agrees on the lengths. */
  g_assert_cmpint(check_algo(t, "lr3"), ==, d3);
  g_assert_cmpint(check_algo(t, "lr1"), ==, d1);
  if (d2 >= 0)
    g_assert_cmpint(check_algo(t, "lr2"), ==, d2);
}

/* Distributions of `left` machines over switches v.. of the tree, leaves
 * (switches of degree 1) getting at least one. */
static void distribute(Enum *en, const int *par, int s, const int *deg, int *count, int v,
                       int left)
{
  if (v == s) {
    if (left == 0)
      check_shape(en, par, s, count);
    return;
  }
  int lo = (s > 1 && deg[v] == 1) ? 1 : 0;
  for (int c = lo; c <= left; c++) {
    count[v] = c;
    distribute(en, par, s, deg, count, v + 1, left - c);
  }
}

/* Every parent array par[v] < v (v ≥ 1) is a tree on s switches rooted at
 * s0; together they cover every tree shape (and many twice, which the
 * canonical forms remove). */
static void parents(Enum *en, int *par, int s, int v)
{
  if (v == s) {
    int deg[8] = { 0 }, count[8];
    for (int w = 1; w < s; w++) {
      deg[w]++;
      deg[par[w]]++;
    }
    for (int p = 2; p <= 9; p++)
      distribute(en, par, s, deg, count, 0, p);
    return;
  }
  for (int u = 0; u < v; u++) {
    par[v] = u;
    parents(en, par, s, v + 1);
  }
}

static void test_every_small_tree(void)
{
  Enum en = { .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
  int par[8] = { -1 };
  for (int s = 1; s <= 5; s++)
    parents(&en, par, s, 1);
  /* Up to isomorphism: 8 + 20 + 70 + 234 + 756 shapes of 2..9 machines on
   * exactly 1..5 switches. */
  g_assert_cmpint(en.shapes, ==, 1088);
  g_test_message("%d shapes, %d with Theorem 3's condition; optimum 1: %d, 2: %d, 3: %d, "
                 "4: %d, 5+: %d",
                 en.shapes, en.with_lr2, en.by_optimum[1], en.by_optimum[2], en.by_optimum[3],
                 en.by_optimum[4],
                 en.by_optimum[5] + en.by_optimum[6] + en.by_optimum[7] + en.by_optimum[8] +
                     en.by_optimum[9]);
  /* The enumeration reaches past the 2-hop case. */
  g_assert_cmpint(en.by_optimum[3], >, 0);
  g_assert_cmpint(en.by_optimum[4], >, 0);
  g_hash_table_unref(en.seen);
}

/* ---- deep trees ----------------------------------------------------------
 * The ring builder's cost must not grow with the tree's height beyond the
 * tree itself (sched/planners/allgather/allgather_lr3.c): chains, caterpillars and deep
 * random trees, against independent optima where one is easy. Functional
 * only: no wall-clock assertion. */

/* A chain s0 - s1 - … - s{S−1} with count[i] machines on switch i
 * (machines numbered along the chain). Switches beyond the outermost
 * machines are pruned by finalize. */
static NsTopology *chain_topology(int s, const int *count)
{
  NsTopology *t = ns_topology_new("chain");
  for (int v = 0; v < s; v++) {
    g_autofree char *name = g_strdup_printf("s%d", v);
    g_assert_cmpint(ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL), ==, v);
    if (v > 0)
      g_assert_cmpint(ns_topology_add_link(t, v, v - 1, 100e6, 0, 0, NULL), >=, 0);
  }
  int m = 0;
  for (int v = 0; v < s; v++)
    for (int k = 0; k < count[v]; k++) {
      g_autofree char *name = g_strdup_printf("n%d", m++);
      int id = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
      g_assert_cmpint(ns_topology_add_link(t, id, v, 100e6, 0, 0, NULL), >=, 0);
    }
  GError *error = NULL;
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  g_assert_no_error(error);
  return t;
}

/* LR3's ring on t: its length, checked against the ring itself, LR1 and
 * (when `verify`) the verifier on the lr3 schedule (contention-free,
 * 1-port, same longest path). */
static int lr3_checked(const NsTopology *t, gboolean verify)
{
  int p = ns_topology_n_machines(t), d3 = -1;
  int *ring = g_new(int, p);
  GError *error = NULL;
  g_assert_true(ns_ring_lr3(t, ring, &d3, &error));
  g_assert_no_error(error);
  g_assert_cmpint(ns_ring_max_path_length(t, ring), ==, d3);
  g_free(ring);
  g_assert_cmpint(d3, <=, ns_allgather_lr1_path(t));
  g_assert_cmpint(ns_allgather_lr3_path(t, &error), ==, d3); /* topo show, bound */
  g_assert_no_error(error);
  if (verify)
    g_assert_cmpint(check_algo(t, "lr3"), ==, d3);
  return d3;
}

/* Machines only at the two ends of a chain of S switches: every ring
 * crosses the chain, a hop between the ends traverses all S switches, and
 * the ring "one end's machines, then the other's" has exactly two such
 * hops (one each way): the optimum is S (1 on a single switch). */
static void test_lr3_chains(void)
{
  const int lengths[] = { 1, 2, 3, 4, 7, 64, 1000, 4097, 100000 };
  for (gsize i = 0; i < G_N_ELEMENTS(lengths); i++) {
    int s = lengths[i];
    for (int a = 1; a <= 4; a += 3)
      for (int b = 1; b <= 4; b += (s == 1 ? 3 : 1)) {
        if (s > 1000 && a != b)
          continue; /* long chains: building them dominates */
        int *count = g_new0(int, s);
        count[0] += a;
        count[s - 1] += b;
        g_autoptr(NsTopology) t = chain_topology(s, count);
        g_free(count);
        g_assert_cmpint(ns_topology_n_switches(t), ==, s);
        /* The verifier walks p(p−1) routes of up to S switches: all small
         * chains, and one configuration of the long ones. */
        gboolean verify = s <= 1000 || (a == 4 && b == 4);
        g_assert_cmpint(lr3_checked(t, verify), ==, s == 1 ? 1 : s);
      }
  }
}

/* Optimal contention-free ring of machines on a chain, position pos[i]
 * (sorted) the switch of machine i, a hop traversing |Δpos| + 1 switches.
 * Contention-free here means crossing every link once each way, i.e. the
 * ring is bitonic (out along the chain, back); the classic bitonic-tour
 * programme with max for sum: b[i][j] (i < j) the smallest longest hop of
 * two disjoint increasing paths from machine 0 ending at i and j that
 * cover 0..j. O(p²). */
static int bitonic_optimum(const int *pos, int p)
{
#define HOP(x, y) (ABS(pos[x] - pos[y]) + 1)
  if (p == 2)
    return HOP(0, 1);
  int *b = g_new(int, p * p);
  b[0 * p + 1] = HOP(0, 1);
  for (int j = 2; j < p; j++) {
    for (int i = 0; i < j - 1; i++)
      b[i * p + j] = MAX(b[i * p + j - 1], HOP(j - 1, j));
    int best = G_MAXINT;
    for (int k = 0; k < j - 1; k++)
      best = MIN(best, MAX(b[k * p + j - 1], HOP(k, j)));
    b[(j - 1) * p + j] = best;
  }
  int opt = MAX(b[(p - 2) * p + p - 1], HOP(p - 2, p - 1));
  g_free(b);
  return opt;
#undef HOP
}

static int caterpillar_case(GRand *rng, int s, int hangs, gboolean ends, gboolean verify)
{
  int *count = g_new0(int, s);
  for (int h = 0; h < hangs; h++)
    count[g_rand_int_range(rng, 0, s)] += g_rand_int_range(rng, 1, 4);
  if (ends) {
    count[0]++;
    count[s - 1]++;
  }
  int p = 0;
  for (int v = 0; v < s; v++)
    p += count[v];
  if (p < 2)
    count[s - 1] += 2 - p;
  int *pos = g_new(int, MAX(p, 2)), n = 0;
  for (int v = 0; v < s; v++)
    for (int k = 0; k < count[v]; k++)
      pos[n++] = v;
  g_autoptr(NsTopology) t = chain_topology(s, count);
  int d3 = lr3_checked(t, verify);
  int expect = n == 1 ? 0 : bitonic_optimum(pos, n);
  if (d3 != expect)
    g_error("caterpillar of %d switches, %d machines: LR3 %d, bitonic optimum %d", s, n, d3,
            expect);
  g_free(pos);
  g_free(count);
  return d3;
}

/* A long chain with machines hanging from a few switches (with and
 * without machines at the ends): against the bitonic optimum. */
static void test_lr3_caterpillars(void)
{
  GRand *rng = g_rand_new_with_seed(20240611);
  for (int i = 0; i < 300; i++) {
    int s = g_rand_int_range(rng, 2, i < 250 ? 200 : 5000);
    int hangs = g_rand_int_range(rng, 1, 9);
    caterpillar_case(rng, s, hangs, i % 3 != 0, TRUE);
  }
  /* Long ones: machines on a dozen switches of a 100 000-switch chain. */
  for (int i = 0; i < 2; i++)
    caterpillar_case(rng, 100000, 12, i == 0, i == 0);
  g_rand_free(rng);
}

/* ns_shape_random's deep trees (each switch hangs from one of the two
 * previous ones: depth about S/2): with at most 8 machines against the
 * brute force over all rings, larger ones through the verifier, and one
 * of 100 000 switches. */
static void test_lr3_deep_random(void)
{
  for (uint64_t seed = 1; seed <= 60; seed++) {
    int p = 2 + (int)(seed % 7), switches = 50 + (int)(seed * 997 % 3000);
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, p, switches, NS_RANDOM_DEEP, 100e6, 0, &error);
    g_assert_no_error(error);
    int d3 = lr3_checked(t, TRUE), best = brute_force(t);
    if (d3 != best)
      g_error("deep random tree seed %" G_GUINT64_FORMAT ": LR3 %d, brute force %d", seed, d3,
              best);
  }
  for (uint64_t seed = 1; seed <= 12; seed++) {
    int p = 16 + (int)(seed * 41 % 150), switches = 1000 + (int)(seed * 7919 % 20000);
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, p, switches, NS_RANDOM_DEEP, 100e6, 0, &error);
    g_assert_no_error(error);
    lr3_checked(t, TRUE);
  }
  GError *error = NULL;
  g_autoptr(NsTopology) big = ns_shape_random(7, 64, 100000, NS_RANDOM_DEEP, 100e6, 0, &error);
  g_assert_no_error(error);
  g_assert_cmpint(ns_topology_n_switches(big), >, 10000);
  lr3_checked(big, TRUE);
}

/* Pairwise different child subtrees on one switch: 24 chains of lengths
 * 1..24 below s0, a machine at the end of each. The programme over 2^24
 * multisets is refused, as documented, and topo show's path says so. */
static void test_lr3_refuses(void)
{
  NsTopology *t = ns_topology_new("comb");
  int root = ns_topology_add_node(t, "s0", NS_NODE_SWITCH, 0, NULL), m = 0;
  for (int len = 1; len <= 24; len++) {
    int prev = root;
    for (int k = 0; k < len; k++) {
      g_autofree char *name = g_strdup_printf("s%d_%d", len, k);
      int v = ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL);
      g_assert_cmpint(ns_topology_add_link(t, v, prev, 100e6, 0, 0, NULL), >=, 0);
      prev = v;
    }
    g_autofree char *name = g_strdup_printf("n%d", m++);
    int id = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
    g_assert_cmpint(ns_topology_add_link(t, id, prev, 100e6, 0, 0, NULL), >=, 0);
  }
  GError *error = NULL;
  g_assert_true(ns_topology_finalize(t, NULL, NULL, &error));
  int ring[24], d3 = -1;
  g_assert_false(ns_ring_lr3(t, ring, &d3, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_nonnull(strstr(error->message, "switch s0 has 24 child subtrees of 24 different kinds"));
  g_clear_error(&error);
  g_assert_cmpint(ns_allgather_lr3_path(t, &error), ==, -1);
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_clear_error(&error);
  ns_topology_free(t);
}

/* ---- verifier on every schedule ---------------------------------------- */

static void check_all(const NsTopology *t)
{
  int d[3];
  for (gsize a = 0; a < G_N_ELEMENTS(all_algos); a++) {
    int path = check_algo(t, all_algos[a]);
    if (a < 3)
      d[a] = path;
  }
  g_assert_cmpint(d[2], <=, d[0]);
  if (d[1] >= 0) {
    g_assert_cmpint(d[2], <=, d[1]);
    g_assert_cmpint(d[1], <=, d[0]);
  }
}

static void test_bundled(void)
{
  g_autofree char *dir_path = ns_test_source("scenarios/topologies");
  GDir *dir = g_dir_open(dir_path, 0, NULL);
  g_assert_nonnull(dir);
  int n = 0;
  const char *name;
  while ((name = g_dir_read_name(dir)) != NULL) {
    if (!g_str_has_suffix(name, ".topo"))
      continue;
    g_autofree char *rel = g_build_filename("scenarios/topologies", name, NULL);
    g_autoptr(NsTopology) t = load(rel);
    check_all(t);
    n++;
  }
  g_dir_close(dir);
  g_assert_cmpint(n, >=, 7);
}

static void test_random_trees(void)
{
  for (uint64_t seed = 1; seed <= 320; seed++) {
    int p = (seed % 5 == 0) ? 1 << (1 + seed % 6) : 2 + (int)(seed * 37 % 70);
    int switches = 1 + (int)(seed * 13 % 24);
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_random(seed, p, switches, (NsRandomKind)(seed % 5),
                                              100e6, 0, &error);
    g_assert_no_error(error);
    check_all(t);
  }
}

/* ---- the topology-unaware ring ---------------------------------------- */

static void test_interleaved(void)
{
  g_autoptr(NsTopology) t = load("scenarios/topologies/faraj-fig3-22-interleaved.topo");
  g_assert_cmpint(ns_topology_n_machines(t), ==, 32);
  g_assert_cmpint(ns_topology_n_switches(t), ==, 4);
  GError *error = NULL;
  g_autoptr(NsSchedule) ring = plan(t, "ring", &error);
  g_assert_no_error(error);
  NsVerifyReport r = ns_test_verify(t, ring);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], >, 0);
  g_assert_cmpuint(r.max_edge_use, ==, 8); /* the 8 machines of s0 on s0->s1 */
  g_assert_false(ns_verify_passed(&r, FALSE));
  ns_verify_report_clear(&r);
  g_autoptr(NsSchedule) lr1 = plan(t, "lr1", &error);
  g_assert_no_error(error);
  r = ns_test_verify(t, lr1);
  g_assert_true(ns_verify_passed(&r, FALSE));
  g_assert_cmpuint(r.max_edge_use, ==, 1);
  ns_verify_report_clear(&r);
  /* With the grouped numbering of topology (5) (faraj-c) the ring is LR1. */
  g_autoptr(NsTopology) c = load("scenarios/topologies/faraj-c.topo");
  g_autoptr(NsSchedule) ring5 = plan(c, "ring", &error);
  g_assert_no_error(error);
  r = ns_test_verify(c, ring5);
  g_assert_true(ns_verify_passed(&r, FALSE));
  ns_verify_report_clear(&r);
}

/* ---- the baselines' shapes ---------------------------------------------- */

static void test_baselines(void)
{
  for (int p = 2; p <= 40; p++) {
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    int lg = 0, clg = 0, x = 1;
    while ((2 << lg) <= p)
      lg++;
    while ((1 << clg) < p)
      clg++;
    for (int d = 1; d * d <= p; d++)
      if (p % d == 0)
        x = d;
    const struct {
      const char *algo;
      uint64_t phases;
    } expect[] = {
      { "ring", (uint64_t)(p - 1) },
      { "rdb", (uint64_t)(lg + ((p & (p - 1)) ? 2 : 0)) },
      { "bruck", (uint64_t)clg },
      { "simple", 1 },
      { "2dmesh", (uint64_t)(x - 1 + p / x - 1) },
      { "gather-bcast", (uint64_t)(2 * lg) },
    };
    for (gsize a = 0; a < G_N_ELEMENTS(expect); a++) {
      GError *error = NULL;
      g_autoptr(NsSchedule) s = plan(t, expect[a].algo, &error);
      g_assert_no_error(error);
      g_assert_cmpuint(ns_schedule_n_phases(s), ==, expect[a].phases);
      NsVerifyReport r = ns_test_verify(t, s);
      g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
      g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
      /* On one switch the 1-port algorithms are contention-free. */
      gboolean one_port = !g_str_equal(expect[a].algo, "simple") &&
                          !g_str_equal(expect[a].algo, "gather-bcast");
      g_assert_cmpint(ns_verify_passed(&r, FALSE), ==, one_port || p == 2);
      ns_verify_report_clear(&r);
    }
  }
  /* simple is one posted phase; rdb folds for p = 6: 4 -> 0 and 5 -> 1. */
  g_autoptr(NsTopology) t6 = ns_shape_star(6, 100e6, 0);
  g_autoptr(NsSchedule) simple = plan(t6, "simple", NULL);
  g_assert_cmpint(simple->execution, ==, NS_EXEC_POSTED);
  g_autoptr(NsSchedule) rdb = plan(t6, "rdb", NULL);
  g_assert_cmpint(ns_schedule_transfer(rdb, 0)->src, ==, 4);
  g_assert_cmpint(ns_schedule_transfer(rdb, 0)->dst, ==, 0);
  g_assert_cmpint(ns_schedule_transfer(rdb, 1)->src, ==, 5);
  g_assert_cmpint(ns_schedule_transfer(rdb, 1)->dst, ==, 1);
}

/* The ring schedule forwards what it received (§3.3.1.1). */
static void test_ring_forwarding(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(5, 100e6, 0);
  const int ring[5] = { 3, 0, 4, 1, 2 };
  g_autoptr(NsSchedule) s = ns_allgather_ring_schedule(t, "x", &(NsPlanParams){ .msize = 1 }, ring);
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 4);
  for (uint32_t k = 0; k < 4; k++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, k, &first, &n);
    g_assert_cmpuint(n, ==, 5);
    for (int i = 0; i < 5; i++) {
      const NsTransfer *tr = ns_schedule_transfer(s, first + (uint64_t)i);
      g_assert_cmpint(tr->src, ==, ring[i]);
      g_assert_cmpint(tr->dst, ==, ring[(i + 1) % 5]);
      g_assert_cmpuint(tr->chunk, ==, (uint32_t)ring[(i - (int)k + 5) % 5]);
    }
  }
}

/* What `topo show` reports, computed below the CLI: Faraj-Yuan Figure 1
 * (a tree without a 2-hop ring) and a torus (no rings: not a tree). */
static void test_topology_summary(void)
{
  g_autoptr(NsTopology) fig1 = ns_test_topology("faraj-fig1.topo");
  NsTopologySummary s;
  ns_topology_summarize(fig1, &s);
  g_assert_true(s.tree);
  g_assert_cmpfloat(s.bw_min, ==, 100e6);
  g_assert_cmpfloat(s.bw_max, ==, 100e6);
  g_assert_cmpfloat(s.lat_min, ==, 10e-6);
  g_assert_cmpint(s.ports_one, ==, 6);
  g_assert_cmpint(s.ports_all + s.ports_k, ==, 0);
  g_assert_cmpuint(s.a2a.load, ==, 9);
  g_assert_false(s.two_hop.holds);
  g_assert_cmpint(s.lr1, ==, 3);
  g_assert_cmpint(s.lr2, ==, -1);
  g_assert_cmpint(s.lr3, ==, 3);
  g_assert_null(s.lr3_error);
  g_assert_cmpstr(s.routing, ==, "tree: the unique path of the switch tree");
  ns_topology_summary_clear(&s);

  g_autoptr(NsTopology) torus = ns_shape_from_spec("torus:3x3", NULL);
  ns_topology_summarize(torus, &s);
  g_assert_false(s.tree);
  g_assert_cmpint(s.ports_all, ==, 9);
  g_assert_cmpint(s.lr1, ==, -1);
  g_assert_cmpint(s.lr3, ==, -1);
  ns_topology_summary_clear(&s);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/allgather/fig3-19", test_fig3_19);
  g_test_add_func("/allgather/lr2-refuses", test_lr2_refuses);
  g_test_add_func("/allgather/ring-forwarding", test_ring_forwarding);
  g_test_add_func("/allgather/baselines", test_baselines);
  g_test_add_func("/allgather/interleaved", test_interleaved);
  g_test_add_func("/allgather/bundled-topologies", test_bundled);
  g_test_add_func("/allgather/random-trees", test_random_trees);
  g_test_add_func("/allgather/every-small-tree", test_every_small_tree);
  g_test_add_func("/allgather/lr3-chains", test_lr3_chains);
  g_test_add_func("/allgather/lr3-caterpillars", test_lr3_caterpillars);
  g_test_add_func("/allgather/lr3-deep-random", test_lr3_deep_random);
  g_test_add_func("/allgather/lr3-refuses", test_lr3_refuses);
  g_test_add_func("/allgather/topology-summary", test_topology_summary);
  return g_test_run();
}
