/* Allreduce planners (issue #22): every one verified complete — every
 * machine ends with every segment combining each contribution exactly
 * once — at its stated phase count, 1-port where it claims it, on 240
 * seeded random trees, the dissertation's topologies and tori (torus:
 * contention-free under the all-port model); blocks of unequal size. */
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/error.h"
#include "sched/planners/allreduce/allreduce_common_internal.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

/* Every allreduce planner but the selectors and torus (tested on tori). */
static const char *const algos[] = {
  "reduce-bcast",   "rdb",           "rabenseifner",  "ring",          "rab1-ring",      "rab1-rdb",
  "rab1-bruck",     "rab1-2dmesh",   "rab1-neighbor", "rab1-lr1",      "rab1-lr2",       "rab1-lr3",
  "rab2-ring-ring", "rab2-ring-lr1", "rab2-ring-lr3", "rab2-pair-rdb", "rab2-faraj-lr3",
  "ag-lr1",         "ag-lr2",        "ag-lr3",        "ag-ring",       "ag-rdb",         "ag-bruck",
  "ag-simple",      "ag-2dmesh",     "ag-gather-bcast", "ag-neighbor",
};

static int lg_floor(int p)
{
  int k = 0;
  while ((2 << k) <= p)
    k++;
  return k;
}

static int lg_ceil(int p)
{
  int k = 0;
  while ((1 << k) < p)
    k++;
  return k;
}

/* Phases of another collective's planner on t (the part a family reuses). */
static uint32_t phases_of(const NsTopology *t, NsCollective c, const char *algo)
{
  NsPlanParams pp = { .msize = 64, .root = 0 };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, c, algo, &pp, &error);
  g_assert_no_error(error);
  return ns_schedule_n_phases(s);
}

/* The phase count each planner states (its file's header). */
static uint32_t stated_phases(const NsTopology *t, const char *algo)
{
  int p = ns_topology_n_machines(t), q = 1 << lg_floor(p);
  uint32_t fold = p > q ? 2 : 0;
  if (g_str_equal(algo, "reduce-bcast"))
    return 2 * (uint32_t)lg_ceil(p);
  if (g_str_equal(algo, "rdb"))
    return (uint32_t)lg_floor(p) + fold;
  if (g_str_equal(algo, "rabenseifner"))
    return 2 * (uint32_t)lg_floor(p) + fold;
  if (g_str_equal(algo, "ring"))
    return 2 * (uint32_t)(p - 1);
  if (g_str_equal(algo, "torus"))
    return 2 * phases_of(t, NS_COLL_ALLGATHER, "torus");
  if (g_str_equal(algo, "torus-dim")) { /* 2d(max s_k − 1) */
    int sizes[NS_MAX_DIMS], longest = 0;
    gboolean wrap;
    int d = ns_topology_grid(t, sizes, &wrap);
    for (int k = 0; k < d; k++)
      longest = MAX(longest, sizes[k]);
    return 2 * (uint32_t)d * (uint32_t)(longest - 1);
  }
  if (g_str_has_prefix(algo, "ag-")) /* the all-gather's phases, nothing more */
    return phases_of(t, NS_COLL_ALLGATHER, algo + 3);
  if (g_str_has_prefix(algo, "rab1-"))
    return (uint32_t)lg_floor(p) + fold + phases_of(t, NS_COLL_ALLGATHER, algo + 5);
  g_assert_true(g_str_has_prefix(algo, "rab2-"));
  g_auto(GStrv) parts = g_strsplit(algo + 5, "-", 2);
  return phases_of(t, NS_COLL_ALLTOALL, parts[0]) + phases_of(t, NS_COLL_ALLGATHER, parts[1]);
}

