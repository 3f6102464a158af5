/* netsched — the verifier's delivery record, one bit a (chunk, machine)
 * pair (sched/verify/chunk_bits_internal.h), at word boundaries, and the
 * verifier's completeness findings through it: on all-to-alls and
 * all-gathers whose pair counts are not multiples of 64, a duplicate
 * delivery and a missing one at the last pair, at the first, and on
 * either side of a 64-bit word boundary are each found and named. */
#include "platforms/gen/shapes.h"
#include "sched/verify/chunk_bits_internal.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

static void test_bits_at_boundaries(void)
{
  static const uint64_t sizes[] = { 1, 63, 64, 65, 127, 128, 129, 1000 };
  for (gsize s = 0; s < G_N_ELEMENTS(sizes); s++) {
    uint64_t n = sizes[s];
    NsChunkBits b;
    ns_chunk_bits_init(&b, n);
    g_assert_cmpuint(ns_chunk_bits_next_clear(&b, 0, n), ==, 0);
    for (uint64_t i = 0; i < n; i++) /* every bit set once: a first, then not */
      g_assert_true(ns_chunk_bits_set(&b, i));
    for (uint64_t i = 0; i < n; i++) {
      g_assert_true(ns_chunk_bits_test(&b, i));
      g_assert_false(ns_chunk_bits_set(&b, i));
    }
    g_assert_cmpuint(ns_chunk_bits_next_clear(&b, 0, n), ==, n); /* complete */
    ns_chunk_bits_clear(&b);

    /* every bit but one: the scan finds exactly that one, from anywhere before it */
    for (uint64_t hole = 0; hole < n; hole += (hole < 130 ? 1 : 97)) {
      ns_chunk_bits_init(&b, n);
      for (uint64_t i = 0; i < n; i++)
        if (i != hole)
          ns_chunk_bits_set(&b, i);
      g_assert_false(ns_chunk_bits_test(&b, hole));
      g_assert_cmpuint(ns_chunk_bits_next_clear(&b, 0, n), ==, hole);
      g_assert_cmpuint(ns_chunk_bits_next_clear(&b, hole, n), ==, hole);
      g_assert_cmpuint(ns_chunk_bits_next_clear(&b, hole + 1, n), ==, n);
      g_assert_cmpuint(ns_chunk_bits_next_clear(&b, 0, hole), ==, hole); /* none before */
      ns_chunk_bits_clear(&b);
    }
  }
  /* growing keeps the bits set and adds clear ones */
  NsChunkBits b;
  ns_chunk_bits_init(&b, 70);
  ns_chunk_bits_set(&b, 69);
  ns_chunk_bits_grow(&b, 200);
  g_assert_true(ns_chunk_bits_test(&b, 69));
  for (uint64_t i = 70; i < 200; i++)
    g_assert_false(ns_chunk_bits_test(&b, i));
  g_assert_cmpuint(ns_chunk_bits_next_clear(&b, 69, 200), ==, 70);
  ns_chunk_bits_clear(&b);
}

/* An all-to-all on a p-machine star, every message direct, one a phase,
 * but `skip` never sent and `twice` sent twice (-1: none). */
static NsSchedule *alltoall(const NsTopology *t, int64_t skip, int64_t twice)
{
  NsSchedule *s = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "hand-made", 1024);
  int p = s->n_machines;
  for (int o = 0; o < p; o++)
    for (int d = 0; d < p; d++) {
      uint32_t c = ns_a2a_chunk(p, o, d);
      if (o == d || (int64_t)c == skip)
        continue;
      ns_schedule_begin_phase(s);
      ns_schedule_add(s, o, d, c);
      if ((int64_t)c == twice) {
        ns_schedule_begin_phase(s);
        ns_schedule_add(s, o, d, c);
      }
    }
  return s;
}

