/* The topology-unaware "what MPI does out of the box" selectors:
 * alltoall/ompi, allgather/mpich, allgather/ompi, bcast/mpich, bcast/ompi,
 * and the neighbor-exchange all-gather Open MPI picks for large messages on
 * an even number of machines. Every expected label below is derived by
 * hand from the decision tables (docs/algorithms.md, "MPI default
 * selectors"), not read off the planners. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

static NsTopology *star(int p)
{
  return ns_shape_star(p, 100e6, 10e-6);
}

static NsSchedule *plan(const NsTopology *t, NsCollective c, const char *algo, uint64_t msize,
                        int root, uint64_t segment)
{
  NsPlanParams params = { .msize = msize, .root = root, .segment = segment };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, c, algo, &params, &error);
  if (s == NULL)
    g_error("%s/%s, %d machines, msize %" G_GUINT64_FORMAT ": %s", ns_collective_name(c), algo,
            ns_topology_n_machines(t), msize, error->message);
  g_assert_no_error(error);
  return s;
}

/* The verifier's data flow and completeness: every required message,
 * block or segment delivered exactly once, nothing redundant. Direct
 * schedules (all but alltoall's Bruck) move each chunk exactly once. */
static void check_complete(const NsTopology *t, const NsSchedule *s)
{
  NsVerifyReport r = ns_test_verify(t, s);
  if (r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE] > 0) {
    for (guint k = 0; k < r.findings->len; k++) {
      const NsFinding *f = &g_array_index(r.findings, NsFinding, k);
      NsCheck c = ns_finding_check(f->kind);
      if (c == NS_CHECK_DATAFLOW || c == NS_CHECK_COMPLETE) {
        g_autofree char *d = ns_finding_describe(f, t, s);
        g_error("%s: %s/%s: %s", ns_topology_source(t), ns_collective_name(s->collective),
                s->algorithm, d);
      }
    }
  }
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_assert_cmpuint(r.n_delivered, ==, r.n_required);
  uint64_t p = (uint64_t)s->n_machines;
  switch (s->collective) {
  case NS_COLL_ALLTOALL:
    g_assert_cmpuint(r.n_required, ==, p * (p - 1));
    if (strstr(s->algorithm, "bruck") == NULL)
      g_assert_cmpuint(r.n_chunk_moves, ==, p * (p - 1));
    break;
  case NS_COLL_ALLGATHER:
    g_assert_cmpuint(r.n_required, ==, p * (p - 1));
    g_assert_cmpuint(r.n_chunk_moves, ==, p * (p - 1));
    break;
  case NS_COLL_BCAST:
    g_assert_cmpuint(r.n_required, ==, (uint64_t)s->n_segments * (p - 1));
    g_assert_cmpuint(r.n_chunk_moves, ==, (uint64_t)s->n_segments * (p - 1));
    break;
  }
  ns_verify_report_clear(&r);
}

typedef struct {
  int p;
  uint64_t msize;
  const char *label;
} Case;

static void check_labels(NsCollective c, const char *algo, const Case *cases, gsize n)
{
  for (gsize i = 0; i < n; i++) {
    g_autoptr(NsTopology) t = star(cases[i].p);
    g_autoptr(NsSchedule) s = plan(t, c, algo, cases[i].msize, 0, 0);
    if (g_strcmp0(s->algorithm, cases[i].label) != 0)
      g_error("%s/%s p=%d msize=%" G_GUINT64_FORMAT ": chose %s, expected %s",
              ns_collective_name(c), algo, cases[i].p, cases[i].msize, s->algorithm,
              cases[i].label);
    g_assert_true(s->collective == c);
    check_complete(t, s);
  }
}

/* ---- registry ----------------------------------------------------------- */