/* The all-gather or all-to-all a family member reuses refuses t. */
static gboolean part_refuses(const NsTopology *t, const char *algo)
{
  NsPlanParams pp = { .msize = 64, .root = 0 };
  GError *error = NULL;
  g_autoptr(NsSchedule) ag = NULL, a2a = NULL;
  if (g_str_has_prefix(algo, "rab1-") || g_str_has_prefix(algo, "ag-")) {
    ag = ns_plan(t, NS_COLL_ALLGATHER, strchr(algo, '-') + 1, &pp, &error);
  } else if (g_str_has_prefix(algo, "rab2-")) {
    g_auto(GStrv) parts = g_strsplit(algo + 5, "-", 2);
    a2a = ns_plan(t, NS_COLL_ALLTOALL, parts[0], &pp, &error);
    if (a2a != NULL)
      ag = ns_plan(t, NS_COLL_ALLGATHER, parts[1], &pp, &error);
  } else {
    return FALSE;
  }
  gboolean refused = ag == NULL;
  g_clear_error(&error);
  return refused;
}

/* An all-gather-based schedule: one segment of n bytes, every transfer
 * raw and moving whole vectors; its all-gather's transfers one for one,
 * with the all-gather's port use and contention (1-port and contention-
 * free where the all-gather is). */
static void check_raw(const NsTopology *t, const NsSchedule *s, uint64_t n,
                      const NsVerifyOptions *opt, const NsVerifyReport *r)
{
  g_assert_cmpuint(s->n_segments, ==, 1);
  g_assert_cmpuint(s->msize, ==, n);
  g_assert_null(s->chunk_bytes);
  uint64_t moved = 0;
  for (uint64_t i = 0; i < ns_schedule_n_transfers(s); i++) {
    const NsTransfer *tr = ns_schedule_transfer(s, i);
    g_assert_true(tr->raw);
    g_assert_false(tr->combine);
    g_assert_cmpuint(ns_schedule_transfer_bytes(s, tr), ==, tr->n_chunks * n);
    moved += tr->n_chunks;
  }
  int p = ns_topology_n_machines(t);
  g_assert_cmpuint(moved, >=, (uint64_t)p * (uint64_t)(p - 1));
  NsPlanParams pp = { .msize = n, .root = 0 };
  GError *error = NULL;
  g_autoptr(NsSchedule) ag = ns_plan(t, NS_COLL_ALLGATHER, s->algorithm + 3, &pp, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ns_schedule_n_transfers(ag), ==, ns_schedule_n_transfers(s));
  g_assert_cmpint(ag->execution, ==, s->execution);
  NsVerifyReport ra = { 0 };
  g_assert_true(ns_verify(t, ag, opt, &ra, &error));
  g_assert_cmpuint(ra.failures[NS_CHECK_PORT], ==, r->failures[NS_CHECK_PORT]);
  g_assert_cmpuint(ra.failures[NS_CHECK_CONTENTION], ==, r->failures[NS_CHECK_CONTENTION]);
  ns_verify_report_clear(&ra);
}

/* Plans `algo` for n bytes and checks it: complete, nothing counted twice,
 * the stated phases, 1-port (all-port and contention-free for torus).
 * FALSE when it refused t because a part it reuses refuses t. */
static gboolean check(const NsTopology *t, const char *algo, uint64_t n)
{
  int p = ns_topology_n_machines(t);
  NsPlanParams params = { .msize = n, .root = 0 };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, algo, &params, &error);
  if (s == NULL) {
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_clear_error(&error);
    g_assert_true(part_refuses(t, algo));
    return FALSE;
  }
  g_assert_no_error(error);
  g_assert_cmpint(s->collective, ==, NS_COLL_ALLREDUCE);
  g_assert_cmpstr(s->algorithm, ==, algo);
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  gboolean torus = g_str_equal(algo, "torus") || g_str_equal(algo, "torus-dim") ||
                   g_str_equal(algo, "ag-torus");
  opt.port = torus ? NS_PORT_ALL : NS_PORT_ONE;
  NsVerifyReport r = { 0 };
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_no_error(error);
  if (r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE] > 0)
    g_error("%s on %s (p=%d, n=%" G_GUINT64_FORMAT "): dataflow %" G_GUINT64_FORMAT
            ", complete %" G_GUINT64_FORMAT,
            algo, ns_topology_source(t), p, n, r.failures[NS_CHECK_DATAFLOW],
            r.failures[NS_CHECK_COMPLETE]);
  uint64_t want = (uint64_t)p * s->n_segments * (uint64_t)(p - 1);
  g_assert_cmpuint(r.n_required, ==, want);
  g_assert_cmpuint(r.n_delivered, ==, want);
  if (ns_schedule_n_phases(s) != stated_phases(t, algo))
    g_error("%s on %s (p=%d): %u phases, stated %u", algo, ns_topology_source(t), p,
            ns_schedule_n_phases(s), stated_phases(t, algo));
  /* bytes: the segments cover the vector exactly */
  uint64_t total = 0;
  for (uint32_t c = 0; c < s->n_segments; c++)
    total += ns_schedule_chunk_size(s, c);
  g_assert_cmpuint(total, ==, n);
  if (g_str_has_prefix(algo, "ag-")) /* raw vectors, the all-gather's port use and contention */
    check_raw(t, s, n, &opt, &r);
  else if (!g_str_equal(algo, "rab2-faraj-lr3")) /* faraj's phases are not 1-port */
    g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 0);
  if (torus)
    g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 0);
  ns_verify_report_clear(&r);
  return TRUE;
}

