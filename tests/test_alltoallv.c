/* netsched — alltoallv and allgatherv: every planner verified complete
 * (contention-free where claimed) on >= 200 seeded random trees and the
 * papers' topologies, with zero-size pairs and skewed patterns; the MPI
 * libraries' choices; the bound of a pattern against a brute-force walk
 * of the routes. Faraj's dissertation §4.1.1.1; CC-MPI (PPoPP'03). */
#include "platforms/gen/shapes.h"
#include "platforms/model/error.h"
#include "sched/bound/pattern_bound.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <math.h>
#include <string.h>

static const char *const a2av_algos[] = { "simple", "spread",    "ring",  "pair",
                                          "greedy", "a2a-based", "mpich", "ompi" };
static const char *const agv_algos[] = { "simple",   "ring",         "lr",    "rdb", "bruck",
                                         "neighbor", "gather-bcast", "mpich", "ompi" };

/* A skewed pattern with zero-size pairs: random:AVG,1,SEED (sizes uniform
 * on [0, 2 AVG]), then every pair (block) whose hash falls in 1/4 set to
 * 0. */
static NsSizePattern *skewed(NsCollective c, int p, uint64_t seed)
{
  GError *error = NULL;
  g_autofree char *spec = g_strdup_printf("random:4KiB,1,%" G_GUINT64_FORMAT, seed);
  NsSizePattern *pat = ns_size_pattern_generate(spec, c, p, &error);
  g_assert_no_error(error);
  uint64_t n = ns_size_pattern_n_sizes(pat);
  for (uint64_t k = 0; k < n; k++)
    if ((k * 2654435761u + seed) % 4 == 0)
      pat->bytes[k] = 0;
  return pat;
}

/* Messages the pattern needs moved: off-diagonal pairs (blocks to the
 * p−1 others) of size > 0. */
static uint64_t needed_moves(const NsSizePattern *pat)
{
  uint64_t n = 0;
  int p = pat->p;
  for (int i = 0; i < p; i++) {
    if (pat->collective == NS_COLL_ALLGATHERV) {
      n += pat->bytes[i] > 0 ? (uint64_t)(p - 1) : 0;
      continue;
    }
    for (int j = 0; j < p; j++)
      n += i != j && pat->bytes[(uint64_t)i * p + j] > 0;
  }
  return n;
}

static gboolean applies(const NsTopology *t, const char *algo)
{
  int p = ns_topology_n_machines(t);
  if (g_str_equal(algo, "pair"))
    return (p & (p - 1)) == 0;
  if (g_str_equal(algo, "neighbor"))
    return p % 2 == 0;
  return TRUE;
}

/* Plans, verifies: data flow and completeness always; contention-free and
 * 1-port for greedy, a2a-based and lr; direct algorithms move each
 * needed message exactly once. Returns the number of phases. */