static void test_registry(void)
{
  const struct { NsCollective c; const char *name; } names[] = {
    { NS_COLL_ALLTOALL, "ompi" },     { NS_COLL_ALLGATHER, "neighbor" },
    { NS_COLL_ALLGATHER, "mpich" },   { NS_COLL_ALLGATHER, "ompi" },
    { NS_COLL_BCAST, "mpich" },       { NS_COLL_BCAST, "ompi" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
    const NsPlanner *p = ns_planner_find(names[i].c, names[i].name);
    g_assert_nonnull(p);
    g_assert_cmpstr(p->name, ==, names[i].name);
    g_assert_false(p->needs_tree); /* topology-unaware: any fabric */
    g_assert_nonnull(p->summary);
    g_assert_nonnull(p->source);
  }
}

/* ---- alltoall/ompi -------------------------------------------------------- */

/* p == 2 → pair; msize < 200 and p > 12 → bruck; msize < 3000 → basic
 * linear; else ring (Open MPI's pairwise: i → i+k). */
static void test_alltoall_ompi_labels(void)
{
  static const Case cases[] = {
    { 2, 1, "ompi(pair)" },          { 2, 199, "ompi(pair)" },
    { 2, 200, "ompi(pair)" },        { 2, 2999, "ompi(pair)" },
    { 2, 3000, "ompi(pair)" },       { 2, 1 << 20, "ompi(pair)" },
    { 3, 1, "ompi(basic-linear)" },  { 3, 3000, "ompi(ring)" },
    { 12, 1, "ompi(basic-linear)" }, { 12, 199, "ompi(basic-linear)" },
    { 12, 200, "ompi(basic-linear)" }, { 12, 2999, "ompi(basic-linear)" },
    { 12, 3000, "ompi(ring)" },      { 13, 1, "ompi(bruck)" },
    { 13, 199, "ompi(bruck)" },      { 13, 200, "ompi(basic-linear)" },
    { 13, 2999, "ompi(basic-linear)" }, { 13, 3000, "ompi(ring)" },
    { 16, 199, "ompi(bruck)" },      { 16, 200, "ompi(basic-linear)" },
    { 16, 2999, "ompi(basic-linear)" }, { 16, 3000, "ompi(ring)" },
    { 16, 1 << 20, "ompi(ring)" },   { 24, 199, "ompi(bruck)" },
    { 24, 3000, "ompi(ring)" },      { 4, 199, "ompi(basic-linear)" },
  };
  check_labels(NS_COLL_ALLTOALL, "ompi", cases, G_N_ELEMENTS(cases));
}

/* The shapes of the choices: basic linear posts i→i−1, i−2, … at once;
 * Open MPI's pairwise is the shift i → i+k in phase k (not XOR). */
static void test_alltoall_ompi_orders(void)
{
  const int p = 7;
  g_autoptr(NsTopology) t = star(p);
  g_autoptr(NsSchedule) lin = plan(t, NS_COLL_ALLTOALL, "ompi", 1000, 0, 0);
  g_assert_cmpstr(lin->algorithm, ==, "ompi(basic-linear)");
  g_assert_true(lin->execution == NS_EXEC_POSTED);
  g_assert_cmpuint(ns_schedule_n_phases(lin), ==, 1);
  int next[7] = { 0 }; /* sends seen so far per machine */
  for (uint64_t k = 0; k < ns_schedule_n_transfers(lin); k++) {
    const NsTransfer *tr = ns_schedule_transfer(lin, k);
    next[tr->src]++;
    g_assert_cmpint(tr->dst, ==, ((tr->src - next[tr->src]) % p + p) % p);
    g_assert_cmpuint(tr->n_chunks, ==, 1);
    g_assert_cmpuint(tr->chunk, ==, ns_a2a_chunk(p, tr->src, tr->dst));
  }
  for (int i = 0; i < p; i++)
    g_assert_cmpint(next[i], ==, p - 1);

  const int q = 8; /* a power of two: pairwise is still the shift, not pair */
  g_autoptr(NsTopology) t8 = star(q);
  g_autoptr(NsSchedule) pw = plan(t8, NS_COLL_ALLTOALL, "ompi", 65536, 0, 0);
  g_assert_cmpstr(pw->algorithm, ==, "ompi(ring)");
  g_assert_true(pw->execution == NS_EXEC_PHASED);
  g_assert_cmpuint(ns_schedule_n_phases(pw), ==, (uint32_t)(q - 1));
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(pw); ph++) {
    uint64_t first, count;
    ns_schedule_phase_range(pw, ph, &first, &count);
    g_assert_cmpuint(count, ==, (uint64_t)q);
    for (uint64_t k = first; k < first + count; k++) {
      const NsTransfer *tr = ns_schedule_transfer(pw, k);
      g_assert_cmpint(tr->dst, ==, (tr->src + (int)ph + 1) % q);
    }
  }
  /* p == 2: one exchange. */
  g_autoptr(NsTopology) t2 = star(2);
  g_autoptr(NsSchedule) two = plan(t2, NS_COLL_ALLTOALL, "ompi", 1, 0, 0);
  g_assert_cmpuint(ns_schedule_n_phases(two), ==, 1);
  g_assert_cmpuint(ns_schedule_n_transfers(two), ==, 2);
}

