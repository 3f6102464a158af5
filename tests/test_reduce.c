/* reduce planners (issue #22): the broadcast trees reversed (Faraj's
 * dissertation §4.1.1.1, "Algorithms for MPI_Reduce") and MPICH's
 * Rabenseifner.
 *
 * What is asserted:
 *  - the registry: every reduce planner, the tree-only ones refused on a
 *    torus, parameter errors named as reduce's (not bcast's);
 *  - hand-computed schedules: binomial on 8 machines round by round, the
 *    linear chain, Rabenseifner on 8 (power of two) and 6 machines (the
 *    fold, unequal blocks, a folded-away root);
 *  - every planner on 240 seeded random trees (p up to 100, mostly not a
 *    power of two, a root per tree, one and several segments), the
 *    papers' topologies (the .topo files of scenarios/topologies, three roots each),
 *    tori and fat trees (the planners that take any fabric): dataflow and
 *    completeness (every segment's P contributions reach the root once),
 *    1-port, contention-free for pipeline-linear, pipeline-binary and
 *    flat; exact phase counts: linear and pipeline-linear X + P − 2, flat
 *    X·(P − 1), binomial ⌈log2 P⌉ (one segment), pipeline-binary that of
 *    bcast/binary-cf, rabenseifner 2·lg p' (+1 when P is not a power of
 *    two, +1 more when the root was folded away);
 *  - the reversal: pipeline-linear's transfers are bcast/linear-cf's
 *    turned around, phase by phase from the end.
 */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <math.h>
#include <string.h>

static const char *const all_planners[] = { "pipeline-linear", "pipeline-binary", "linear",
                                            "flat",            "binomial",        "rabenseifner",
                                            "bintree",         "mpich",           "ompi" };

static NsSchedule *plan_or_error(const NsTopology *t, NsCollective c, const char *algo,
                                 uint64_t msize, uint64_t segment, int root, GError **error)
{
  NsPlanParams params = { .msize = msize, .root = root, .segment = segment };
  return ns_plan(t, c, algo, &params, error);
}

static NsSchedule *plan(const NsTopology *t, const char *algo, uint64_t msize, uint64_t segment,
                        int root)
{
  GError *error = NULL;
  NsSchedule *s = plan_or_error(t, NS_COLL_REDUCE, algo, msize, segment, root, &error);
  if (error != NULL)
    g_error("%s: reduce/%s: %s", ns_topology_source(t), algo, error->message);
  g_assert_nonnull(s);
  return s;
}

static gboolean is_cf(const char *algo)
{
  return g_str_has_prefix(algo, "pipeline-") || strcmp(algo, "flat") == 0;
}

/* Verifies s: dataflow, completeness and ports always, contention when
 * `contention_free`; every segment of every non-root machine counted once
 * at the root. Returns the contention failures. */
static uint64_t check_schedule(const NsTopology *t, const NsSchedule *s, gboolean contention_free)
{
  NsVerifyReport r = ns_test_verify_correct(t, s, contention_free);
  g_assert_true(r.ran[NS_CHECK_DATAFLOW]);
  g_assert_true(r.ran[NS_CHECK_COMPLETE]);
  g_assert_true(r.ran[NS_CHECK_PORT]);
  g_assert_true(!contention_free || r.ran[NS_CHECK_CONTENTION]);
  uint64_t required = (uint64_t)s->n_segments * (uint64_t)(s->n_machines - 1);
  g_assert_cmpuint(r.n_required, ==, required);
  g_assert_cmpuint(r.n_delivered, ==, required);
  uint64_t contention = r.failures[NS_CHECK_CONTENTION];
  ns_verify_report_clear(&r);
  return contention;
}

static NsTopology *from_spec(const char *spec)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(spec, &error);
  g_assert_no_error(error);
  return t;
}