/* Verified schedules per planner (a refusal is not counted). */
static int verified[G_N_ELEMENTS(algos)];

static void check_all(const NsTopology *t, uint64_t n)
{
  for (gsize i = 0; i < G_N_ELEMENTS(algos); i++)
    verified[i] += check(t, algos[i], n);
}

/* 240 random trees of 2..71 machines (most not a power of two; every
 * fifth one a power of two), every kind of ns_shape_random. */
static void test_random_trees(void)
{
  memset(verified, 0, sizeof verified);
  for (uint64_t seed = 1; seed <= 240; seed++) {
    int p = (seed % 5 == 0) ? 1 << (1 + seed % 6) : 2 + (int)(seed * 37 % 70);
    int switches = 1 + (int)(seed * 13 % 24);
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, p, switches, (NsRandomKind)(seed % 5), 100e6, 0, &error);
    g_assert_no_error(error);
    check_all(t, (uint64_t)p * 100 + seed % (uint64_t)p);
  }
  /* >= 200 trees each, but for the parts that need a shape of p or tree:
   * neighbor an even p, pair a power of two, lr2 its two-hop condition */
  for (gsize i = 0; i < G_N_ELEMENTS(algos); i++) {
    g_test_message("%s: %d random trees verified", algos[i], verified[i]);
    if (!strstr(algos[i], "neighbor") && !strstr(algos[i], "pair") && !strstr(algos[i], "lr2"))
      g_assert_cmpint(verified[i], ==, 240);
  }
}

/* The dissertation's topologies (Figure 4.5 (a)-(c), Figure 3.19, 3.22),
 * at 64 KiB and at a size no block count divides. */
static void test_paper_topologies(void)
{
  const char *const names[] = { "faraj-a.topo",       "faraj-b.topo",
                                "faraj-c.topo",       "faraj-fig1.topo",
                                "faraj-fig3-19.topo", "faraj-fig3-22-interleaved.topo" };
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autoptr(NsTopology) t = ns_test_topology(names[i]);
    check_all(t, 65536);
    check_all(t, 65536 + 7);
  }
}

/* Exact phases on a few p (the brief's figures), independent of the
 * helper above: ring 2(p-1); rdb ceil(lg p) for 2^k, floor(lg p) + 2
 * otherwise; rabenseifner twice the halving. */
