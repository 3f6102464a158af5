/* Topology-unaware baselines: complete on every shape; the verifier finds
 * the contention the paper attributes to them. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"


static NsSchedule *plan(const NsTopology *t, const char *algo)
{
  NsPlanParams params = { .msize = 4096 };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, algo, &params, &error);
  g_assert_no_error(error);
  return s;
}

/* Every baseline delivers every message exactly once, on many shapes. */
static void test_complete(void)
{
  const char *algos[] = { "simple", "spread", "ring", "gpe", "pair" };
  for (uint64_t seed = 1; seed <= 120; seed++) {
    int p = (seed % 4 == 0) ? 1 << (1 + seed % 6) : 2 + (int)(seed * 37 % 60);
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, p, 1 + (int)(seed % 9), (NsRandomKind)(seed % 5), 100e6, 0, NULL);
    g_assert_nonnull(t);
    for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
      if (g_str_equal(algos[a], "pair") && (p & (p - 1)) != 0)
        continue;
      g_autoptr(NsSchedule) s = plan(t, algos[a]);
      NsVerifyReport r = ns_test_verify(t, s);
      g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
      g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
      g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
      ns_verify_report_clear(&r);
    }
  }
}

/* Topology (c): 4 switches of 8 machines in a chain. Ring phase j sends
 * i -> i+j: for j = 16, n0..n7 -> n16..n23 and n8..n15 -> n24..n31 all
 * cross s1->s2 at once: 16 transfers on one edge. */
static void test_ring_contends_on_c(void)
{
  g_autoptr(NsTopology) c = ns_shape_chain(4, 8, 100e6, 10e-6);
  g_autoptr(NsSchedule) s = plan(c, "ring");
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 31);
  NsVerifyReport r = ns_test_verify(c, s);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], >, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 0); /* ring has no node contention */
  g_assert_cmpuint(r.max_edge_use, ==, 16);
  g_assert_false(ns_verify_passed(&r, FALSE));
  /* The first finding: phase 1 (j = 2), n6->n8 and n7->n9 share s0->s1
   * (transfer numbers are global: phase 0 holds #0..#31). */
  const NsFinding *f = &g_array_index(r.findings, NsFinding, 0);
  g_autofree char *d = ns_finding_describe(f, c, s);
  g_assert_cmpstr(d, ==, "phase 1: transfers #38 n6->n8 and #39 n7->n9 share edge s0->s1");
  ns_verify_report_clear(&r);

  /* The optimal schedule on the same topology: 256 contention-free phases. */
  g_autoptr(NsSchedule) f2 = plan(c, "faraj");
  NsVerifyReport r2 = ns_test_verify(c, f2);
  g_assert_true(ns_verify_passed(&r2, TRUE));
  g_assert_cmpuint(r2.n_phases, ==, 256);
  ns_verify_report_clear(&r2);
}

/* On a single switch, ring, pair and gpe are contention-free; gpe needs p
 * rounds for odd p and p-1 for even p (Tam & Wang §3.4). */
static void test_single_switch(void)
{
  for (int p = 2; p <= 33; p++) {
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    const char *algos[] = { "ring", "gpe", "pair" };
    for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
      if (g_str_equal(algos[a], "pair") && (p & (p - 1)) != 0)
        continue;
      g_autoptr(NsSchedule) s = plan(t, algos[a]);
      NsVerifyReport r = ns_test_verify(t, s);
      g_assert_true(ns_verify_passed(&r, FALSE));
      if (g_str_equal(algos[a], "gpe"))
        g_assert_cmpuint(r.n_phases, ==, (uint64_t)(p % 2 ? p : p - 1));
      else
        g_assert_cmpuint(r.n_phases, ==, (uint64_t)(p - 1));
      ns_verify_report_clear(&r);
    }
  }
}

static void test_pair_needs_power_of_two(void)
{
  g_autoptr(NsTopology) a = ns_shape_star(24, 100e6, 0);
  NsPlanParams params = { .msize = 4096 };
  GError *error = NULL;
  NsSchedule *s = ns_plan(a, NS_COLL_ALLTOALL, "pair", &params, &error);
  g_assert_null(s);
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(error->message, ==,
                  "alltoall/pair needs a power-of-two number of machines (the topology has 24); "
                  "use gpe (generalized pairwise exchange) or ring instead");
  g_error_free(error);
}

/* LAM (simple) and MPICH (spread) post everything at once: one posted
 * phase, per-sender order as the papers describe. */
static void test_posted_order(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(4, 100e6, 0);
  g_autoptr(NsSchedule) lam = plan(t, "simple");
  g_autoptr(NsSchedule) mpich = plan(t, "spread");
  g_assert_cmpint(lam->execution, ==, NS_EXEC_POSTED);
  g_assert_cmpint(mpich->execution, ==, NS_EXEC_POSTED);
  g_assert_cmpuint(ns_schedule_n_phases(lam), ==, 1);
  /* machine 2's posting order */
  int lam2[3], mpich2[3], k = 0, m = 0;
  for (uint64_t i = 0; i < ns_schedule_n_transfers(lam); i++) {
    if (ns_schedule_transfer(lam, i)->src == 2)
      lam2[k++] = ns_schedule_transfer(lam, i)->dst;
    if (ns_schedule_transfer(mpich, i)->src == 2)
      mpich2[m++] = ns_schedule_transfer(mpich, i)->dst;
  }
  g_assert_cmpint(lam2[0], ==, 0);
  g_assert_cmpint(lam2[1], ==, 1);
  g_assert_cmpint(lam2[2], ==, 3);
  g_assert_cmpint(mpich2[0], ==, 3);
  g_assert_cmpint(mpich2[1], ==, 0);
  g_assert_cmpint(mpich2[2], ==, 1);
  /* All at once on one switch: node contention on every machine link. */
  NsVerifyReport r = ns_test_verify(t, lam);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], >, 0);
  g_assert_false(r.ran[NS_CHECK_OPTIMAL]);
  ns_verify_report_clear(&r);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/baselines/complete-on-random-trees", test_complete);
  g_test_add_func("/baselines/ring-contends-on-c", test_ring_contends_on_c);
  g_test_add_func("/baselines/single-switch", test_single_switch);
  g_test_add_func("/baselines/pair-power-of-two", test_pair_needs_power_of_two);
  g_test_add_func("/baselines/posted-order", test_posted_order);
  return g_test_run();
}
