/* The topology-unaware "what MPI does out of the box" selectors — `mpich`
 * (MPICH 4.0.2), `ompi` (Open MPI 4.1.4), `ompi-legacy` (Open MPI 1.6 -
 * 3.x), decision tables in sched/planners/select/ — and the algorithms of
 * Open MPI they pick (neighbor exchange, basic linear, bmtree, bintree,
 * knomial). Every expected label below is derived by hand from the
 * libraries' decisions (docs/algorithms.md, "MPI default selectors"), and
 * Open MPI 4.1.4's thresholds are read from its source, not off the
 * tables. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/planners/select/selector_internal.h"
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
  default: /* the reductions' and v-collectives' selectors: complete is enough */
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

/* ---- alltoall/ompi-legacy (Open MPI 1.6 - 3.x) -------------------------------------------------------- */

/* p == 2 → pair; msize < 200 and p > 12 → bruck; msize < 3000 → basic
 * linear; else ring (Open MPI's pairwise: i → i+k). */
static void test_alltoall_ompi_legacy_labels(void)
{
  static const Case cases[] = {
    { 2, 1, "ompi-legacy(pair)" },          { 2, 199, "ompi-legacy(pair)" },
    { 2, 200, "ompi-legacy(pair)" },        { 2, 2999, "ompi-legacy(pair)" },
    { 2, 3000, "ompi-legacy(pair)" },       { 2, 1 << 20, "ompi-legacy(pair)" },
    { 3, 1, "ompi-legacy(basic-linear)" },  { 3, 3000, "ompi-legacy(ring)" },
    { 12, 1, "ompi-legacy(basic-linear)" }, { 12, 199, "ompi-legacy(basic-linear)" },
    { 12, 200, "ompi-legacy(basic-linear)" }, { 12, 2999, "ompi-legacy(basic-linear)" },
    { 12, 3000, "ompi-legacy(ring)" },      { 13, 1, "ompi-legacy(bruck)" },
    { 13, 199, "ompi-legacy(bruck)" },      { 13, 200, "ompi-legacy(basic-linear)" },
    { 13, 2999, "ompi-legacy(basic-linear)" }, { 13, 3000, "ompi-legacy(ring)" },
    { 16, 199, "ompi-legacy(bruck)" },      { 16, 200, "ompi-legacy(basic-linear)" },
    { 16, 2999, "ompi-legacy(basic-linear)" }, { 16, 3000, "ompi-legacy(ring)" },
    { 16, 1 << 20, "ompi-legacy(ring)" },   { 24, 199, "ompi-legacy(bruck)" },
    { 24, 3000, "ompi-legacy(ring)" },      { 4, 199, "ompi-legacy(basic-linear)" },
  };
  check_labels(NS_COLL_ALLTOALL, "ompi-legacy", cases, G_N_ELEMENTS(cases));
}

/* The shapes of the choices: basic linear posts i→i−1, i−2, … at once;
 * Open MPI's pairwise is the shift i → i+k in phase k (not XOR). */