/* Seeded random trees as in tests/test_bcast.c: every kind, mostly small,
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

/* The phases Rabenseifner takes on p machines with this root. */
static uint64_t rabenseifner_phases(int p, int root)
{
  int lg = 0;
  while ((2 << lg) <= p)
    lg++;
  int rem = p - (1 << lg);
  return 2 * (uint64_t)lg + (rem > 0) + (root < 2 * rem && root % 2 != 0);
}

/* Every planner on t with this root: verified, phases as stated. */
static void check_planners(const NsTopology *t, int root, gboolean tree)
{
  int p = ns_topology_n_machines(t);
  /* (msize, segment): one segment; 5 segments; an uneven last segment. */
  const uint64_t sizes[][2] = { { 65536, 0 }, { 5 * 4096, 4096 }, { 10000, 3000 } };
  for (gsize a = 0; a < G_N_ELEMENTS(all_planners); a++) {
    const char *algo = all_planners[a];
    if (!tree && g_str_has_prefix(algo, "pipeline-"))
      continue;
    for (gsize z = 0; z < G_N_ELEMENTS(sizes); z++) {
      g_autoptr(NsSchedule) s = plan(t, algo, sizes[z][0], sizes[z][1], root);
      g_assert_cmpint(s->collective, ==, NS_COLL_REDUCE);
      g_assert_cmpint(s->root, ==, root);
      check_schedule(t, s, tree && is_cf(algo));
      uint64_t x = s->n_segments, phases = ns_schedule_n_phases(s);
      if (strcmp(algo, "linear") == 0 || strcmp(algo, "pipeline-linear") == 0)
        g_assert_cmpuint(phases, ==, x + (uint64_t)p - 2);
      if (strcmp(algo, "flat") == 0)
        g_assert_cmpuint(phases, ==, x * (uint64_t)(p - 1));
      if (strcmp(algo, "binomial") == 0 && x == 1)
        g_assert_cmpuint(phases, ==, (uint64_t)ceil(log2(p)));
      if (strcmp(algo, "rabenseifner") == 0)
        g_assert_cmpuint(phases, ==, rabenseifner_phases(p, root));
      if (strcmp(algo, "pipeline-binary") == 0) {
        GError *error = NULL;
        g_autoptr(NsSchedule) b = plan_or_error(t, NS_COLL_BCAST, "binary-cf", sizes[z][0],
                                                sizes[z][1], root, &error);
        g_assert_no_error(error);
        g_assert_cmpuint(phases, ==, ns_schedule_n_phases(b));
        g_assert_cmpuint(phases, <=, (x + (uint64_t)p - 2) * 2);
      }
    }
  }
}

/* ---- registry and errors ------------------------------------------------ */