/* ---- allgather/neighbor ----------------------------------------------------- */

static int expected_partner(int i, int k, int p)
{
  gboolean even = i % 2 == 0;
  if (k == 0)
    return even ? i + 1 : i - 1;
  gboolean down = even == (k % 2 == 1);
  return down ? (i - 1 + p) % p : (i + 1) % p;
}

static void test_neighbor_structure(void)
{
  for (int p = 2; p <= 64; p += 2) {
    g_autoptr(NsTopology) t = star(p);
    g_autoptr(NsSchedule) s = plan(t, NS_COLL_ALLGATHER, "neighbor", 4096, 0, 0);
    g_assert_cmpstr(s->algorithm, ==, "neighbor");
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, (uint32_t)(p / 2));
    g_autofree int *sent = g_new(int, p), *got = g_new(int, p);
    for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
      uint64_t first, count;
      ns_schedule_phase_range(s, ph, &first, &count);
      g_assert_cmpuint(count, ==, (uint64_t)p);
      memset(sent, 0, sizeof(int) * (gsize)p);
      memset(got, 0, sizeof(int) * (gsize)p);
      for (uint64_t k = first; k < first + count; k++) {
        const NsTransfer *tr = ns_schedule_transfer(s, k);
        sent[tr->src]++;
        got[tr->dst]++;
        /* the partner relation of the specification, every step */
        g_assert_cmpint(tr->dst, ==, expected_partner(tr->src, (int)ph, p));
        const uint32_t *ch = ns_schedule_chunks(s, tr);
        if (ph == 0) { /* own block only */
          g_assert_cmpuint(tr->n_chunks, ==, 1);
          g_assert_cmpuint(ch[0], ==, (uint32_t)tr->src);
        } else {
          g_assert_cmpuint(tr->n_chunks, ==, 2);
          g_assert_cmpuint(ch[0] % 2, ==, 0); /* a pair {2j, 2j+1} */
          g_assert_cmpuint(ch[1], ==, ch[0] + 1);
        }
        if (ph == 1) { /* its pair's two blocks: own and step 0's */
          g_assert_cmpuint(ch[0], ==, (uint32_t)(tr->src - tr->src % 2));
          g_assert_cmpint(tr->dst, ==, tr->src % 2 == 0 ? (tr->src - 1 + p) % p
                                                          : (tr->src + 1) % p);
        }
      }
      for (int i = 0; i < p; i++) { /* exactly one partner per phase */
        g_assert_cmpint(sent[i], ==, 1);
        g_assert_cmpint(got[i], ==, 1);
      }
    }
    NsVerifyReport r = ns_test_verify(t, s);
    g_assert_true(ns_verify_passed(&r, 0)); /* one switch: contention-free, 1-port */
    g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (uint64_t)(p - 1));
    g_assert_cmpuint(r.n_chunk_moves, ==, (uint64_t)p * (uint64_t)(p - 1));
    ns_verify_report_clear(&r);
  }
}