static void test_phase_counts(void)
{
  const struct {
    int p;
    const char *algo;
    uint32_t phases;
  } cases[] = {
    { 8, "ring", 14 },
    { 12, "ring", 22 },
    { 8, "rdb", 3 },
    { 12, "rdb", 5 },
    { 2, "rdb", 1 },
    { 8, "rabenseifner", 6 },
    { 12, "rabenseifner", 8 },
    { 12, "reduce-bcast", 8 },
    { 8, "rab1-ring", 10 },
    { 12, "rab1-ring", 16 },
    { 12, "rab2-ring-ring", 22 },
    { 12, "ag-ring", 11 }, /* the all-gather's p - 1 */
    { 8, "ag-rdb", 3 },
    { 12, "ag-bruck", 4 },
    { 12, "ag-simple", 1 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = g_strdup_printf("star:%d", cases[i].p);
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(text, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 4096, .root = 0 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, cases[i].algo, &params, &error);
    g_assert_no_error(error);
    if (ns_schedule_n_phases(s) != cases[i].phases)
      g_error("%s on %d: %u phases, want %u", cases[i].algo, cases[i].p, ns_schedule_n_phases(s),
              cases[i].phases);
  }
}

/* Blocks: 1000 bytes on 7 machines are 6 blocks of 143 and one of 142
 * (the ring's split), 8 blocks of 125 on 8 (no sizes needed); MPICH's
 * Rabenseifner on 12 machines cuts 1003 bytes into 7 x 125 + 128. A
 * vector smaller than the block count is refused, not padded. */
static void test_blocks(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t7 = ns_shape_from_spec("star:7", &error);
  g_autoptr(NsTopology) t8 = ns_shape_from_spec("star:8", &error);
  g_autoptr(NsTopology) t12 = ns_shape_from_spec("star:12", &error);
  g_assert_no_error(error);
  NsPlanParams params = { .msize = 1000, .root = 0 };
  g_autoptr(NsSchedule) ring7 = ns_plan(t7, NS_COLL_ALLREDUCE, "ring", &params, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ring7->n_segments, ==, 7);
  g_assert_nonnull(ring7->chunk_bytes);
  for (uint32_t c = 0; c < 7; c++)
    g_assert_cmpuint(ns_schedule_chunk_size(ring7, c), ==, c < 6 ? 143 : 142);
  g_assert_cmpuint(ring7->msize, ==, 143);
  /* bandwidth-optimal: machine 0 sends 2(p-1) blocks — blocks 6..1 in the
   * reduce-scatter, 0 and 6..2 in the all-gather: 5 x 143 + 142 twice */
  uint64_t sent = 0;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(ring7); t++)
    if (ns_schedule_transfer(ring7, t)->src == 0)
      sent += ns_schedule_transfer_bytes(ring7, ns_schedule_transfer(ring7, t));
  g_assert_cmpuint(sent, ==, 2 * (5 * 143 + 142));
  g_autoptr(NsSchedule) ring8 = ns_plan(t8, NS_COLL_ALLREDUCE, "ring", &params, &error);
  g_assert_null(ring8->chunk_bytes);
  g_assert_cmpuint(ring8->msize, ==, 125);
  params.msize = 1003;
  g_autoptr(NsSchedule) rab = ns_plan(t12, NS_COLL_ALLREDUCE, "rabenseifner", &params, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(rab->n_segments, ==, 8);
  for (uint32_t c = 0; c < 8; c++)
    g_assert_cmpuint(ns_schedule_chunk_size(rab, c), ==, c < 7 ? 125 : 128);
  params.msize = 6;
  g_assert_null(ns_plan(t7, NS_COLL_ALLREDUCE, "ring", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(
      error->message, ==,
      "allreduce/ring cuts the vector into 7 blocks and needs at least 7 bytes (got 6)");
  g_clear_error(&error);
  /* rdb and reduce-bcast take the whole vector: 1 byte is fine */
  params.msize = 1;
  g_autoptr(NsSchedule) rdb = ns_plan(t7, NS_COLL_ALLREDUCE, "rdb", &params, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(rdb->n_segments, ==, 1);
}

/* torus: reversed and forward allgather/torus, contention-free and every
 * port busy; 8 x 8 takes 2 x 16 phases. Not a torus: refused. */
static void test_torus(void)
{
  const char *const specs[] = { "torus:8x8", "torus:4x4", "torus:3x5", "torus:4x4x4",
                                "torus:2x2", "torus:6",   "torus:5x6" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(specs[i], &error);
    g_assert_no_error(error);
    int p = ns_topology_n_machines(t);
    g_assert_true(check(t, "torus", (uint64_t)p * 1024 + 3));
    g_assert_true(check(t, "ag-torus", (uint64_t)p * 1024 + 3));
    if (g_str_equal(specs[i], "torus:8x8")) {
      NsPlanParams params = { .msize = 65536, .root = 0 };
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, "torus", &params, &error);
      g_assert_cmpuint(ns_schedule_n_phases(s), ==, 32);
    }
  }
  GError *error = NULL;
  g_autoptr(NsTopology) star = ns_shape_from_spec("star:8", &error);
  NsPlanParams params = { .msize = 65536, .root = 0 };
  g_assert_null(ns_plan(star, NS_COLL_ALLREDUCE, "torus", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_clear_error(&error);
}

/* torus-dim: the dimension-wise bidirectional bucket allreduce, verified
 * complete, nothing counted twice, all-port and contention-free at
 * 2d(max s_k − 1) phases on square, non-square, 3-D tori, rings and
 * dimensions of size 2 (both signs in one transfer); 28 phases on 8 × 8,
 * 60 on 16 × 16, 18 on 4 × 4 × 4. */
static void test_torus_dim(void)
{
  const char *const specs[] = { "torus:4x4",   "torus:8x8", "torus:16x16", "torus:3x3x3",
                                "torus:4x4x4", "torus:3x5", "torus:4x8",   "torus:2x3x4",
                                "torus:2x2",   "torus:2x5", "torus:6",     "torus:2" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(specs[i], &error);
    g_assert_no_error(error);
    int p = ns_topology_n_machines(t);
    g_assert_true(check(t, "torus-dim", (uint64_t)p * 1024 + 5));
  }
  const struct {
    const char *spec;
    uint32_t phases;
  } counts[] = { { "torus:8x8", 28 }, { "torus:16x16", 60 }, { "torus:4x4x4", 18 } };
  for (gsize i = 0; i < G_N_ELEMENTS(counts); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(counts[i].spec, &error);
    NsPlanParams params = { .msize = 1 << 20, .root = 0 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, "torus-dim", &params, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, counts[i].phases);
  }
}

/* torus-dim on 8 × 8 with n = 1 MiB (2dP = 256 divides it): every
 * directed link of machine 0 carries 2(P−1)/(2dP) · n = 126 · 4096 =
 * 516096 bytes, the all-port bound's share of each of its 4 ports, and
 * each in a phase sends one transfer per link. Not a torus, too few
 * ports, fewer bytes than 2dP segments, or more than 2^26 block moves:
 * refused. */
static void test_torus_dim_bytes(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec("torus:8x8", &error);
  NsPlanParams params = { .msize = 1 << 20, .root = 0 };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, "torus-dim", &params, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(s->n_segments, ==, 256);
  uint64_t per_dst[64] = { 0 };
  for (uint64_t i = 0; i < ns_schedule_n_transfers(s); i++) {
    const NsTransfer *tr = ns_schedule_transfer(s, i);
    if (tr->src != 0)
      continue;
    const uint32_t *chunks = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++)
      per_dst[tr->dst] += ns_schedule_chunk_size(s, chunks[k]);
  }
  int links = 0;
  for (int m = 0; m < 64; m++)
    if (per_dst[m] != 0) {
      links++;
      g_assert_cmpuint(per_dst[m], ==, 516096);
    }
  g_assert_cmpint(links, ==, 4);
  NsVerifyReport report = ns_test_verify(t, s); /* 4d·P(P−1) block moves, the limit's count */
  g_assert_cmpuint(report.n_chunk_moves, ==, 4 * 2 * 64 * 63);
  ns_verify_report_clear(&report);

  const struct {
    const char *spec;
    uint64_t n;
    const char *message;
  } refusals[] = {
    { "star:8", 65536,
      "torus-dim needs a torus or ring of machines (gen:torus:AxB[xC], "
      "gen:ring:P); gen:star:8 is not one" },
    { "torus:4x4:ports=one", 65536,
      "torus-dim sends on all 4 directions of a machine at once; "
      "machine n0 has 1-port (an all-port torus: the default of "
      "gen:torus, not ports=one)" },
    { "torus:4x4", 63,
      "allreduce/torus-dim cuts the vector into 64 blocks and needs at least 64 "
      "bytes (got 63)" },
    { "torus:64x64", 1 << 30,
      "allreduce/torus-dim on 4096 machines in 2 dimensions moves 4dP(P-1) = 134184960 "
      "blocks, above the limit of 67108864 (allreduce/torus moves 2P(P-1))" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(refusals); i++) {
    g_autoptr(NsTopology) r = ns_shape_from_spec(refusals[i].spec, &error);
    g_assert_no_error(error);
    NsPlanParams pp = { .msize = refusals[i].n, .root = 0 };
    g_assert_null(ns_plan(r, NS_COLL_ALLREDUCE, "torus-dim", &pp, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_cmpstr(error->message, ==, refusals[i].message);
    g_clear_error(&error);
  }
}

/* An all-to-all that relays (bruck) is not a reduce-scatter: the
 * helper refuses it rather than mislabel it. */
static void test_rab2_refuses_relays(void)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec("star:6", &error);
  g_assert_no_error(error);
  g_autoptr(NsSchedule) s = ns_allreduce_new(t, "rab2-bruck", 6000, 6, NS_BLOCKS_SPREAD, &error);
  g_assert_no_error(error);
  g_assert_false(ns_allreduce_append_alltoall(s, t, "bruck", &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "allreduce/rab2-bruck needs a direct all-to-all (each message from its origin "
                  "to its destination), and alltoall/bruck relays messages");
  g_clear_error(&error);
  /* a direct one is: ring */
  g_autoptr(NsSchedule) d = ns_allreduce_new(t, "rab2-ring", 6000, 6, NS_BLOCKS_SPREAD, &error);
  g_assert_true(ns_allreduce_append_alltoall(d, t, "ring", &error));
  g_assert_no_error(error);
}

/* The MPI libraries' choices (sched/planners/select/): MPICH 4.0.2's
 * JSON and Open MPI 4.1.4's fixed decision, by p and the vector's bytes,
 * each verified complete. */
static void test_selectors(void)
{
  const struct {
    const char *spec, *selector;
    uint64_t n;
    const char *label;
  } cases[] = {
    { "star:8", "mpich", 8, "mpich(rdb)" },
    { "star:8", "mpich", 9, "mpich(rabenseifner)" },
    { "star:24", "mpich", 15, "mpich(rdb)" }, /* count < 2^floor(lg 24) = 16 */
    { "star:24", "mpich", 16, "mpich(rabenseifner)" },
    { "star:3", "ompi", 2, "ompi(rdb)" }, /* the ring's count < p */
    { "star:3", "ompi", 5, "ompi(ring)" },
    { "star:3", "ompi", 100000, "ompi(ring)" }, /* segmented ring, segment 0 */
    { "star:3", "ompi", 262144, "ompi(rabenseifner)" },
    { "star:8", "ompi", 8191, "ompi(rdb)" },
    { "star:8", "ompi", 8192, "ompi(rabenseifner)" },
    { "star:20", "ompi", 17, "ompi(rdb)" },
    { "star:20", "ompi", 20, "ompi(ring)" },
    { "star:20", "ompi", 64, "ompi(rdb)" },
    { "star:20", "ompi", 4096, "ompi(rabenseifner)" },
    { "star:200", "ompi", 131071, "ompi(reduce-bcast)" },
    { "star:200", "ompi", 131072, "ompi(rdb)" },
    { "star:40", "ompi", 127, "ompi(ring)" }, /* segmented ring below 128 B */
    { "star:40", "ompi", 39, "ompi(rdb)" },
    { "star:40", "ompi", 128, "ompi(rabenseifner)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(cases[i].spec, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = cases[i].n, .root = 0 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLREDUCE, cases[i].selector, &params, &error);
    g_assert_no_error(error);
    if (!g_str_equal(s->algorithm, cases[i].label))
      g_error("%s %s n=%" G_GUINT64_FORMAT ": %s, want %s", cases[i].spec, cases[i].selector,
              cases[i].n, s->algorithm, cases[i].label);
    NsVerifyReport r = ns_test_verify(t, s);
    g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE], ==, 0);
    ns_verify_report_clear(&r);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/allreduce/phase-counts", test_phase_counts);
  g_test_add_func("/allreduce/blocks", test_blocks);
  g_test_add_func("/allreduce/torus", test_torus);
  g_test_add_func("/allreduce/torus-dim", test_torus_dim);
  g_test_add_func("/allreduce/torus-dim-bytes", test_torus_dim_bytes);
  g_test_add_func("/allreduce/selectors", test_selectors);
  g_test_add_func("/allreduce/rab2-refuses", test_rab2_refuses_relays);
  g_test_add_func("/allreduce/paper-topologies", test_paper_topologies);
  g_test_add_func("/allreduce/random-trees", test_random_trees);
  return g_test_run();
}