static uint32_t check(const NsTopology *t, NsCollective c, const char *algo,
                      const NsSizePattern *pat)
{
  GError *error = NULL;
  NsPlanParams params = { .msize = 1, .pattern = pat };
  g_autoptr(NsSchedule) s = ns_plan(t, c, algo, &params, &error);
  if (s == NULL)
    g_error("%s/%s on %s: %s", ns_collective_name(c), algo, ns_topology_source(t), error->message);
  g_assert_cmpint(s->collective, ==, c);
  g_assert_nonnull(s->chunk_bytes);
  g_assert_cmpuint(s->chunk_bytes->len, ==, ns_size_pattern_n_sizes(pat));
  NsVerifyReport r = ns_test_verify(t, s);
  if (r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE] > 0)
    g_error("%s/%s on %s: dataflow %" G_GUINT64_FORMAT ", complete %" G_GUINT64_FORMAT,
            ns_collective_name(c), algo, ns_topology_source(t), r.failures[NS_CHECK_DATAFLOW],
            r.failures[NS_CHECK_COMPLETE]);
  /* no transfer of a zero-size chunk */
  for (uint64_t k = 0; k < ns_schedule_n_transfers(s); k++) {
    const NsTransfer *tr = ns_schedule_transfer(s, k);
    const uint32_t *ch = ns_schedule_chunks(s, tr);
    for (uint32_t m = 0; m < tr->n_chunks; m++)
      g_assert_cmpuint(ns_schedule_chunk_size(s, ch[m]), >, 0);
  }
  if (c == NS_COLL_ALLTOALLV || g_str_equal(algo, "simple") || g_str_equal(algo, "ring") ||
      g_str_equal(algo, "lr"))
    g_assert_cmpuint(r.n_chunk_moves, ==, needed_moves(pat));
  if (g_str_equal(algo, "greedy") || g_str_equal(algo, "a2a-based") || g_str_equal(algo, "lr")) {
    if (r.failures[NS_CHECK_CONTENTION] + r.failures[NS_CHECK_PORT] > 0)
      g_error("%s/%s on %s: contention %" G_GUINT64_FORMAT ", port %" G_GUINT64_FORMAT,
              ns_collective_name(c), algo, ns_topology_source(t), r.failures[NS_CHECK_CONTENTION],
              r.failures[NS_CHECK_PORT]);
  }
  uint32_t phases = ns_schedule_n_phases(s);
  ns_verify_report_clear(&r);
  return phases;
}

/* Phases of alltoall/faraj for the full all-to-all (a2a-based never has
 * more). */
static uint32_t faraj_phases(const NsTopology *t)
{
  GError *error = NULL;
  NsPlanParams params = { .msize = 1 };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
  g_assert_no_error(error);
  return ns_schedule_n_phases(s);
}

static void check_all(const NsTopology *t, uint64_t seed)
{
  int p = ns_topology_n_machines(t);
  g_autoptr(NsSizePattern) a = skewed(NS_COLL_ALLTOALLV, p, seed);
  for (gsize k = 0; k < G_N_ELEMENTS(a2av_algos); k++)
    if (applies(t, a2av_algos[k])) {
      uint32_t phases = check(t, NS_COLL_ALLTOALLV, a2av_algos[k], a);
      if (g_str_equal(a2av_algos[k], "a2a-based"))
        g_assert_cmpuint(phases, <=, faraj_phases(t));
    }
  g_autoptr(NsSizePattern) g = skewed(NS_COLL_ALLGATHERV, p, seed);
  for (gsize k = 0; k < G_N_ELEMENTS(agv_algos); k++)
    if (applies(t, agv_algos[k]))
      check(t, NS_COLL_ALLGATHERV, agv_algos[k], g);
}

static void test_random_trees(void)
{
  for (uint64_t seed = 1; seed <= 200; seed++) {
    int p = (seed % 5 == 0) ? 1 << (1 + seed % 5) : 2 + (int)(seed * 37 % 30);
    int switches = 1 + (int)(seed * 13 % 12);
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, p, switches, (NsRandomKind)(seed % 5), 100e6, 0, &error);
    g_assert_no_error(error);
    check_all(t, seed);
  }
}

static void test_papers_topologies(void)
{
  const char *names[] = {
    "faraj-fig1.topo", "faraj-a.topo",       "faraj-b.topo",
    "faraj-c.topo",    "faraj-fig3-19.topo", "faraj-fig3-22-interleaved.topo"
  };
  for (gsize k = 0; k < G_N_ELEMENTS(names); k++) {
    g_autoptr(NsTopology) t = ns_test_topology(names[k]);
    check_all(t, k + 1);
  }
}

/* A pattern of zeros but one pair: one phase, one transfer; every pair
 * zero: no phase at all. */