static void test_neighbor_odd_refused(void)
{
  const int odd[] = { 3, 5, 13, 63 };
  for (gsize i = 0; i < G_N_ELEMENTS(odd); i++) {
    g_autoptr(NsTopology) t = star(odd[i]);
    NsPlanParams params = { .msize = 1024 };
    GError *error = NULL;
    g_assert_null(ns_plan(t, NS_COLL_ALLGATHER, "neighbor", &params, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(error->message, "even number of machines"));
    g_autofree char *n = g_strdup_printf("has %d", odd[i]);
    g_assert_nonnull(strstr(error->message, n));
    g_error_free(error);
  }
}

/* ---- allgather/mpich and allgather/ompi ----------------------------------- */

/* MPICH: total = msize·p; 2^k and total < 524288 → rdb; total < 81920 →
 * bruck; else ring. (524287 and 81919 are prime: totals just below the
 * thresholds are the nearest multiples of p.) */
static void test_allgather_mpich_labels(void)
{
  static const Case cases[] = {
    { 16, 32767, "mpich(rdb)" },     /* 524272 */
    { 16, 32768, "mpich(ring)" },    /* 524288 */
    { 2, 262143, "mpich(rdb)" },     /* 524286 */
    { 2, 262144, "mpich(ring)" },    /* 524288 */
    { 8, 1, "mpich(rdb)" },          { 8, 5120, "mpich(rdb)" }, /* 40960 */
    { 8, 65535, "mpich(rdb)" },      /* 524280: rdb beyond bruck's limit */
    { 10, 8191, "mpich(bruck)" },    /* 81910 */
    { 10, 8192, "mpich(ring)" },     /* 81920 */
    { 5, 16383, "mpich(bruck)" },    /* 81915 */
    { 5, 16384, "mpich(ring)" },     /* 81920 */
    { 12, 1, "mpich(bruck)" },       { 13, 6301, "mpich(bruck)" }, /* 81913 */
    { 13, 6302, "mpich(ring)" },     /* 81926 */
    { 3, 1 << 20, "mpich(ring)" },   { 64, 1 << 20, "mpich(ring)" },
  };
  check_labels(NS_COLL_ALLGATHER, "mpich", cases, G_N_ELEMENTS(cases));
}

/* Open MPI: p == 2 → rdb; total < 50000: 2^k → rdb, else bruck; else odd
 * p → ring, even p → neighbor. (49999 is prime: 49998 = 3·16666.) */
static void test_allgather_ompi_labels(void)
{
  static const Case cases[] = {
    { 2, 1, "ompi(rdb)" },           { 2, 24999, "ompi(rdb)" },
    { 2, 25000, "ompi(rdb)" },       { 2, 1 << 20, "ompi(rdb)" },
    { 3, 16666, "ompi(bruck)" },     /* 49998 */
    { 3, 16667, "ompi(ring)" },      /* 50001 */
    { 4, 12499, "ompi(rdb)" },       /* 49996 */
    { 4, 12500, "ompi(neighbor)" },  /* 50000 */
    { 5, 9999, "ompi(bruck)" },      /* 49995 */
    { 5, 10000, "ompi(ring)" },      /* 50000 */
    { 10, 4999, "ompi(bruck)" },     /* 49990 */
    { 10, 5000, "ompi(neighbor)" },  /* 50000 */
    { 12, 1, "ompi(bruck)" },        { 12, 1 << 20, "ompi(neighbor)" },
    { 13, 1, "ompi(bruck)" },        { 13, 1 << 20, "ompi(ring)" },
    { 16, 3124, "ompi(rdb)" },       /* 49984 */
    { 16, 3125, "ompi(neighbor)" },  /* 50000 */
    { 64, 1 << 20, "ompi(neighbor)" },
  };
  check_labels(NS_COLL_ALLGATHER, "ompi", cases, G_N_ELEMENTS(cases));
}

/* ---- bcast/mpich ------------------------------------------------------------- */

/* msize < 12288 or p < 8 → binomial; else (2^k and < 524288: scatter +
 * recursive doubling, approximated) scatter-allgather. */
static void test_bcast_mpich_labels(void)
{
  static const Case cases[] = {
    { 2, 1 << 20, "mpich(binomial)" },  { 7, 1 << 20, "mpich(binomial)" },
    { 8, 12287, "mpich(binomial)" },    { 8, 12288, "mpich(scatter-allgather)" },
    { 8, 524287, "mpich(scatter-allgather)" }, { 8, 524288, "mpich(scatter-allgather)" },
    { 12, 12287, "mpich(binomial)" },   { 12, 12288, "mpich(scatter-allgather)" },
    { 13, 1, "mpich(binomial)" },       { 16, 1 << 20, "mpich(scatter-allgather)" },
  };
  check_labels(NS_COLL_BCAST, "mpich", cases, G_N_ELEMENTS(cases));
  /* MPICH does not segment: a user segment is ignored. Binomial sends the
   * whole message; the scatter cuts it into p blocks of ⌈msize/p⌉. */
  g_autoptr(NsTopology) t = star(12);
  g_autoptr(NsSchedule) b = plan(t, NS_COLL_BCAST, "mpich", 12287, 3, 1024);
  g_assert_cmpuint(b->n_segments, ==, 1);
  g_assert_cmpuint(b->msize, ==, 12287);
  g_assert_cmpint(b->root, ==, 3);
  g_autoptr(NsSchedule) sa = plan(t, NS_COLL_BCAST, "mpich", 12288, 3, 1024);
  g_assert_cmpuint(sa->n_segments, ==, 12);
  g_assert_cmpuint(sa->msize, ==, 1024);
  g_autoptr(NsSchedule) sb = plan(t, NS_COLL_BCAST, "mpich", 100000, 3, 1024);
  g_assert_cmpuint(sb->n_segments, ==, 12);
  g_assert_cmpuint(sb->msize, ==, 8334); /* ⌈100000/12⌉ */
  check_complete(t, sb);
}

/* ---- bcast/ompi --------------------------------------------------------------- */

typedef struct {
  int p;
  uint64_t msize;
  const char *label;
  uint64_t segment; /* the schedule's msize */
  uint32_t x;       /* its n_segments */
} BcastCase;

/* m < 2048 → binomial; m < 370728 → split binary/1KiB (binary);
 * p < 1.6134e-6·m + 2.1102 → linear/128KiB; p < 13 → binary/8KiB;
 * p < 2.3679e-6·m + 1.1787 → linear/64KiB; p < 3.2118e-6·m + 8.7936 →
 * linear/16KiB; else linear/8KiB. The lines at m = 370728: 2.708, 2.057,
 * 9.984; at 1 MiB: 3.802, 3.662, 12.16; at 8 MiB: 15.64, 21.04, 35.74. */
static void test_bcast_ompi_segments(void)
{
  static const BcastCase cases[] = {
    { 2, 1, "ompi(binomial)", 1, 1 },
    { 64, 2047, "ompi(binomial)", 2047, 1 },
    { 13, 2047, "ompi(binomial)", 2047, 1 },
    { 2, 2048, "ompi(binary/1KiB)", 1024, 2 },
    { 64, 2048, "ompi(binary/1KiB)", 1024, 2 },
    { 12, 370727, "ompi(binary/1KiB)", 1024, 363 },
    { 13, 370727, "ompi(binary/1KiB)", 1024, 363 },
    { 2, 370728, "ompi(linear/128KiB)", 131072, 3 },
    { 3, 370728, "ompi(binary/8KiB)", 8192, 46 },
    { 12, 370728, "ompi(binary/8KiB)", 8192, 46 },
    { 13, 370728, "ompi(linear/8KiB)", 8192, 46 },
    { 2, 1 << 20, "ompi(linear/128KiB)", 131072, 8 },
    { 3, 1 << 20, "ompi(linear/128KiB)", 131072, 8 },
    { 4, 1 << 20, "ompi(binary/8KiB)", 8192, 128 },
    { 12, 1 << 20, "ompi(binary/8KiB)", 8192, 128 },
    { 13, 1 << 20, "ompi(linear/8KiB)", 8192, 128 },
    { 12, 8 << 20, "ompi(linear/128KiB)", 131072, 64 },
    { 13, 8 << 20, "ompi(linear/128KiB)", 131072, 64 },
    { 16, 8 << 20, "ompi(linear/64KiB)", 65536, 128 },
    { 21, 8 << 20, "ompi(linear/64KiB)", 65536, 128 },
    { 22, 8 << 20, "ompi(linear/16KiB)", 16384, 512 },
    { 35, 8 << 20, "ompi(linear/16KiB)", 16384, 512 },
    { 36, 8 << 20, "ompi(linear/8KiB)", 8192, 1024 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = star(cases[i].p);
    int root = cases[i].p / 2;
    /* the user's segment is overridden, as Open MPI does */
    g_autoptr(NsSchedule) s = plan(t, NS_COLL_BCAST, "ompi", cases[i].msize, root, 4096);
    if (g_strcmp0(s->algorithm, cases[i].label) != 0)
      g_error("bcast/ompi p=%d msize=%" G_GUINT64_FORMAT ": chose %s, expected %s",
              cases[i].p, cases[i].msize, s->algorithm, cases[i].label);
    g_assert_cmpuint(s->msize, ==, cases[i].segment);
    g_assert_cmpuint(s->n_segments, ==, cases[i].x);
    g_assert_cmpint(s->root, ==, root);
    check_complete(t, s);
  }
  /* A forced segment too small for a huge message: refused, naming the
   * branch (2^40 / 128 KiB · 63 transfers > NS_BCAST_MAX_TRANSFERS). */
  g_autoptr(NsTopology) t = star(64);
  NsPlanParams huge = { .msize = UINT64_C(1) << 40 };
  GError *error = NULL;
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "ompi", &huge, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_nonnull(strstr(error->message, "bcast/ompi chose ompi(linear/128KiB)"));
  g_clear_error(&error);
  NsPlanParams bad_root = { .msize = 1024, .root = 64 };
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "ompi", &bad_root, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "mpich", &bad_root, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
}

/* ---- every selector on stars, trees and random trees ---------------------- */

/* Message sizes crossing every threshold of every selector. */
static const uint64_t sizes[] = { 1,     199,    200,    2047,   2048,   2999,
                                  3000,  12287,  12288,  50000,  370727, 370728,
                                  524288, 1 << 20 };

static void check_everything(const NsTopology *t, uint64_t seed)
{
  int p = ns_topology_n_machines(t);
  static const struct { NsCollective c; const char *algo; } sel[] = {
    { NS_COLL_ALLTOALL, "ompi" }, { NS_COLL_ALLGATHER, "mpich" },
    { NS_COLL_ALLGATHER, "ompi" }, { NS_COLL_BCAST, "mpich" },
    { NS_COLL_BCAST, "ompi" },
  };
  for (gsize a = 0; a < G_N_ELEMENTS(sel); a++)
    for (gsize z = 0; z < G_N_ELEMENTS(sizes); z++) {
      /* keep the run short: large alltoalls of many machines on a few sizes */
      if (sel[a].c != NS_COLL_BCAST && p > 40 && z % 3 != 0)
        continue;
      int root = (int)((seed + z) % (uint64_t)p);
      g_autoptr(NsSchedule) s = plan(t, sel[a].c, sel[a].algo, sizes[z], root, 0);
      g_assert_true(g_str_has_prefix(s->algorithm, sel[a].algo));
      check_complete(t, s);
    }
  if (p % 2 == 0) {
    g_autoptr(NsSchedule) s = plan(t, NS_COLL_ALLGATHER, "neighbor", 1000, 0, 0);
    check_complete(t, s);
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, (uint32_t)(p / 2));
  }
}

static void test_stars_and_trees(void)
{
  const int ps[] = { 2, 3, 4, 7, 8, 12, 13, 16, 24, 33 };
  for (gsize i = 0; i < G_N_ELEMENTS(ps); i++) {
    g_autoptr(NsTopology) t = star(ps[i]);
    check_everything(t, i);
  }
  const int shapes[][3] = { { 4, 8, 0 }, { 3, 5, 0 }, { 2, 3, 4 }, { 4, 4, 4 } };
  for (gsize i = 0; i < G_N_ELEMENTS(shapes); i++) {
    int levels = shapes[i][2] ? 3 : 2;
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_tree(shapes[i], levels, 100e6, 10e-6, &error);
    g_assert_no_error(error);
    check_everything(t, i);
  }
  g_autoptr(NsTopology) fb = ns_test_topology("faraj-b.topo");
  check_everything(fb, 7);
}

/* 100 seeded random trees of every kind, 2..60 machines. */
static void test_random_trees(void)
{
  const NsRandomKind kinds[] = { NS_RANDOM_UNIFORM, NS_RANDOM_STAR, NS_RANDOM_CHAIN,
                                 NS_RANDOM_DEEP, NS_RANDOM_UNBALANCED };
  for (uint64_t seed = 1; seed <= 100; seed++) {
    int machines = 2 + (int)(seed * 7919 % 59);
    int switches = 1 + (int)(seed * 104729 % (uint64_t)MAX(machines / 2, 1));
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_random(seed, machines, switches,
                                              kinds[seed % G_N_ELEMENTS(kinds)], 100e6,
                                              10e-6, &error);
    g_assert_no_error(error);
    check_everything(t, seed);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/mpi-selectors/registry", test_registry);
  g_test_add_func("/mpi-selectors/alltoall-ompi-labels", test_alltoall_ompi_labels);
  g_test_add_func("/mpi-selectors/alltoall-ompi-orders", test_alltoall_ompi_orders);
  g_test_add_func("/mpi-selectors/neighbor-structure", test_neighbor_structure);
  g_test_add_func("/mpi-selectors/neighbor-odd-refused", test_neighbor_odd_refused);
  g_test_add_func("/mpi-selectors/allgather-mpich-labels", test_allgather_mpich_labels);
  g_test_add_func("/mpi-selectors/allgather-ompi-labels", test_allgather_ompi_labels);
  g_test_add_func("/mpi-selectors/bcast-mpich-labels", test_bcast_mpich_labels);
  g_test_add_func("/mpi-selectors/bcast-ompi-segments", test_bcast_ompi_segments);
  g_test_add_func("/mpi-selectors/stars-and-trees", test_stars_and_trees);
  g_test_add_func("/mpi-selectors/random-trees-100", test_random_trees);
  return g_test_run();
}