static void test_alltoall_boundaries(void)
{
  /* 9 machines: 81 pairs, chunk 63 = 7->0 and 64 = 7->1 straddle the first word */
  static const int sizes[] = { 9, 11 };
  for (gsize z = 0; z < G_N_ELEMENTS(sizes); z++) {
    int p = sizes[z];
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 10e-6);
    int64_t last = (int64_t)p * p - 2; /* (p-1) -> (p-2): the last required pair */
    int64_t edges[] = { 1, 63, 64, last };
    for (gsize e = 0; e < G_N_ELEMENTS(edges); e++) {
      int64_t c = edges[e];
      if (c / p == c % p)
        continue; /* a machine's message to itself is never required */
      g_autoptr(NsSchedule) missing = alltoall(t, c, -1);
      NsVerifyReport r = ns_test_verify(t, missing);
      g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
      g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1) - 1);
      g_assert_cmpuint(r.n_required, ==, (uint64_t)p * (p - 1));
      const NsFinding *f = &g_array_index(r.findings, NsFinding, 0);
      g_assert_cmpint(f->kind, ==, NS_FIND_MISSING);
      g_assert_cmpuint(f->chunk, ==, (uint32_t)c);
      g_assert_cmpint(f->machine, ==, (int)(c % p));
      ns_verify_report_clear(&r);

      g_autoptr(NsSchedule) dup = alltoall(t, -1, c);
      r = ns_test_verify(t, dup);
      g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
      g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
      f = &g_array_index(r.findings, NsFinding, 0);
      g_assert_cmpint(f->kind, ==, NS_FIND_DUPLICATE);
      g_assert_cmpuint(f->chunk, ==, (uint32_t)c);
      ns_verify_report_clear(&r);
    }
    g_autoptr(NsSchedule) whole = alltoall(t, -1, -1);
    NsVerifyReport r = ns_test_verify(t, whole);
    g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
    ns_verify_report_clear(&r);
  }
}

/* An all-gather on 9 machines (81 bits, 72 required): each block sent
 * to every other machine but (0 -> 8) and, sent twice, (7 -> 1). */
static void test_allgather_boundaries(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(9, 100e6, 10e-6);
  g_autoptr(NsSchedule) s = ns_schedule_for_topology(t, NS_COLL_ALLGATHER, "hand-made", 1024);
  for (int o = 0; o < 9; o++)
    for (int d = 0; d < 9; d++) {
      if (o == d || (o == 0 && d == 8))
        continue;
      ns_schedule_begin_phase(s);
      ns_schedule_add(s, o, d, (uint32_t)o);
      if (o == 7 && d == 1) { /* bit 7·9 + 1 = 64: the second word's first */
        ns_schedule_begin_phase(s);
        ns_schedule_add(s, o, d, (uint32_t)o);
      }
    }
  NsVerifyReport r = ns_test_verify(t, s);
  g_assert_cmpuint(r.n_required, ==, 72);
  g_assert_cmpuint(r.n_delivered, ==, 71);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 2);
  gboolean dup = FALSE, miss = FALSE;
  for (guint i = 0; i < r.findings->len; i++) {
    const NsFinding *f = &g_array_index(r.findings, NsFinding, i);
    if (f->kind == NS_FIND_DUPLICATE) {
      dup = TRUE;
      g_assert_cmpuint(f->chunk, ==, 7);
      g_assert_cmpint(f->machine, ==, 1);
    }
    if (f->kind == NS_FIND_MISSING) {
      miss = TRUE;
      g_assert_cmpuint(f->chunk, ==, 0);
      g_assert_cmpint(f->machine, ==, 8);
    }
  }
  g_assert_true(dup && miss);
  ns_verify_report_clear(&r);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/chunk-bits/boundaries", test_bits_at_boundaries);
  g_test_add_func("/chunk-bits/alltoall-missing-and-duplicate", test_alltoall_boundaries);
  g_test_add_func("/chunk-bits/allgather-missing-and-duplicate", test_allgather_boundaries);
  return g_test_run();
}
