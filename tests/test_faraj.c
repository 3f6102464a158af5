/* alltoall/faraj: the paper's worked example (Table 4) and the properties
 * the paper proves, on 1000 seeded random trees. */
#include "analysis/bounds.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

/* Faraj & Yuan Figure 1 as bundled (scenarios/topologies/faraj-fig1.topo):
 * n0-n2 on s0, n3-n4 on s3, n5 on s1; s0, s3 on s1. */
static NsTopology *figure1(void)
{
  return ns_test_topology("faraj-fig1.topo");
}

/* Table 4 of the paper, one row per phase, in its column order: global
 * messages of t0, t1, t2, then local messages of t0, t1 (t_{0,0} = n0,
 * t_{0,1} = n1, t_{0,2} = n2, t_{1,0} = n3, t_{1,1} = n4, t_{2,0} = n5). */
static const char *const table4[9] = {
  "n0->n4 n3->n5 n5->n1 n1->n0",
  "n1->n3 n4->n5 n5->n2 n2->n1",
  "n2->n4 n5->n0 n0->n2",
  "n0->n3 n3->n2 n2->n0",
  "n1->n4 n3->n0 n0->n1 n4->n3",
  "n2->n3 n3->n1 n1->n2",
  "n0->n5 n4->n0",
  "n1->n5 n4->n1 n5->n3 n3->n4",
  "n2->n5 n4->n2 n5->n4",
};

static void test_table4(void)
{
  g_autoptr(NsTopology) t = figure1();
  NsA2ABound b;
  ns_a2a_bound(t, 65536, &b);
  g_assert_cmpuint(b.load, ==, 9); /* |M_0| (|M| - |M_0|) = 3 x 3 */
  g_assert_cmpstr(ns_topology_node(t, b.root)->name, ==, "s1");

  NsPlanParams params = { .msize = 65536 };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 9);
  for (uint32_t ph = 0; ph < 9; ph++) {
    g_autofree char *got = ns_schedule_phase_text(s, ph, FALSE);
    g_assert_cmpstr(got, ==, table4[ph]);
  }
}

/* Every property of the paper's Theorem, checked by the verifier. */
static void assert_optimal(const NsTopology *t, const NsSchedule *s)
{
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, NULL, &r, &error));
  g_assert_no_error(error);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    if (r.failures[c] != 0) {
      g_autofree char *d = ns_finding_describe(&g_array_index(r.findings, NsFinding, 0), t, s);
      g_error("%s: check %s failed %" G_GUINT64_FORMAT " times, e.g. %s", ns_topology_source(t),
              ns_check_name(c), r.failures[c], d);
    }
    /* Every check runs, but sync: the schedule carries no sync edges. */
    g_assert_true(r.ran[c] == (c != NS_CHECK_SYNC));
  }
  int p = ns_topology_n_machines(t);
  g_assert_cmpuint(r.n_transfers, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(r.n_phases, ==, r.lower_bound);
  ns_verify_report_clear(&r);
}

static void test_random_trees(void)
{
  const NsRandomKind kinds[] = { NS_RANDOM_UNIFORM, NS_RANDOM_STAR, NS_RANDOM_CHAIN,
                                 NS_RANDOM_DEEP, NS_RANDOM_UNBALANCED };
  int checked = 0;
  for (uint64_t seed = 1; checked < 1000; seed++) {
    NsRandomKind kind = kinds[seed % G_N_ELEMENTS(kinds)];
    /* Mostly small trees (fast), every tenth up to 200 machines. */
    int machines = seed % 10 == 0 ? 3 + (int)(seed * 7919 % 198) : 3 + (int)(seed * 31 % 45);
    int switches = 1 + (int)(seed * 104729 % (guint64)MAX(machines / 2, 1));
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        ns_shape_random(seed, machines, switches, kind, 100e6, 10e-6, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 1024 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
    g_assert_no_error(error);
    assert_optimal(t, s);
    checked++;
  }
  g_assert_cmpint(checked, ==, 1000);
}

static void test_small_and_special(void)
{
  /* |M| = 2 (outside the paper's |M| >= 3), a single switch, chains. */
  g_autoptr(NsTopology) two = ns_shape_star(2, 100e6, 0);
  g_autoptr(NsTopology) chain = ns_shape_chain(2, 1, 100e6, 0);
  g_autoptr(NsTopology) star = ns_shape_star(24, 100e6, 0);
  g_autoptr(NsTopology) b = ns_shape_switch_star(4, 8, 100e6, 0);
  g_autoptr(NsTopology) c = ns_shape_chain(4, 8, 100e6, 0);
  const NsTopology *all[] = { two, chain, star, b, c };
  const uint64_t loads[] = { 1, 1, 23, 8 * 24, 16 * 16 };
  for (gsize i = 0; i < G_N_ELEMENTS(all); i++) {
    NsPlanParams params = { .msize = 1024 };
    g_autoptr(NsSchedule) s = ns_plan(all[i], NS_COLL_ALLTOALL, "faraj", &params, NULL);
    g_assert_nonnull(s);
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, loads[i]);
    assert_optimal(all[i], s);
  }
}

