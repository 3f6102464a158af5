/* The verifier's reduction and size-pattern semantics (sched/ir/schedule.h,
 * "Reductions", "Variable sizes") on hand-made schedules: a binomial
 * reduce, a ring allreduce and recursive doubling are complete; counting a
 * contribution twice, dropping one, or a copy that overwrites a larger
 * partial are each caught and described; a chunk of no bytes need not be
 * delivered, and a transfer's time is its chunks' bytes. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "analysis/bounds_collective.h"
#include "sched/lower/schedule_digest_internal.h"
#include "tests/testutil.h"
#include <string.h>

static NsTopology *tree8(void)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec("tree:2,4", &error);
  g_assert_no_error(error);
  return t;
}

static NsVerifyReport run(const NsTopology *t, const NsSchedule *s)
{
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_no_error(error);
  return r;
}

/* The data-flow checks alone (a hand-made schedule may contend). */
static gboolean correct(const NsVerifyReport *r)
{
  return r->failures[NS_CHECK_DATAFLOW] == 0 && r->failures[NS_CHECK_COMPLETE] == 0;
}

static char *first_of(const NsVerifyReport *r, const NsTopology *t, const NsSchedule *s,
                      NsFindingKind kind)
{
  for (guint i = 0; i < r->findings->len; i++) {
    const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
    if (f->kind == kind)
      return ns_finding_describe(f, t, s);
  }
  return NULL;
}

/* Binomial tree to root 0 on 8 machines, 2 segments: round k, machine
 * i with bit k set (and lower bits clear) combines into i - 2^k. */
static NsSchedule *binomial_reduce(const NsTopology *t, int skip_round, gboolean resend)
{
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_REDUCE, "hand-made", 1024);
  s->root = 0;
  s->n_segments = 2;
  const uint32_t segs[2] = { 0, 1 };
  for (int k = 0; k < 3; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < 8; i++)
      if ((i & ((1 << (k + 1)) - 1)) == (1 << k) && !(k == skip_round && i == 4))
        ns_schedule_add_combine(s, i, i - (1 << k), 2, segs);
  }
  if (resend) { /* machine 1 sends its (already combined) partial again */
    ns_schedule_begin_phase(s);
    ns_schedule_add_combine(s, 1, 0, 1, segs);
  }
  return s;
}

static void test_reduce(void)
{
  g_autoptr(NsTopology) t = tree8();
  g_autoptr(NsSchedule) good = binomial_reduce(t, -1, FALSE);
  NsVerifyReport r = run(t, good);
  g_assert_true(correct(&r));
  g_assert_cmpuint(r.n_required, ==, 2 * 7);
  g_assert_cmpuint(r.n_delivered, ==, 2 * 7);
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) twice = binomial_reduce(t, -1, TRUE);
  r = run(t, twice);
  g_assert_false(correct(&r));
  g_autofree char *d = first_of(&r, t, twice, NS_FIND_DUPLICATE);
  g_assert_nonnull(d);
  g_assert_nonnull(strstr(d, "counted twice"));
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) lacking = binomial_reduce(t, 2, FALSE); /* 4..7 never reach 0 */
  r = run(t, lacking);
  g_assert_false(correct(&r));
  g_assert_cmpuint(r.n_delivered, ==, 2 * 3);
  g_autofree char *m = first_of(&r, t, lacking, NS_FIND_MISSING);
  g_assert_nonnull(m);
  g_assert_nonnull(strstr(m, "lacks 4 contributions"));
  ns_verify_report_clear(&r);
}

/* Ring allreduce on 8 machines, 8 segments (Patarasuk & Yuan): p-1
 * reduce-scatter steps (combine), then p-1 all-gather steps (copy). */
static NsSchedule *ring_allreduce(const NsTopology *t, gboolean gather_combines)
{
  int p = 8;
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "hand-made", 1024);
  s->n_segments = (uint32_t)p;
  for (int k = 0; k < p - 1; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      uint32_t seg = (uint32_t)((i - k + p) % p);
      ns_schedule_add_combine(s, i, (i + 1) % p, 1, &seg);
    }
  }
  for (int k = 0; k < p - 1; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      uint32_t seg = (uint32_t)((i + 1 - k + p) % p);
      if (gather_combines)
        ns_schedule_add_combine(s, i, (i + 1) % p, 1, &seg);
      else
        ns_schedule_add(s, i, (i + 1) % p, seg);
    }
  }
  return s;
}