static void test_sparse(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-fig1.topo");
  GError *error = NULL;
  g_autoptr(NsSizePattern) pat = ns_size_pattern_new(NS_COLL_ALLTOALLV, 6, &error);
  NsPlanParams params = { .msize = 1, .pattern = pat };
  for (gsize k = 0; k < G_N_ELEMENTS(a2av_algos); k++) {
    if (!applies(t, a2av_algos[k]))
      continue;
    g_autoptr(NsSchedule) none = ns_plan(t, NS_COLL_ALLTOALLV, a2av_algos[k], &params, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(ns_schedule_n_transfers(none), ==, 0);
    g_assert_cmpuint(ns_schedule_n_phases(none), ==, 0);
  }
  pat->bytes[2 * 6 + 5] = 4096;
  for (gsize k = 0; k < G_N_ELEMENTS(a2av_algos); k++) {
    if (!applies(t, a2av_algos[k]))
      continue;
    g_autoptr(NsSchedule) one = ns_plan(t, NS_COLL_ALLTOALLV, a2av_algos[k], &params, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(ns_schedule_n_phases(one), ==, 1);
    g_assert_cmpuint(ns_schedule_n_transfers(one), ==, 1);
    g_assert_cmpuint(ns_schedule_transfer_bytes(one, ns_schedule_transfer(one, 0)), ==, 4096);
    g_assert_cmpuint(one->msize, ==, 4096);
  }
}

/* Greedy sorts by size: on one switch, the largest message is in phase 0
 * and every phase is a partial permutation. */
static void test_greedy_order(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_random(3, 5, 1, NS_RANDOM_UNIFORM, 100e6, 0, &error);
  g_assert_no_error(error);
  g_autoptr(NsSizePattern) pat =
      ns_size_pattern_generate("random:1KiB,0.9,5", NS_COLL_ALLTOALLV, 5, &error);
  pat->bytes[3 * 5 + 1] = 1 << 20;
  NsPlanParams params = { .msize = 1, .pattern = pat };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALLV, "greedy", &params, &error);
  g_assert_no_error(error);
  const NsTransfer *first = ns_schedule_transfer(s, 0);
  g_assert_cmpint(first->src, ==, 3);
  g_assert_cmpint(first->dst, ==, 1);
  /* one switch: p-1 = 4 phases are enough and greedy finds at most a few more */
  g_assert_cmpuint(ns_schedule_n_phases(s), >=, 4);
}

static void test_errors(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-fig1.topo");
  GError *error = NULL;
  NsPlanParams params = { .msize = 1 };
  g_assert_null(ns_plan(t, NS_COLL_ALLTOALLV, "ring", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "alltoallv/ring needs a size pattern (--pattern FILE or a generator such as "
                  "uniform:64KiB)");
  g_clear_error(&error);
  g_autoptr(NsSizePattern) small = ns_size_pattern_new(NS_COLL_ALLTOALLV, 5, &error);
  params.pattern = small;
  g_assert_null(ns_plan(t, NS_COLL_ALLTOALLV, "greedy", &params, &error));
  g_assert_cmpstr(error->message, ==,
                  "alltoallv/greedy: the pattern has 5 machines, the topology 6");
  g_clear_error(&error);
  g_assert_null(ns_plan(t, NS_COLL_ALLGATHERV, "lr", &params, &error));
  g_assert_cmpstr(error->message, ==, "allgatherv/lr: the pattern is for alltoallv");
  g_clear_error(&error);
  g_autoptr(NsSizePattern) six = ns_size_pattern_new(NS_COLL_ALLTOALLV, 6, &error);
  params.pattern = six;
  g_assert_null(ns_plan(t, NS_COLL_ALLTOALLV, "pair", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_true(
      g_str_has_prefix(error->message, "alltoallv/pair: alltoall/pair needs a power-of-two"));
  g_clear_error(&error);
  /* greedy's machine limit */
  g_autoptr(NsTopology) big = ns_shape_random(1, 513, 2, NS_RANDOM_UNIFORM, 100e6, 0, &error);
  g_autoptr(NsSizePattern) bigp = ns_size_pattern_new(NS_COLL_ALLTOALLV, 513, &error);
  params.pattern = bigp;
  g_assert_null(ns_plan(big, NS_COLL_ALLTOALLV, "greedy", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "alltoallv/greedy takes at most 512 machines (the topology has 513): its "
                  "first-fit search grows with p^4");
  g_clear_error(&error);
}

/* The libraries' choices by p and the pattern's total. */
static void test_selectors(void)
{
  struct {
    NsCollective c;
    const char *lib, *spec;
    int p;
    const char *label;
  } cases[] = {
    { NS_COLL_ALLTOALLV, "mpich", "uniform:1MiB", 6, "mpich(spread)" },
    { NS_COLL_ALLTOALLV, "ompi", "uniform:1KiB", 3, "ompi(ring)" },
    { NS_COLL_ALLTOALLV, "ompi", "uniform:1KiB", 6, "ompi(simple)" },
    { NS_COLL_ALLTOALLV, "ompi", "uniform:1KiB", 64, "ompi(ring)" },
    { NS_COLL_ALLTOALLV, "ompi", "uniform:1KiB", 128, "ompi(simple)" },
    /* MPICH: by the gathered total */
    { NS_COLL_ALLGATHERV, "mpich", "uniform:1KiB", 8, "mpich(rdb)" },
    { NS_COLL_ALLGATHERV, "mpich", "uniform:64KiB", 8, "mpich(ring)" },
    { NS_COLL_ALLGATHERV, "mpich", "uniform:1KiB", 6, "mpich(bruck)" },
    { NS_COLL_ALLGATHERV, "mpich", "uniform:16KiB", 6, "mpich(ring)" },
    /* Open MPI: by the bytes per rank */
    { NS_COLL_ALLGATHERV, "ompi", "uniform:100B", 6, "ompi(gather-bcast)" },
    { NS_COLL_ALLGATHERV, "ompi", "uniform:1KiB", 6, "ompi(neighbor)" },
    { NS_COLL_ALLGATHERV, "ompi", "uniform:1KiB", 7, "ompi(ring)" },
    { NS_COLL_ALLGATHERV, "ompi", "uniform:1KiB", 2, "ompi(ring)" },
    { NS_COLL_ALLGATHERV, "ompi", "uniform:1MiB", 2, "ompi(simple)" },
    { NS_COLL_ALLGATHERV, "ompi", "uniform:2KiB", 12, "ompi(bruck)" },
  };
  for (gsize k = 0; k < G_N_ELEMENTS(cases); k++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(k + 1, cases[k].p, 2, NS_RANDOM_UNIFORM, 100e6, 0, &error);
    g_assert_no_error(error);
    g_autoptr(NsSizePattern) pat =
        ns_size_pattern_generate(cases[k].spec, cases[k].c, cases[k].p, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 1, .pattern = pat };
    g_autoptr(NsSchedule) s = ns_plan(t, cases[k].c, cases[k].lib, &params, &error);
    g_assert_no_error(error);
    if (!g_str_equal(s->algorithm, cases[k].label))
      g_error("case %zu: %s, want %s", k, s->algorithm, cases[k].label);
  }
}

/* The bound against a walk of every route with the topology's own
 * ns_topology_route_machines (not the route table the bound uses), and
 * the ports summed by hand: equal seconds. */
static double brute_force(const NsTopology *t, const NsSizePattern *pat)
{
  int p = pat->p, n_edges = ns_topology_n_edges(t);
  g_autofree double *load = g_new0(double, n_edges);
  g_autofree int *route = g_new(int, ns_topology_max_route_len(t) + 1);
  double best = 0;
  for (int i = 0; i < p; i++) {
    g_autofree gboolean *crossed = g_new0(gboolean, n_edges);
    double sent = 0, received = 0;
    for (int j = 0; j < p; j++) {
      if (i == j)
        continue;
      double b = pat->collective == NS_COLL_ALLTOALLV ? (double)pat->bytes[i * p + j]
                                                      : (double)pat->bytes[i];
      sent += pat->collective == NS_COLL_ALLTOALLV ? b : 0;
      received += pat->collective == NS_COLL_ALLTOALLV ? (double)pat->bytes[j * p + i]
                                                       : (double)pat->bytes[j];
      if (b == 0)
        continue;
      int n = ns_topology_route_machines(t, i, j, route);
      for (int k = 0; k < n; k++) {
        if (pat->collective == NS_COLL_ALLGATHERV && crossed[route[k]])
          continue;
        crossed[route[k]] = TRUE;
        load[route[k]] += b;
      }
    }
    if (pat->collective == NS_COLL_ALLGATHERV)
      sent = (double)pat->bytes[i];
    /* one link per machine on these trees, 1-port */
    const int *inc = ns_topology_incident(t, ns_topology_machine_node(t, i));
    double bw = ns_topology_link(t, inc[0])->bandwidth;
    best = MAX(best, MAX(sent, received) * 8 / bw);
  }
  for (int e = 0; e < n_edges; e++)
    best = MAX(best, load[e] * 8 / ns_topology_link(t, ns_edge_link(e))->bandwidth);
  return best;
}

static void test_bound(void)
{
  for (uint64_t seed = 1; seed <= 60; seed++) {
    GError *error = NULL;
    int p = 2 + (int)(seed * 7 % 14);
    g_autoptr(NsTopology) t = ns_shape_random(
        seed, p, 1 + (int)(seed % 6), (NsRandomKind)(seed % 5), seed % 2 ? 100e6 : 1e9, 0, &error);
    g_assert_no_error(error);
    for (int c = 0; c < 2; c++) {
      NsCollective coll = c ? NS_COLL_ALLGATHERV : NS_COLL_ALLTOALLV;
      g_autoptr(NsSizePattern) pat = skewed(coll, p, seed);
      NsPatternBound b;
      g_assert_true(ns_pattern_bound(t, pat, &b, &error));
      g_assert_true(b.links);
      double want = brute_force(t, pat);
      if (fabs(b.seconds - want) > 1e-12 * want)
        g_error("seed %" G_GUINT64_FORMAT " %s: bound %.9g, brute force %.9g", seed,
                ns_collective_name(coll), b.seconds, want);
    }
  }
  /* uniform alltoallv on a tree: the all-to-all's bound (|Mu||Mv| messages) */
  g_autoptr(NsTopology) fig1 = ns_test_topology("faraj-fig1.topo");
  GError *error = NULL;
  g_autoptr(NsSizePattern) u =
      ns_size_pattern_generate("uniform:64KiB", NS_COLL_ALLTOALLV, 6, &error);
  NsPatternBound b;
  g_assert_true(ns_pattern_bound(fig1, u, &b, &error));
  g_assert_cmpint(b.kind, ==, NS_BOUND_LINK);
  g_assert_cmpuint(b.bytes, ==, 9 * 65536);
  g_assert_cmpfloat(fabs(b.seconds - 9 * 65536 * 8 / 100e6), <, 1e-12);
  g_autoptr(NsSizePattern) small = ns_size_pattern_new(NS_COLL_ALLTOALLV, 5, &error);
  g_assert_false(ns_pattern_bound(fig1, small, &b, &error));
  g_assert_cmpstr(error->message, ==, "the pattern has 5 machines, the topology 6");
  g_clear_error(&error);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/alltoallv/random-trees", test_random_trees);
  g_test_add_func("/alltoallv/papers-topologies", test_papers_topologies);
  g_test_add_func("/alltoallv/sparse", test_sparse);
  g_test_add_func("/alltoallv/greedy-order", test_greedy_order);
  g_test_add_func("/alltoallv/errors", test_errors);
  g_test_add_func("/alltoallv/selectors", test_selectors);
  g_test_add_func("/alltoallv/bound", test_bound);
  return g_test_run();
}