/* A digest of a schedule's phases: each phase's size, then each transfer's
 * ends and chunks, as 32-bit words. */
static void digest_schedule(GChecksum *sum, const NsSchedule *s)
{
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    NsPhase phase = ns_schedule_phase(s, ph);
    uint32_t n = (uint32_t)phase.n;
    g_checksum_update(sum, (const guchar *)&n, sizeof n);
    for (uint64_t i = 0; i < phase.n; i++) {
      const NsTransfer *tr = &phase.transfers[i];
      uint32_t w[4] = { (uint32_t)tr->src, (uint32_t)tr->dst, tr->n_chunks, tr->chunk };
      g_checksum_update(sum, (const guchar *)w, sizeof w);
    }
  }
}

/* The planner's schedules byte for byte, as planned before its per-phase
 * work lost its divisions (issue #24): 300 seeded random trees of every
 * kind (subtree sizes with every gcd) and three regular 3-level trees. */
static void test_digest(void)
{
  const NsRandomKind kinds[] = { NS_RANDOM_UNIFORM, NS_RANDOM_STAR, NS_RANDOM_CHAIN,
                                 NS_RANDOM_DEEP, NS_RANDOM_UNBALANCED };
  g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
  for (uint64_t seed = 1; seed <= 300; seed++) {
    int machines = 3 + (int)(seed * 7919 % 120);
    int switches = 1 + (int)(seed * 104729 % (guint64)MAX(machines / 3, 1));
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_random(seed, machines, switches,
                                              kinds[seed % G_N_ELEMENTS(kinds)], 100e6, 10e-6,
                                              &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 1024 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
    g_assert_no_error(error);
    digest_schedule(sum, s);
  }
  g_assert_cmpstr(g_checksum_get_string(sum), ==, "3c982f9a89ec53fe177abe3ed02f46d6c2253a2be8278d44a8df01541fc7a31d");
  const char *const specs[] = { "tree:4,4,16", "tree:3,5,7", "tree:2,8,32" };
  const char *const digests[] = { "5a3b085616cb844a0ab21f80a05f6d62d8355e01df5e92786f566765e63f2793", "bc166a3154b6b6b8e0455a38fff5645b2d1333a2aa44050f5a4c68587f2d0f3f", "d17da99ab1b70c1d4ad1ae9aa4dbdb9483ddaf898e0b2b68d2e651c5373da75c" };
  for (gsize i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(specs[i], &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 65536 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
    g_assert_no_error(error);
    g_autoptr(GChecksum) one = g_checksum_new(G_CHECKSUM_SHA256);
    digest_schedule(one, s);
    g_test_message("%s: %s", specs[i], g_checksum_get_string(one));
    g_assert_cmpstr(g_checksum_get_string(one), ==, digests[i]);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/faraj/table4", test_table4);
  g_test_add_func("/faraj/special-shapes", test_small_and_special);
  g_test_add_func("/faraj/random-trees-1000", test_random_trees);
  g_test_add_func("/faraj/digest", test_digest);
  return g_test_run();
}