static void test_registry_and_errors(void)
{
  for (gsize a = 0; a < G_N_ELEMENTS(all_planners); a++) {
    const NsPlanner *p = ns_planner_find(NS_COLL_REDUCE, all_planners[a]);
    g_assert_nonnull(p);
    g_assert_cmpstr(p->name, ==, all_planners[a]);
    g_assert_cmpint(p->needs_tree, ==, g_str_has_prefix(all_planners[a], "pipeline-"));
  }
  g_autoptr(NsTopology) t = from_spec("tree:2,4");
  GError *error = NULL;
  g_assert_null(plan_or_error(t, NS_COLL_REDUCE, "linear", 1024, 0, 9, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, "reduce/linear: root 9 is not a machine index (0..7)");
  g_clear_error(&error);
  g_assert_null(plan_or_error(t, NS_COLL_REDUCE, "pipeline-binary", 1024, 0, -1, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "reduce/pipeline-binary: root -1 is not a machine index (0..7)");
  g_clear_error(&error);
  /* Past Algorithm 5's machine limit the advice names the reduce that
   * reverses bcast/linear-cf, not the broadcast (it said "use linear-cf") */
  g_autoptr(NsTopology) past_limit = from_spec("star:4097");
  g_assert_null(plan_or_error(past_limit, NS_COLL_REDUCE, "pipeline-binary", 4097, 0, 0, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "reduce/pipeline-binary: 4097 machines; Algorithm 5's O(P^2) tables and "
                  "O(P^3) search are limited to 4096 machines (use pipeline-linear)");
  g_clear_error(&error);
  g_assert_null(plan_or_error(t, NS_COLL_REDUCE, "rabenseifner", 1024, 0, 8, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, "reduce/rabenseifner: root 8 is not a machine index (0..7)");
  g_clear_error(&error);
  g_assert_null(plan_or_error(t, NS_COLL_REDUCE, "rabenseifner", 7, 0, 0, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "reduce/rabenseifner: 7 bytes do not split into 8 blocks of at least 1 byte "
                  "(MPICH needs count >= 8 and takes binomial below it)");
  g_clear_error(&error);
  g_autoptr(NsTopology) big = ns_shape_star(8192, 100e6, 10e-6);
  g_assert_null(plan_or_error(big, NS_COLL_REDUCE, "rabenseifner", 1 << 20, 0, 0, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "reduce/rabenseifner: 8192 blocks on 8192 machines make 67153921 block moves, "
                  "above the limit of 67108864");
  g_clear_error(&error);
  g_assert_null(plan_or_error(t, NS_COLL_REDUCE, "flat", 1 << 30, 1, 0, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_true(g_str_has_prefix(error->message, "reduce/flat: 1073741824 segments of 1 bytes"));
  g_clear_error(&error);
  g_autoptr(NsTopology) torus = from_spec("torus:4x4");
  g_assert_null(plan_or_error(torus, NS_COLL_REDUCE, "pipeline-linear", 1024, 0, 0, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_true(g_str_has_prefix(error->message, "reduce/pipeline-linear needs a switch tree"));
  g_clear_error(&error);
}

/* ---- hand-computed schedules -------------------------------------------- */

/* The transfers of every phase as "src>dst:chunks[+]" ('+' combine), in
 * text order within a phase (the order inside a phase means nothing). */
static int by_text(gconstpointer a, gconstpointer b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *transfers_text(const NsSchedule *s)
{
  GString *out = g_string_new(NULL);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    NsPhase phase = ns_schedule_phase(s, ph);
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
    for (uint64_t i = 0; i < phase.n; i++) {
      const NsTransfer *t = &phase.transfers[i];
      const uint32_t *c = t->n_chunks == 1 ? &t->chunk : phase.chunk_pool + t->chunk;
      GString *item = g_string_new(NULL);
      g_string_append_printf(item, " %d>%d:", t->src, t->dst);
      for (uint32_t k = 0; k < t->n_chunks; k++)
        g_string_append_printf(item, "%s%u", k ? "," : "", c[k]);
      if (t->combine)
        g_string_append_c(item, '+');
      g_ptr_array_add(items, g_string_free(item, FALSE));
    }
    g_ptr_array_sort(items, by_text);
    g_string_append(out, ph ? " |" : "");
    for (guint i = 0; i < items->len; i++)
      g_string_append(out, g_ptr_array_index(items, i));
  }
  return g_string_free(out, FALSE);
}

static void test_by_hand(void)
{
  g_autoptr(NsTopology) t8 = from_spec("tree:2,4");
  /* MPICH's binomial: round k, rank r with lowest set bit 2^k -> r - 2^k. */
  g_autoptr(NsSchedule) bin = plan(t8, "binomial", 1000, 0, 0);
  g_autofree char *b = transfers_text(bin);
  g_assert_cmpstr(b, ==, " 1>0:0+ 3>2:0+ 5>4:0+ 7>6:0+ | 2>0:0+ 6>4:0+ | 4>0:0+");
  /* Relative to root 5. */
  g_autoptr(NsSchedule) bin5 = plan(t8, "binomial", 1000, 0, 5);
  g_autofree char *b5 = transfers_text(bin5);
  g_assert_cmpstr(b5, ==, " 0>7:0+ 2>1:0+ 4>3:0+ 6>5:0+ | 3>1:0+ 7>5:0+ | 1>5:0+");
  /* The linear tree p7 -> p6 -> ... -> p0, two segments pipelined:
   * segment 0 leaves first. */
  g_autoptr(NsSchedule) lin = plan(t8, "linear", 2000, 1000, 0);
  g_autofree char *l = transfers_text(lin);
  g_assert_cmpstr(l, ==,
                  " 7>6:0+ | 6>5:0+ 7>6:1+ | 5>4:0+ 6>5:1+ | 4>3:0+ 5>4:1+ | 3>2:0+ 4>3:1+ |"
                  " 2>1:0+ 3>2:1+ | 1>0:0+ 2>1:1+ | 1>0:1+");
}

static void test_by_hand_rabenseifner(void)
{
  g_autoptr(NsTopology) t8 = from_spec("tree:2,4");
  /* 8 machines, 8 blocks of 100 bytes: halving at distance 1, 2, 4, then
   * the gather at distance 4, 2, 1 to root 0. */
  g_autoptr(NsSchedule) s = plan(t8, "rabenseifner", 800, 0, 0);
  g_assert_null(s->chunk_bytes);
  g_assert_cmpuint(s->msize, ==, 100);
  g_assert_cmpuint(s->n_segments, ==, 8);
  g_autofree char *text = transfers_text(s);
  g_assert_cmpstr(text, ==,
                  " 0>1:4,5,6,7+ 1>0:0,1,2,3+ 2>3:4,5,6,7+ 3>2:0,1,2,3+ 4>5:4,5,6,7+ 5>4:0,1,2,3+"
                  " 6>7:4,5,6,7+ 7>6:0,1,2,3+ |"
                  " 0>2:2,3+ 1>3:6,7+ 2>0:0,1+ 3>1:4,5+ 4>6:2,3+ 5>7:6,7+ 6>4:0,1+ 7>5:4,5+ |"
                  " 0>4:1+ 1>5:5+ 2>6:3+ 3>7:7+ 4>0:0+ 5>1:4+ 6>2:2+ 7>3:6+ |"
                  " 4>0:1 5>1:5 6>2:3 7>3:7 | 2>0:2,3 3>1:6,7 | 1>0:4,5,6,7");
  check_schedule(t8, s, FALSE);

  /* 6 machines, 10 bytes: p' = 4 blocks of 3, 3, 2, 2 bytes; 1 and 3 fold
   * into 0 and 2; the group is 0, 2, 4, 5. Root 3 was folded away: rank 0
   * copies its block to 3, which gathers in 0's place. */
  g_autoptr(NsTopology) t6 = from_spec("tree:2,3");
  g_autoptr(NsSchedule) r = plan(t6, "rabenseifner", 10, 0, 3);
  g_assert_nonnull(r->chunk_bytes);
  g_assert_cmpuint(r->chunk_bytes->len, ==, 4);
  const uint64_t want_sizes[] = { 3, 3, 2, 2 };
  for (int k = 0; k < 4; k++)
    g_assert_cmpuint(ns_schedule_chunk_size(r, (uint32_t)k), ==, want_sizes[k]);
  g_assert_cmpuint(r->msize, ==, 3);
  g_autofree char *rt = transfers_text(r);
  g_assert_cmpstr(rt, ==,
                  " 1>0:0,1,2,3+ 3>2:0,1,2,3+ |"
                  " 0>2:2,3+ 2>0:0,1+ 4>5:2,3+ 5>4:0,1+ |"
                  " 0>4:1+ 2>5:3+ 4>0:0+ 5>2:2+ |"
                  " 0>3:0 |"
                  " 4>3:1 5>2:3 | 2>3:2,3");
  check_schedule(t6, r, FALSE);
  g_assert_cmpuint(ns_schedule_n_phases(r), ==, rabenseifner_phases(6, 3));
  /* Root 4 is in the group (rank 2): no extra phase. */
  g_autoptr(NsSchedule) r4 = plan(t6, "rabenseifner", 10, 0, 4);
  g_assert_cmpuint(ns_schedule_n_phases(r4), ==, 5);
  check_schedule(t6, r4, FALSE);
}

/* pipeline-linear is bcast/linear-cf turned around: phase k of the reduce
 * holds the transfers of the broadcast's phase n−1−k, reversed, segment s
 * as X−1−s. */
static void test_reversal(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-c.topo");
  int root = 5;
  g_autoptr(NsSchedule) r = plan(t, "pipeline-linear", 4 * 4096, 4096, root);
  GError *error = NULL;
  g_autoptr(NsSchedule) b = plan_or_error(t, NS_COLL_BCAST, "linear-cf", 4 * 4096, 4096, root,
                                          &error);
  g_assert_no_error(error);
  uint32_t n = ns_schedule_n_phases(b);
  g_assert_cmpuint(ns_schedule_n_phases(r), ==, n);
  g_assert_cmpuint(r->n_segments, ==, 4);
  g_assert_cmpuint(r->msize, ==, 4096);
  for (uint32_t ph = 0; ph < n; ph++) {
    NsPhase pr = ns_schedule_phase(r, ph), pb = ns_schedule_phase(b, n - 1 - ph);
    g_assert_cmpuint(pr.n, ==, pb.n);
    for (uint64_t i = 0; i < pr.n; i++) {
      g_assert_cmpint(pr.transfers[i].src, ==, pb.transfers[i].dst);
      g_assert_cmpint(pr.transfers[i].dst, ==, pb.transfers[i].src);
      g_assert_cmpuint(pr.transfers[i].chunk, ==, 3 - pb.transfers[i].chunk);
      g_assert_true(pr.transfers[i].combine);
    }
  }
}

/* ---- every planner on many topologies ------------------------------------ */

static void test_random_trees(void)
{
  int checked = 0;
  for (uint64_t seed = 1; checked < 240; seed++, checked++) {
    g_autoptr(NsTopology) t = random_tree(seed, 100);
    int p = ns_topology_n_machines(t);
    check_planners(t, (int)(seed * 31 % (uint64_t)p), TRUE);
  }
  g_autoptr(NsTopology) two = ns_shape_star(2, 100e6, 10e-6);
  check_planners(two, 1, TRUE);
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
    g_autoptr(NsTopology) t = ns_test_topology(name);
    int p = ns_topology_n_machines(t);
    const int roots[] = { 0, p / 2, p - 1 };
    for (gsize r = 0; r < G_N_ELEMENTS(roots); r++)
      check_planners(t, roots[r], TRUE);
    loaded += g_str_has_prefix(name, "faraj-");
  }
  g_dir_close(dir);
  g_assert_cmpint(loaded, >=, 5); /* faraj-a, -b, -c, -fig1, -fig3-19, ... */
}

static void test_other_fabrics(void)
{
  const char *const specs[] = { "torus:4x4", "torus:3x5", "fattree:2,3", "fattree:3,2" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autoptr(NsTopology) t = from_spec(specs[i]);
    int p = ns_topology_n_machines(t);
    check_planners(t, 0, FALSE);
    check_planners(t, p - 1, FALSE);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/reduce/registry-and-errors", test_registry_and_errors);
  g_test_add_func("/reduce/by-hand", test_by_hand);
  g_test_add_func("/reduce/by-hand-rabenseifner", test_by_hand_rabenseifner);
  g_test_add_func("/reduce/reversal", test_reversal);
  g_test_add_func("/reduce/random-trees-240", test_random_trees);
  g_test_add_func("/reduce/bundled-topologies", test_bundled_topologies);
  g_test_add_func("/reduce/other-fabrics", test_other_fabrics);
  return g_test_run();
}