static void test_allreduce_ring(void)
{
  g_autoptr(NsTopology) t = tree8();
  g_autoptr(NsSchedule) good = ring_allreduce(t, FALSE);
  NsVerifyReport r = run(t, good);
  g_assert_true(correct(&r));
  g_assert_cmpuint(r.n_required, ==, 8 * 8 * 7);
  ns_verify_report_clear(&r);
  /* combining in the all-gather half counts every contribution twice */
  g_autoptr(NsSchedule) bad = ring_allreduce(t, TRUE);
  r = run(t, bad);
  g_assert_false(correct(&r));
  g_autofree char *d = first_of(&r, t, bad, NS_FIND_DUPLICATE);
  g_assert_nonnull(d);
  ns_verify_report_clear(&r);
}

/* Recursive doubling, one segment: round k, i <-> i ^ 2^k, both combine.
 * A copy in the last round loses half the contributions at one end. */
static void test_recursive_doubling(void)
{
  g_autoptr(NsTopology) t = tree8();
  for (int mutate = 0; mutate < 2; mutate++) {
    g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "hand-made", 64);
    s->n_segments = 1;
    const uint32_t seg = 0;
    for (int k = 0; k < 3; k++) {
      ns_schedule_begin_phase(s);
      for (int i = 0; i < 8; i++) {
        if (mutate && k == 2 && i == 0)
          ns_schedule_add(s, i, i ^ 4, seg); /* 4 ends with 0's partial only */
        else
          ns_schedule_add_combine(s, i, i ^ (1 << k), 1, &seg);
      }
    }
    NsVerifyReport r = run(t, s);
    g_assert_cmpint(correct(&r), ==, !mutate);
    if (mutate) {
      g_autofree char *m = first_of(&r, t, s, NS_FIND_MISSING);
      g_assert_nonnull(m);
      g_assert_nonnull(strstr(m, "lacks 4 contributions"));
    }
    ns_verify_report_clear(&r);
  }
}

/* The all-gather-based allreduce on 8 machines, 2 segments (schedule.h,
 * "Raw contributions"): ring step k, i passes origin i - k's raw vector
 * (both segments) to i + 1; every machine ends with the 7 others' raw
 * vectors and combines them locally. `mutate`: 1 drops n7's last
 * receipt, 2 sends a raw vector one step before its sender has it, 3
 * sends n1 its own, 4 first overwrites n0's partial of segment 0 with
 * n1's (a copy: n0's own contribution is lost, and its own raw vector
 * does not bring it back). */
static NsSchedule *raw_ring(const NsTopology *t, int mutate)
{
  int p = 8;
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "hand-made", 1024);
  s->n_segments = 2;
  if (mutate == 4) {
    ns_schedule_begin_phase(s);
    ns_schedule_add(s, 1, 0, 0);
  }
  for (int k = 0; k < p - 1; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      int o = (i - k - (mutate == 2 && k == 1 && i == 0) + 2 * p) % p;
      uint32_t raw[2] = { ns_raw_chunk(2, o, 0), ns_raw_chunk(2, o, 1) };
      if (!(mutate == 1 && k == p - 2 && i == 6))
        ns_schedule_add_raw(s, i, (i + 1) % p, 2, raw);
    }
  }
  if (mutate == 3) {
    const uint32_t own = ns_raw_chunk(2, 1, 1);
    ns_schedule_begin_phase(s);
    ns_schedule_add_raw(s, 0, 1, 1, &own);
  }
  return s;
}