static void test_alltoall_ompi_legacy_orders(void)
{
  const int p = 7;
  g_autoptr(NsTopology) t = star(p);
  g_autoptr(NsSchedule) lin = plan(t, NS_COLL_ALLTOALL, "ompi-legacy", 1000, 0, 0);
  g_assert_cmpstr(lin->algorithm, ==, "ompi-legacy(basic-linear)");
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
  g_autoptr(NsSchedule) pw = plan(t8, NS_COLL_ALLTOALL, "ompi-legacy", 65536, 0, 0);
  g_assert_cmpstr(pw->algorithm, ==, "ompi-legacy(ring)");
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
  g_autoptr(NsSchedule) two = plan(t2, NS_COLL_ALLTOALL, "ompi-legacy", 1, 0, 0);
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
static void test_allgather_ompi_legacy_labels(void)
{
  static const Case cases[] = {
    { 2, 1, "ompi-legacy(rdb)" },           { 2, 24999, "ompi-legacy(rdb)" },
    { 2, 25000, "ompi-legacy(rdb)" },       { 2, 1 << 20, "ompi-legacy(rdb)" },
    { 3, 16666, "ompi-legacy(bruck)" },     /* 49998 */
    { 3, 16667, "ompi-legacy(ring)" },      /* 50001 */
    { 4, 12499, "ompi-legacy(rdb)" },       /* 49996 */
    { 4, 12500, "ompi-legacy(neighbor)" },  /* 50000 */
    { 5, 9999, "ompi-legacy(bruck)" },      /* 49995 */
    { 5, 10000, "ompi-legacy(ring)" },      /* 50000 */
    { 10, 4999, "ompi-legacy(bruck)" },     /* 49990 */
    { 10, 5000, "ompi-legacy(neighbor)" },  /* 50000 */
    { 12, 1, "ompi-legacy(bruck)" },        { 12, 1 << 20, "ompi-legacy(neighbor)" },
    { 13, 1, "ompi-legacy(bruck)" },        { 13, 1 << 20, "ompi-legacy(ring)" },
    { 16, 3124, "ompi-legacy(rdb)" },       /* 49984 */
    { 16, 3125, "ompi-legacy(neighbor)" },  /* 50000 */
    { 64, 1 << 20, "ompi-legacy(neighbor)" },
  };
  check_labels(NS_COLL_ALLGATHER, "ompi-legacy", cases, G_N_ELEMENTS(cases));
}

/* ---- bcast/mpich ------------------------------------------------------------- */

/* MPICH 4.0.2: msize <= 12288 or p < 8 → binomial; else (2^k and <=
 * 524288: scatter + recursive doubling, approximated) scatter-allgather. */
static void test_bcast_mpich_labels(void)
{
  static const Case cases[] = {
    { 2, 1 << 20, "mpich(binomial)" },  { 7, 1 << 20, "mpich(binomial)" },
    { 8, 12287, "mpich(binomial)" },    { 8, 12288, "mpich(binomial)" }, /* MPICH 4: <= */
    { 8, 12289, "mpich(scatter-allgather)" },
    { 8, 524287, "mpich(scatter-allgather)" }, { 8, 524288, "mpich(scatter-allgather)" },
    { 12, 12288, "mpich(binomial)" },   { 12, 12289, "mpich(scatter-allgather)" },
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
  g_autoptr(NsSchedule) sa = plan(t, NS_COLL_BCAST, "mpich", 12289, 3, 1024);
  g_assert_cmpuint(sa->n_segments, ==, 12);
  g_assert_cmpuint(sa->msize, ==, 1025); /* ⌈12289/12⌉ */
  g_autoptr(NsSchedule) sb = plan(t, NS_COLL_BCAST, "mpich", 100000, 3, 1024);
  g_assert_cmpuint(sb->n_segments, ==, 12);
  g_assert_cmpuint(sb->msize, ==, 8334); /* ⌈100000/12⌉ */
  check_complete(t, sb);
}

/* ---- bcast/ompi-legacy --------------------------------------------------------------- */

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
static void test_bcast_ompi_legacy_segments(void)
{
  static const BcastCase cases[] = {
    { 2, 1, "ompi-legacy(binomial)", 1, 1 },
    { 64, 2047, "ompi-legacy(binomial)", 2047, 1 },
    { 13, 2047, "ompi-legacy(binomial)", 2047, 1 },
    { 2, 2048, "ompi-legacy(binary/1KiB)", 1024, 2 },
    { 64, 2048, "ompi-legacy(binary/1KiB)", 1024, 2 },
    { 12, 370727, "ompi-legacy(binary/1KiB)", 1024, 363 },
    { 13, 370727, "ompi-legacy(binary/1KiB)", 1024, 363 },
    { 2, 370728, "ompi-legacy(linear/128KiB)", 131072, 3 },
    { 3, 370728, "ompi-legacy(binary/8KiB)", 8192, 46 },
    { 12, 370728, "ompi-legacy(binary/8KiB)", 8192, 46 },
    { 13, 370728, "ompi-legacy(linear/8KiB)", 8192, 46 },
    { 2, 1 << 20, "ompi-legacy(linear/128KiB)", 131072, 8 },
    { 3, 1 << 20, "ompi-legacy(linear/128KiB)", 131072, 8 },
    { 4, 1 << 20, "ompi-legacy(binary/8KiB)", 8192, 128 },
    { 12, 1 << 20, "ompi-legacy(binary/8KiB)", 8192, 128 },
    { 13, 1 << 20, "ompi-legacy(linear/8KiB)", 8192, 128 },
    { 12, 8 << 20, "ompi-legacy(linear/128KiB)", 131072, 64 },
    { 13, 8 << 20, "ompi-legacy(linear/128KiB)", 131072, 64 },
    { 16, 8 << 20, "ompi-legacy(linear/64KiB)", 65536, 128 },
    { 21, 8 << 20, "ompi-legacy(linear/64KiB)", 65536, 128 },
    { 22, 8 << 20, "ompi-legacy(linear/16KiB)", 16384, 512 },
    { 35, 8 << 20, "ompi-legacy(linear/16KiB)", 16384, 512 },
    { 36, 8 << 20, "ompi-legacy(linear/8KiB)", 8192, 1024 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = star(cases[i].p);
    int root = cases[i].p / 2;
    /* the user's segment is overridden, as Open MPI does */
    g_autoptr(NsSchedule) s = plan(t, NS_COLL_BCAST, "ompi-legacy", cases[i].msize, root, 4096);
    if (g_strcmp0(s->algorithm, cases[i].label) != 0)
      g_error("bcast/ompi-legacy p=%d msize=%" G_GUINT64_FORMAT ": chose %s, expected %s",
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
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "ompi-legacy", &huge, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_nonnull(strstr(error->message, "bcast/ompi-legacy chose ompi-legacy(linear/128KiB)"));
  g_clear_error(&error);
  NsPlanParams bad_root = { .msize = 1024, .root = 64 };
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "ompi-legacy", &bad_root, &error));
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
                                  524288, 1 << 20, 4,      511,    512,    32768 };

static void check_everything(const NsTopology *t, uint64_t seed)
{
  int p = ns_topology_n_machines(t);
  static const struct { NsCollective c; const char *algo; } sel[] = {
    { NS_COLL_ALLTOALL, "ompi" },        { NS_COLL_ALLGATHER, "mpich" },
    { NS_COLL_ALLGATHER, "ompi" },       { NS_COLL_BCAST, "mpich" },
    { NS_COLL_BCAST, "ompi" },           { NS_COLL_ALLTOALL, "mpich" },
    { NS_COLL_ALLTOALL, "ompi-legacy" }, { NS_COLL_ALLGATHER, "ompi-legacy" },
    { NS_COLL_BCAST, "ompi-legacy" },
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

/* ---- the tables: registered algorithms, no gaps --------------------------- */

/* Every algorithm a table names is the registered planner of that name and
 * collective (what `plan --list` shows), called through the same function;
 * every table's own name is a registered selector. */
static void test_tables_registered(void)
{
  int n;
  const NsSelTable *const *tables = ns_select_tables(&n);
  g_assert_cmpint(n, ==, 17); /* 3 collectives x 3 libraries; reduce, allreduce, alltoallv and
                                allgatherv x 2 */
  for (int i = 0; i < n; i++) {
    const NsSelTable *t = tables[i];
    const NsPlanner *self = ns_planner_find(t->collective, t->name);
    g_assert_nonnull(self);
    g_assert_cmpstr(self->name, ==, t->name);
    g_assert_nonnull(t->mirrors);
    g_assert_cmpint(t->n_rows, >, 0);
    for (int r = 0; r < t->n_rows; r++) {
      const NsSelRow *row = &t->rows[r];
      const NsPlanner *p = ns_planner_find(t->collective, row->algorithm);
      if (p == NULL)
        g_error("%s/%s row %d: %s is not registered", ns_collective_name(t->collective),
                t->name, r, row->algorithm);
      g_assert_cmpstr(p->name, ==, row->algorithm);
      g_assert_true(p->plan == row->plan);
      g_assert_false(p->needs_tree);
      g_assert_nonnull(row->library_name);
      g_assert_true(row->p_below == 0 || row->p_from < row->p_below);
      g_assert_true(row->size_below == 0 || row->size_from < row->size_below);
    }
  }
}

/* Some row applies to every p and size: p 2..300 and the powers of two
 * around every band up to 2^14, sizes at every boundary of every row and
 * one beyond. */
static void test_tables_total(void)
{
  int n;
  const NsSelTable *const *tables = ns_select_tables(&n);
  GArray *ps = g_array_new(FALSE, FALSE, sizeof(int));
  for (int p = 2; p <= 300; p++)
    g_array_append_val(ps, p);
  for (int k = 9; k <= 14; k++)
    for (int d = -1; d <= 1; d++) {
      int p = (1 << k) + d;
      g_array_append_val(ps, p);
    }
  for (int i = 0; i < n; i++) {
    const NsSelTable *t = tables[i];
    for (guint j = 0; j < ps->len; j++) {
      int p = g_array_index(ps, int, j);
      for (int r = 0; r < t->n_rows; r++) {
        const uint64_t b[] = { t->rows[r].size_from, t->rows[r].size_below };
        for (int e = 0; e < 2; e++)
          for (int d = -1; d <= 1; d++) {
            uint64_t size = b[e] + (uint64_t)(int64_t)d;
            if (size == 0 || size > UINT64_C(1) << 40)
              continue;
            uint64_t msize = t->measure == NS_SEL_TOTAL ? MAX(size / (uint64_t)p, 1) : size;
            if (ns_select_row(t, p, msize) == NULL)
              g_error("%s/%s: no row for p=%d msize=%" G_GUINT64_FORMAT,
                      ns_collective_name(t->collective), t->name, p, msize);
          }
      }
      g_assert_nonnull(ns_select_row(t, p, UINT64_C(1) << 40));
    }
  }
  g_array_free(ps, TRUE);
}

/* ---- Open MPI 4.1.4 ------------------------------------------------------- */

/* Open MPI 4.1.4's coll_tuned_decision_fixed.c, read as data: for the
 * communicator sizes p_from <= p < p_below (0: no limit), the message-size
 * thresholds in increasing order (0-terminated) and Open MPI's algorithm
 * number below the first, between each two and from the last one on
 * ("if (total_dsize < th[0]) alg = alg[0]; else if ... else alg = alg[n]").
 * Extracted from the v4.1.4 source, not from netsched's tables. */
typedef struct {
  int p_from, p_below;
  uint64_t th[10];
  int alg[11];
} Band;

static const Band ompi_alltoall_bands[] = {
  { 2, 3, { 2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576 }, { 2, 5, 2, 5, 2, 5, 2, 4, 5, 2 } },
  { 3, 8, { 8192, 16384, 65536, 524288, 1048576 }, { 4, 1, 4, 1, 2, 1 } },
  { 8, 16, { 262144 }, { 4, 1 } },
  { 16, 32, { 4, 512, 8192, 32768, 262144, 524288 }, { 4, 3, 4, 1, 4, 1, 4 } },
  { 32, 64, { 512, 524288 }, { 3, 1, 4 } },
  { 64, 128, { 1024, 2048, 4096, 262144 }, { 3, 1, 4, 1, 2 } },
  { 128, 256, { 1024, 2048, 262144 }, { 3, 4, 1, 2 } },
  { 256, 512, { 1024, 8192, 32768 }, { 3, 4, 1, 2 } },
  { 512, 1024, { 512, 8192, 16384, 131072, 262144 }, { 3, 4, 1, 4, 1, 2 } },
  { 1024, 2048, { 512, 1024, 2048, 16384, 262144 }, { 3, 4, 1, 4, 1, 4 } },
  { 2048, 4096, { 1024, 4096, 8192, 131072 }, { 3, 4, 1, 4, 1 } },
  { 4096, 0, { 2048, 8192, 16384, 32768, 65536 }, { 3, 4, 1, 4, 1, 4 } },
};
static const Band ompi_allgather_bands[] = {
  { 2, 3, {  }, { 6 } },
  { 3, 32, {  }, { 3 } },
  { 32, 64, { 1024, 65536 }, { 3, 5, 4 } },
  { 64, 128, { 512, 65536 }, { 3, 5, 4 } },
  { 128, 256, { 512, 131072, 524288, 1048576 }, { 3, 5, 4, 5, 4 } },
  { 256, 512, { 32, 128, 1024, 131072, 524288, 1048576 }, { 3, 2, 3, 5, 4, 5, 4 } },
  { 512, 1024, { 64, 256, 2048 }, { 3, 2, 3, 5 } },
  { 1024, 2048, { 4, 8, 16, 32, 256, 512, 4096 }, { 3, 2, 3, 2, 3, 2, 3, 5 } },
  { 2048, 4096, { 32, 128, 512, 4096 }, { 2, 3, 2, 3, 5 } },
  { 4096, 0, { 2, 8, 16, 512, 4096 }, { 3, 2, 3, 2, 3, 5 } },
};
static const Band ompi_bcast_bands[] = {
  { 0, 4, { 32, 256, 512, 1024, 32768, 131072, 262144, 524288, 1048576 }, { 3, 5, 3, 7, 1, 5, 2, 1, 6, 5 } },
  { 4, 8, { 64, 128, 2048, 8192, 1048576 }, { 5, 6, 5, 6, 1, 2 } },
  { 8, 16, { 8, 64, 4096, 16384, 32768 }, { 7, 5, 7, 5, 6, 1 } },
  { 16, 32, { 4096, 1048576 }, { 7, 6, 8 } },
  { 32, 64, { 2048 }, { 6, 7 } },
  { 64, 128, {  }, { 7 } },
  { 128, 256, { 2, 16384, 32768, 65536 }, { 6, 5, 1, 5, 7 } },
  { 256, 1024, { 16384, 32768 }, { 7, 4, 7 } },
  { 1024, 2048, { 524288 }, { 7, 8 } },
  { 2048, 4096, { 262144 }, { 7, 8 } },
  { 4096, 0, { 8192, 16384, 262144 }, { 7, 5, 7, 8 } },
};
/* The commutative branch of ompi_coll_tuned_reduce_intra_dec_fixed. */
static const Band ompi_reduce_bands[] = {
  { 0, 4, { 8, 16, 32, 262144, 524288, 1048576 }, { 7, 4, 3, 1, 3, 2, 3 } },
  { 4, 8, { 4096, 65536, 262144, 524288, 1048576 }, { 4, 2, 5, 1, 5, 1 } },
  { 8, 16, { 8192 }, { 4, 5 } },
  { 16, 32, { 4096 }, { 4, 5 } },
  { 32, 256, {  }, { 5 } },
  { 256, 512, { 8192, 16384 }, { 5, 6, 5 } },
  { 512, 2048, {  }, { 5 } },
  { 2048, 4096, { 512, 1024, 8192, 16384 }, { 5, 6, 5, 6, 5 } },
  { 4096, 0, { 16, 32, 1024, 2048, 8192, 16384 }, { 5, 6, 5, 6, 5, 6, 5 } },
};

/* Open MPI's name of algorithm `alg` (coll_tuned_<collective>_decision.c)
 * and the planner netsched plans it with on p machines. */
static void ompi_algorithm(NsCollective c, int alg, int p, const char **lib, const char **planner)
{
  static const char *const a2a[][2] = { { NULL, NULL },
                                        { "linear", "basic-linear" },
                                        { "pairwise", "ring" },
                                        { "modified_bruck", "bruck" },
                                        { "linear_sync", "basic-linear" },
                                        { "two_proc", "pair" } };
  static const char *const ag[][2] = { { NULL, NULL },
                                       { "linear", NULL },
                                       { "bruck", "bruck" },
                                       { "recursive_doubling", "rdb" },
                                       { "ring", "ring" },
                                       { "neighbor", "neighbor" },
                                       { "two_proc", "rdb" } };
  static const char *const bc[][2] = { { NULL, NULL },
                                       { "basic_linear", "flat" },
                                       { "chain", "linear" },
                                       { "pipeline", "linear" },
                                       { "split_binary_tree", "bintree" },
                                       { "binary_tree", "bintree" },
                                       { "binomial", "bmtree" },
                                       { "knomial", "knomial" },
                                       { "scatter_allgather", "scatter-allgather" } };
  static const char *const re[][2] = { { NULL, NULL },
                                       { "linear", "flat" },
                                       { "chain", "linear" },
                                       { "pipeline", "linear" },
                                       { "binary", "bintree" },
                                       { "binomial", "binomial" },
                                       { "in-order_binary", "bintree" },
                                       { "rabenseifner", "rabenseifner" } };
  const char *const(*names)[2] = c == NS_COLL_ALLTOALL    ? a2a
                                 : c == NS_COLL_ALLGATHER ? ag
                                 : c == NS_COLL_REDUCE    ? re
                                                          : bc;
  *lib = names[alg][0];
  *planner = names[alg][1];
  /* Open MPI's own fallbacks (coll_base_allgather.c) */
  if (c == NS_COLL_ALLGATHER && alg == 3 && (p & (p - 1)) != 0)
    *planner = "bruck";
  if (c == NS_COLL_ALLGATHER && alg == 5 && p % 2 != 0)
    *planner = "ring";
}

static void check_bands(const NsSelTable *t, const Band *bands, gsize n_bands)
{
  int checked = 0;
  for (gsize i = 0; i < n_bands; i++) {
    const Band *b = &bands[i];
    int lo = MAX(b->p_from, 2), hi = b->p_below != 0 ? b->p_below - 1 : lo + 904;
    int ps[6] = { lo, lo + 1, hi - 1, hi, 0, 0 };
    int np = 4;
    for (int q = 1; q <= hi; q *= 2)
      if (q >= lo)
        ps[np++] = q, q = hi; /* one power of two in the band, when there is one */
    int nth = 0;
    while (nth < 10 && b->th[nth] != 0)
      nth++;
    for (int k = 0; k < np; k++) {
      int p = ps[k];
      if (p < lo || p > hi)
        continue;
      for (int j = -1; j < 2 * nth + 1; j++) {
        /* size 1, then every threshold minus one and the threshold */
        uint64_t size = j < 0 ? 1 : j == 2 * nth ? UINT64_C(1) << 30 : b->th[j / 2] - (j % 2 == 0);
        int idx = 0;
        while (idx < nth && size >= b->th[idx])
          idx++;
        const char *lib, *planner;
        ompi_algorithm(t->collective, b->alg[idx], p, &lib, &planner);
        /* Open MPI's rabenseifner reduce runs basic linear for count < pof2 */
        int pof2 = 1;
        while (pof2 * 2 <= p)
          pof2 *= 2;
        if (t->collective == NS_COLL_REDUCE && b->alg[idx] == 7 && size < (uint64_t)pof2)
          planner = "flat";
        const NsSelRow *row = ns_select_row(t, p, size);
        if (row == NULL || g_strcmp0(row->library_name, lib) != 0 ||
            g_strcmp0(row->algorithm, planner) != 0)
          g_error("%s/ompi p=%d size=%" G_GUINT64_FORMAT ": table says %s (%s), Open MPI 4.1.4 "
                  "runs %s (%s)", ns_collective_name(t->collective), p, size,
                  row ? row->library_name : "nothing", row ? row->algorithm : "-", lib, planner);
        g_assert_cmpuint(row->segment, ==, 0); /* do_this(..., alg, 0, 0) */
        checked++;
      }
    }
  }
  g_assert_cmpint(checked, >, 100);
}

static void test_ompi_4_1_4_decisions(void)
{
  check_bands(&ns_sel_alltoall_ompi, ompi_alltoall_bands, G_N_ELEMENTS(ompi_alltoall_bands));
  check_bands(&ns_sel_allgather_ompi, ompi_allgather_bands, G_N_ELEMENTS(ompi_allgather_bands));
  check_bands(&ns_sel_bcast_ompi, ompi_bcast_bands, G_N_ELEMENTS(ompi_bcast_bands));
  check_bands(&ns_sel_reduce_ompi, ompi_reduce_bands, G_N_ELEMENTS(ompi_reduce_bands));
  g_assert_cmpint(ns_select_row(&ns_sel_bcast_ompi, 64, 1000)->arity, ==, 4); /* knomial radix */
}

/* The plans themselves, with their labels, at rank counts 2, 15, 16, 63, 64. */
static void test_ompi_4_1_4_labels(void)
{
  static const Case a2a[] = {
    { 2, 1, "ompi(ring)" },              { 2, 2, "ompi(pair)" },
    { 2, 262143, "ompi(basic-linear)" }, { 2, 1 << 20, "ompi(ring)" },
    { 15, 1, "ompi(basic-linear)" },     { 15, 262144, "ompi(basic-linear)" },
    { 16, 3, "ompi(basic-linear)" },     { 16, 4, "ompi(bruck)" },
    { 16, 511, "ompi(bruck)" },          { 16, 512, "ompi(basic-linear)" },
    { 63, 511, "ompi(bruck)" },          { 63, 512, "ompi(basic-linear)" },
    { 63, 65536, "ompi(basic-linear)" }, { 64, 65536, "ompi(basic-linear)" },
    { 64, 262144, "ompi(ring)" },        { 7, 524288, "ompi(ring)" },
  };
  check_labels(NS_COLL_ALLTOALL, "ompi", a2a, G_N_ELEMENTS(a2a));
  static const Case ag[] = {
    { 2, 1 << 20, "ompi(rdb)" },     { 15, 1 << 20, "ompi(bruck)" },
    { 16, 1 << 20, "ompi(rdb)" },    { 63, 1023, "ompi(bruck)" },
    { 63, 1024, "ompi(ring)" },      { 64, 511, "ompi(rdb)" },
    { 64, 512, "ompi(neighbor)" },   { 64, 65536, "ompi(ring)" },
    { 33, 65535, "ompi(ring)" },     { 34, 65535, "ompi(neighbor)" },
  };
  check_labels(NS_COLL_ALLGATHER, "ompi", ag, G_N_ELEMENTS(ag));
  static const Case bc[] = {
    { 2, 31, "ompi(linear)" },           { 2, 32, "ompi(bintree)" },
    { 3, 1023, "ompi(knomial)" },        { 3, 1024, "ompi(flat)" },
    { 7, 127, "ompi(bmtree)" },          { 7, 1 << 20, "ompi(linear)" },
    { 15, 32767, "ompi(bmtree)" },       { 15, 32768, "ompi(flat)" },
    { 16, 4095, "ompi(knomial)" },       { 16, 4096, "ompi(bmtree)" },
    { 16, 1 << 20, "ompi(scatter-allgather)" },
    { 63, 2047, "ompi(bmtree)" },        { 63, 2048, "ompi(knomial)" },
    { 64, 1, "ompi(knomial)" },          { 64, 1 << 20, "ompi(knomial)" },
  };
  check_labels(NS_COLL_BCAST, "ompi", bc, G_N_ELEMENTS(bc));
  /* Open MPI 4.1.4 does not segment: a user segment is overridden by 0. */
  g_autoptr(NsTopology) t = star(64);
  g_autoptr(NsSchedule) s = plan(t, NS_COLL_BCAST, "ompi", 1 << 20, 5, 8192);
  g_assert_cmpuint(s->n_segments, ==, 1);
  g_assert_cmpint(s->root, ==, 5);
}

/* MPICH 4.0.2: Bruck only from 8 processes on (comm_size<8 → scattered). */
static void test_mpich_4_0_2_alltoall(void)
{
  static const Case cases[] = {
    { 2, 1, "mpich(spread)" },       { 7, 256, "mpich(spread)" },
    { 7, 32768, "mpich(spread)" },   { 7, 32769, "mpich(ring)" },
    { 4, 32769, "mpich(pair)" },     { 8, 256, "mpich(bruck)" },
    { 8, 257, "mpich(spread)" },     { 8, 32768, "mpich(spread)" },
    { 8, 32769, "mpich(pair)" },     { 24, 1, "mpich(bruck)" },
    { 24, 32769, "mpich(ring)" },
  };
  check_labels(NS_COLL_ALLTOALL, "mpich", cases, G_N_ELEMENTS(cases));
}

/* ---- reduce (issue #22) -------------------------------------------------- */

/* MPICH 4.0.2's generic.json (collective=reduce): binomial for
 * avg_msg_size <= 2048 or count < pof2, else reduce_scatter_gather; Open
 * MPI 4.1.4's commutative table. */
static void test_reduce_labels(void)
{
  static const Case mpich[] = {
    { 2, 1, "mpich(binomial)" },          { 16, 2048, "mpich(binomial)" },
    { 16, 2049, "mpich(rabenseifner)" },  { 7, 1 << 20, "mpich(rabenseifner)" },
  };
  check_labels(NS_COLL_REDUCE, "mpich", mpich, G_N_ELEMENTS(mpich));
  /* count < pof2 matters from 4096 machines on (rows only: verifying
   * 4096 segments on 4096 machines is beyond the verifier's memory limit) */
  static const Case big[] = {
    { 4096, 2049, "binomial" },     { 4096, 4095, "binomial" },
    { 4096, 4096, "rabenseifner" }, { 8191, 4096, "rabenseifner" },
    { 8192, 8191, "binomial" },     { 8192, 8192, "rabenseifner" },
    { 1 << 30, (uint64_t)1 << 30, "rabenseifner" }, { 1 << 30, 1 << 29, "binomial" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(big); i++)
    g_assert_cmpstr(ns_select_row(&ns_sel_reduce_mpich, big[i].p, big[i].msize)->algorithm, ==,
                    big[i].label);
  static const Case ompi[] = {
    { 2, 1, "ompi(flat)" },            { 3, 2, "ompi(rabenseifner)" },
    { 3, 7, "ompi(rabenseifner)" },    { 3, 8, "ompi(bintree)" },
    { 2, 16, "ompi(linear)" },         { 2, 32, "ompi(flat)" },
    { 5, 4095, "ompi(bintree)" },      { 5, 4096, "ompi(linear)" },
    { 7, 65536, "ompi(binomial)" },    { 7, 1 << 20, "ompi(flat)" },
    { 12, 8191, "ompi(bintree)" },     { 12, 8192, "ompi(binomial)" },
    { 300, 8192, "ompi(bintree)" },    { 300, 16384, "ompi(binomial)" },
  };
  check_labels(NS_COLL_REDUCE, "ompi", ompi, G_N_ELEMENTS(ompi));
  /* The root is the user's, the segment the library's (none). */
  g_autoptr(NsTopology) t = star(12);
  g_autoptr(NsSchedule) s = plan(t, NS_COLL_REDUCE, "mpich", 1000, 5, 100);
  g_assert_cmpstr(s->algorithm, ==, "mpich(binomial)");
  g_assert_cmpint(s->root, ==, 5);
  g_assert_cmpuint(s->n_segments, ==, 1);
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 4);
}

/* ---- alltoallv and allgatherv (issue #22) --------------------------------- */

typedef struct {
  int p;
  const char *pattern;
  const char *label;
} VCase;

/* The v-collectives' tables read a measure of the pattern: MPICH the total
 * (alltoallv: always scattered; allgatherv: the gathered vector, rdb for a
 * power of two below 512 KiB, Bruck below 80 KiB, else the ring), Open MPI
 * alltoallv p alone, allgatherv the total over p ("per_rank_dsize"). */
static void test_vector_labels(void)
{
  static const struct {
    NsCollective c;
    const char *algo;
    VCase vc;
  } cases[] = {
    { NS_COLL_ALLTOALLV, "mpich", { 5, "uniform:1KiB", "mpich(spread)" } },
    { NS_COLL_ALLTOALLV, "mpich", { 8, "random:1MiB,0.5,7", "mpich(spread)" } },
    { NS_COLL_ALLGATHERV, "mpich", { 8, "uniform:1KiB", "mpich(rdb)" } },
    { NS_COLL_ALLGATHERV, "mpich", { 8, "uniform:65535B", "mpich(rdb)" } },
    { NS_COLL_ALLGATHERV, "mpich", { 8, "uniform:64KiB", "mpich(ring)" } },
    { NS_COLL_ALLGATHERV, "mpich", { 6, "uniform:1KiB", "mpich(bruck)" } },
    { NS_COLL_ALLGATHERV, "mpich", { 6, "uniform:16KiB", "mpich(ring)" } },
    { NS_COLL_ALLTOALLV, "ompi", { 3, "uniform:1KiB", "ompi(ring)" } },
    { NS_COLL_ALLTOALLV, "ompi", { 4, "uniform:1KiB", "ompi(simple)" } },
    { NS_COLL_ALLTOALLV, "ompi", { 63, "uniform:8B", "ompi(simple)" } },
    { NS_COLL_ALLTOALLV, "ompi", { 64, "uniform:8B", "ompi(ring)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 2, "uniform:1KiB", "ompi(ring)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 2, "uniform:2KiB", "ompi(simple)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 6, "uniform:200B", "ompi(gather-bcast)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 6, "uniform:1KiB", "ompi(neighbor)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 7, "uniform:1KiB", "ompi(ring)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 12, "uniform:512B", "ompi(gather-bcast)" } },
    { NS_COLL_ALLGATHERV, "ompi", { 12, "uniform:2KiB", "ompi(bruck)" } },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    const VCase *vc = &cases[i].vc;
    GError *error = NULL;
    g_autoptr(NsTopology) t = star(vc->p);
    g_autoptr(NsSizePattern) pat =
        ns_size_pattern_generate(vc->pattern, cases[i].c, vc->p, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 1, .pattern = pat };
    g_autoptr(NsSchedule) s = ns_plan(t, cases[i].c, cases[i].algo, &params, &error);
    g_assert_no_error(error);
    if (g_strcmp0(s->algorithm, vc->label) != 0)
      g_error("%s/%s p=%d %s: chose %s, expected %s", ns_collective_name(cases[i].c),
              cases[i].algo, vc->p, vc->pattern, s->algorithm, vc->label);
    check_complete(t, s);
  }
}

/* ---- Open MPI's broadcast trees ------------------------------------------- */

/* The sender of every transfer of a one-segment broadcast: its tree parent. */
static void check_parents(const char *algo, int p, int root, int arity, int (*parent)(int, int))
{
  g_autoptr(NsTopology) t = star(p);
  NsPlanParams params = { .msize = 1000, .root = root, .arity = arity };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_BCAST, algo, &params, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(s->algorithm, ==, algo);
  g_assert_cmpuint(ns_schedule_n_transfers(s), ==, (uint64_t)(p - 1));
  for (uint64_t k = 0; k < ns_schedule_n_transfers(s); k++) {
    const NsTransfer *tr = ns_schedule_transfer(s, k);
    int r = (tr->dst - root + p) % p, q = (tr->src - root + p) % p;
    if (q != parent(r, arity))
      g_error("%s p=%d: rank %d received from %d, expected %d", algo, p, r, q, parent(r, arity));
  }
  check_complete(t, s);
}

static int bmtree_parent(int r, int arity)
{
  (void)arity;
  int high = 1;
  while (high * 2 <= r)
    high *= 2;
  return r - high;
}

static int bintree_parent(int r, int arity)
{
  (void)arity;
  /* level l holds ranks 2^l - 1 .. 2^(l+1) - 2; a child c on level l has
   * its parent on level l - 1 at c - 2^(l-1) or c - 2^l */
  int level = 0;
  while ((1 << (level + 1)) - 1 <= r)
    level++;
  int up = r - (1 << (level - 1));
  return up >= (1 << level) - 1 ? r - (1 << level) : up;
}

static int knomial_parent(int r, int k)
{
  int mask = 1;
  while (r % (k * mask) == 0)
    mask *= k;
  return r / (k * mask) * (k * mask);
}

static void test_ompi_trees(void)
{
  for (int p = 2; p <= 40; p++) {
    check_parents("bmtree", p, p / 3, 0, bmtree_parent);
    check_parents("bintree", p, p - 1, 0, bintree_parent);
    check_parents("knomial", p, 1 % p, 4, knomial_parent);
    check_parents("knomial", p, 0, 3, knomial_parent);
  }
  /* Open MPI's own examples: build_tree fanout 2, p = 7: 1 -> 3, 5 and
   * 2 -> 4, 6 (coll_base_topo.c). */
  g_assert_cmpint(bintree_parent(5, 0), ==, 1);
  g_assert_cmpint(bintree_parent(4, 0), ==, 2);
  g_assert_cmpint(bintree_parent(11, 0), ==, 3);
  /* The root of a radix-4 tree of 16 sends to 4, 8, 12, then 1, 2, 3. */
  g_autoptr(NsTopology) t = star(16);
  g_autoptr(NsSchedule) s = plan(t, NS_COLL_BCAST, "knomial", 1000, 0, 0);
  const int first[] = { 4, 8, 12, 1, 2, 3 };
  int seen = 0;
  for (uint64_t k = 0; k < ns_schedule_n_transfers(s); k++) {
    const NsTransfer *tr = ns_schedule_transfer(s, k);
    if (tr->src == 0)
      g_assert_cmpint(tr->dst, ==, first[seen++]);
  }
  g_assert_cmpint(seen, ==, 6);
  /* Radix 2 is MPICH's binomial tree, transfer for transfer. */
  for (int p = 2; p <= 33; p++) {
    g_autoptr(NsTopology) tp = star(p);
    NsPlanParams two = { .msize = 5000, .root = p / 2, .segment = 1000, .arity = 2 };
    g_autoptr(NsSchedule) a = ns_plan(tp, NS_COLL_BCAST, "knomial", &two, NULL);
    g_autoptr(NsSchedule) b = ns_plan(tp, NS_COLL_BCAST, "binomial", &two, NULL);
    g_assert_cmpuint(ns_schedule_n_phases(a), ==, ns_schedule_n_phases(b));
    g_assert_cmpuint(ns_schedule_n_transfers(a), ==, ns_schedule_n_transfers(b));
    for (uint64_t k = 0; k < ns_schedule_n_transfers(a); k++) {
      g_assert_cmpint(ns_schedule_transfer(a, k)->src, ==, ns_schedule_transfer(b, k)->src);
      g_assert_cmpint(ns_schedule_transfer(a, k)->dst, ==, ns_schedule_transfer(b, k)->dst);
    }
  }
  /* A radix below 2 is refused. */
  NsPlanParams one = { .msize = 10, .arity = 1 };
  GError *error = NULL;
  g_assert_null(ns_plan(t, NS_COLL_BCAST, "knomial", &one, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, "bcast/knomial: the radix (arity) must be at least 2 (got 1)");
  g_clear_error(&error);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/mpi-selectors/registry", test_registry);
  g_test_add_func("/mpi-selectors/alltoall-ompi-legacy-labels", test_alltoall_ompi_legacy_labels);
  g_test_add_func("/mpi-selectors/alltoall-ompi-legacy-orders", test_alltoall_ompi_legacy_orders);
  g_test_add_func("/mpi-selectors/neighbor-structure", test_neighbor_structure);
  g_test_add_func("/mpi-selectors/neighbor-odd-refused", test_neighbor_odd_refused);
  g_test_add_func("/mpi-selectors/allgather-mpich-labels", test_allgather_mpich_labels);
  g_test_add_func("/mpi-selectors/allgather-ompi-legacy-labels", test_allgather_ompi_legacy_labels);
  g_test_add_func("/mpi-selectors/bcast-mpich-labels", test_bcast_mpich_labels);
  g_test_add_func("/mpi-selectors/bcast-ompi-legacy-segments", test_bcast_ompi_legacy_segments);
  g_test_add_func("/mpi-selectors/stars-and-trees", test_stars_and_trees);
  g_test_add_func("/mpi-selectors/random-trees-100", test_random_trees);
  g_test_add_func("/mpi-selectors/tables-registered", test_tables_registered);
  g_test_add_func("/mpi-selectors/tables-total", test_tables_total);
  g_test_add_func("/mpi-selectors/ompi-4.1.4-decisions", test_ompi_4_1_4_decisions);
  g_test_add_func("/mpi-selectors/ompi-4.1.4-labels", test_ompi_4_1_4_labels);
  g_test_add_func("/mpi-selectors/mpich-4.0.2-alltoall", test_mpich_4_0_2_alltoall);
  g_test_add_func("/mpi-selectors/ompi-trees", test_ompi_trees);
  g_test_add_func("/mpi-selectors/reduce-labels", test_reduce_labels);
  g_test_add_func("/mpi-selectors/vector-labels", test_vector_labels);
  return g_test_run();
}