static void test_raw_contributions(void)
{
  g_autoptr(NsTopology) t = tree8();
  g_autoptr(NsSchedule) good = raw_ring(t, 0);
  NsVerifyReport r = run(t, good);
  g_assert_true(correct(&r));
  g_assert_cmpuint(r.n_required, ==, 8 * 2 * 7);
  g_assert_cmpuint(r.n_delivered, ==, 8 * 2 * 7);
  g_assert_cmpuint(r.n_chunk_moves, ==, 8 * 2 * 7);
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) dropped = raw_ring(t, 1);
  r = run(t, dropped);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 2);
  g_assert_cmpuint(r.n_delivered, ==, 8 * 2 * 7 - 2);
  g_autofree char *m = first_of(&r, t, dropped, NS_FIND_MISSING);
  g_assert_cmpstr(m, ==, "n7's segment 0 lacks 1 contribution (first: n0's)");
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) early = raw_ring(t, 2);
  r = run(t, early);
  /* n0 lacks n6's vector (2 segments), so n1 then forwards n7's, which it never got */
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 4);
  g_autofree char *h = first_of(&r, t, early, NS_FIND_NOT_HELD);
  g_assert_cmpstr(h, ==, "phase 1: transfer #8 n0->n1 sends the raw contribution of n6 to "
                         "segment 0, which n0 does not hold yet");
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) own = raw_ring(t, 3);
  r = run(t, own);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_autofree char *d = first_of(&r, t, own, NS_FIND_REDUNDANT);
  g_assert_cmpstr(d, ==, "phase 7: transfer #56 n0->n1 delivers the raw contribution of n1 to "
                         "segment 1 to n1, which holds it already (redundant delivery)");
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) lost = raw_ring(t, 4);
  r = run(t, lost);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_autofree char *l = first_of(&r, t, lost, NS_FIND_MISSING);
  g_assert_cmpstr(l, ==, "n0's segment 0 lacks 1 contribution (first: n0's)");
  ns_verify_report_clear(&r);

  /* schedules built in code: a raw chunk beyond p·S, a raw transfer that
   * also combines, and one in an all-gather are refused, not verified */
  const struct {
    NsCollective coll;
    gboolean combine;
    uint32_t chunk;
    const char *message;
  } bad[] = {
    { NS_COLL_ALLREDUCE, FALSE, 16, "transfer #0 carries chunk 16, out of range for allreduce (16 chunks)" },
    { NS_COLL_ALLREDUCE, TRUE, 0, "transfer #0 both combines and carries raw contributions (schedule.h, \"Raw contributions\": one or the other)" },
    { NS_COLL_ALLGATHER, FALSE, 0, "transfer #0 carries raw contributions, and only reduce and allreduce transfers do (this is allgather)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(NsSchedule) b = ns_schedule_for_topology(t, bad[i].coll, "hand-made", 64);
    b->n_segments = bad[i].coll == NS_COLL_ALLREDUCE ? 2 : 0;
    uint32_t x = ns_schedule_add_raw(b, 0, 1, 1, &bad[i].chunk);
    g_array_index(b->transfers, NsTransfer, x).combine = bad[i].combine;
    NsVerifyOptions opt;
    ns_verify_options_init(&opt);
    NsVerifyReport rb = { 0 };
    GError *error = NULL;
    g_assert_false(ns_verify(t, b, &opt, &rb, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_cmpstr(error->message, ==, bad[i].message);
    g_clear_error(&error);
  }
}

/* alltoallv: the chunk (0,1) has no bytes and is never sent; every other
 * pair is, one phase each. The transmission time is the bytes' time. */
static void test_alltoallv_sizes(void)
{
  g_autoptr(NsTopology) t = tree8();
  g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLTOALLV, "hand-made", 1);
  uint64_t sizes[64];
  for (int c = 0; c < 64; c++)
    sizes[c] = (uint64_t)(c % 8 + 1) * 1000;
  sizes[ns_a2a_chunk(8, 0, 1)] = 0;
  GError *error = NULL;
  g_assert_true(ns_schedule_set_chunk_bytes(s, sizes, 64, &error));
  g_assert_no_error(error);
  g_assert_cmpuint(s->msize, ==, 8000);
  g_assert_false(ns_schedule_set_chunk_bytes(s, sizes, 8, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  for (int o = 0; o < 8; o++)
    for (int d = 0; d < 8; d++)
      if (o != d && !(o == 0 && d == 1)) {
        ns_schedule_begin_phase(s);
        ns_schedule_add(s, o, d, ns_a2a_chunk(8, o, d));
      }
  NsVerifyReport r = run(t, s);
  g_assert_true(correct(&r));
  g_assert_cmpuint(r.optimal_skip, ==, NS_OPTIMAL_PATTERN);
  /* every phase is one transfer of (d + 1) kB over 1 Gbit/s links */
  double want = 0;
  for (int o = 0; o < 8; o++)
    for (int d = 0; d < 8; d++)
      if (o != d && !(o == 0 && d == 1))
        want += (double)(d + 1) * 1000 * 8 / ns_topology_link(t, 0)->bandwidth;
  g_assert_cmpfloat_with_epsilon(r.transmission_s, want, want * 1e-12);
  ns_verify_report_clear(&r);
  /* a nonzero message left out is missing */
  sizes[ns_a2a_chunk(8, 0, 1)] = 5;
  g_assert_true(ns_schedule_set_chunk_bytes(s, sizes, 64, &error));
  r = run(t, s);
  g_assert_false(correct(&r));
  g_autofree char *m = first_of(&r, t, s, NS_FIND_MISSING);
  g_assert_nonnull(m);
  g_assert_nonnull(strstr(m, "(5 B) never reaches"));
  ns_verify_report_clear(&r);
}

/* The bytes an allreduce must move count its segments' own sizes: 488 B
 * cut into 8 blocks (61 B each) is 2(p-1) * 488, not 2(p-1) * 8 * msize
 * (compare's throughput at sizes p does not divide). */
/* A schedule's digest (kept rows, routine tables) tells a combining
 * transfer from a copy, a raw contribution from a partial result, and
 * one size pattern from another: main's digest ignored all three. */
static void test_digest_kinds(void)
{
  g_autoptr(NsTopology) t = tree8();
  const uint32_t seg = 0;
  char *d[4];
  for (int kind = 0; kind < 3; kind++) {
    g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "hand-made", 1024);
    s->n_segments = 1;
    ns_schedule_begin_phase(s);
    if (kind == 0)
      ns_schedule_add(s, 1, 0, seg);
    else if (kind == 1)
      ns_schedule_add_combine(s, 1, 0, 1, &seg);
    else
      ns_schedule_add_raw(s, 1, 0, 1, (uint32_t[]){ ns_raw_chunk(1, 1, 0) });
    d[kind] = ns_schedule_digest(s);
  }
  g_assert_cmpstr(d[0], !=, d[1]);
  g_assert_cmpstr(d[0], !=, d[2]);
  g_assert_cmpstr(d[1], !=, d[2]);
  g_autoptr(NsSchedule) v = ns_schedule_for_topology(t, NS_COLL_ALLTOALLV, "hand-made", 1024);
  char *plain = ns_schedule_digest(v);
  uint64_t sizes[64] = { 0 };
  sizes[1] = 7;
  GError *error = NULL;
  g_assert_true(ns_schedule_set_chunk_bytes(v, sizes, 64, &error));
  d[3] = ns_schedule_digest(v);
  g_assert_cmpstr(plain, !=, d[3]);
  g_free(plain);
  for (int k = 0; k < 4; k++)
    g_free(d[k]);
}

static void test_required_bytes(void)
{
  g_autoptr(NsTopology) t = tree8();
  g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "hand-made", 61);
  s->n_segments = 8;
  uint64_t sizes[8] = { 61, 61, 61, 61, 61, 61, 61, 61 };
  g_assert_cmpfloat(ns_collective_required_bytes(s, s->msize), ==, 2.0 * 7 * 488);
  sizes[7] = 50; /* 477 B: the last block shorter */
  GError *error = NULL;
  g_assert_true(ns_schedule_set_chunk_bytes(s, sizes, 8, &error));
  g_assert_no_error(error);
  g_assert_cmpuint(s->msize, ==, 61);
  g_assert_cmpfloat(ns_collective_required_bytes(s, s->msize), ==, 2.0 * 7 * 477);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify/reduction/reduce", test_reduce);
  g_test_add_func("/verify/reduction/allreduce-ring", test_allreduce_ring);
  g_test_add_func("/verify/reduction/recursive-doubling", test_recursive_doubling);
  g_test_add_func("/verify/reduction/raw-contributions", test_raw_contributions);
  g_test_add_func("/verify/reduction/alltoallv-sizes", test_alltoallv_sizes);
  g_test_add_func("/verify/reduction/required-bytes", test_required_bytes);
  g_test_add_func("/verify/reduction/digest-kinds", test_digest_kinds);
  return g_test_run();
}
