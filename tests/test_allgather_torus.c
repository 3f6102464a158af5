/* allgather/torus: the all-port torus all-gather (translated broadcast
 * trees), checked by the verifier on the tori of issue #22 — complete,
 * every block received once, contention-free under the all-port model,
 * one hop a transfer — with its phase count ⌈(P−1)/Δ⌉ derived here from
 * the sizes (Δ = 2 directions per dimension of size ≥ 3, 1 per dimension
 * of size 2), and its refusals. */
#include "analysis/bounds_allgather.h"
#include "analysis/bounds_bcast.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

static NsTopology *spec(const char *text)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(text, &error);
  g_assert_no_error(error);
  return t;
}

static NsSchedule *plan(const NsTopology *t, GError **error)
{
  NsPlanParams params = { .msize = 4096 };
  return ns_plan(t, NS_COLL_ALLGATHER, "torus", &params, error);
}

/* ⌈(P−1)/Δ⌉ for the sizes n[0..dims). */
static uint32_t expected_phases(const int *n, int dims)
{
  int p = 1, delta = 0;
  for (int k = 0; k < dims; k++) {
    p *= n[k];
    delta += n[k] >= 3 ? 2 : n[k] == 2 ? 1 : 0;
  }
  return (uint32_t)((p - 1 + delta - 1) / delta);
}

static char *torus_spec(const int *n, int dims)
{
  GString *s = g_string_new("torus:");
  for (int k = 0; k < dims; k++)
    g_string_append_printf(s, "%s%d", k ? "x" : "", n[k]);
  return g_string_free(s, FALSE);
}

/* Verified: complete, each block once, contention-free, all-port, every
 * transfer between neighbours, at the expected phase count. */
static void check_torus(const int *n, int dims)
{
  g_autofree char *text = torus_spec(n, dims);
  g_autoptr(NsTopology) t = spec(text);
  GError *error = NULL;
  g_autoptr(NsSchedule) s = plan(t, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(s->algorithm, ==, "torus");
  uint64_t p = (uint64_t)ns_topology_n_machines(t);
  NsVerifyReport r = ns_test_verify(t, s);
  if (!ns_verify_passed(&r, FALSE) || r.failures[NS_CHECK_CONTENTION] || r.failures[NS_CHECK_PORT])
    g_error("torus on %s: dataflow %" G_GUINT64_FORMAT ", complete %" G_GUINT64_FORMAT
            ", contention %" G_GUINT64_FORMAT ", port %" G_GUINT64_FORMAT, text,
            r.failures[NS_CHECK_DATAFLOW], r.failures[NS_CHECK_COMPLETE],
            r.failures[NS_CHECK_CONTENTION], r.failures[NS_CHECK_PORT]);
  g_assert_cmpuint(r.n_required, ==, p * (p - 1));
  g_assert_cmpuint(r.n_delivered, ==, p * (p - 1));
  g_assert_cmpuint(r.n_chunk_moves, ==, p * (p - 1)); /* each block received once */
  g_assert_cmpuint(r.n_transfers, ==, p * (p - 1));   /* one block a transfer */
  g_assert_cmpint(r.max_path_len, ==, 0);             /* neighbours only */
  g_assert_cmpuint(r.n_phases, ==, expected_phases(n, dims));
  ns_verify_report_clear(&r);
}

/* Every 2-D torus from 2 × 2 to 8 × 8, 3 × 5, 16 × 16, and the 3-D
 * 3 × 3 × 3, 4 × 4 × 4, 2 × 3 × 4; 8 × 8: 16 phases (63 blocks through 4
 * ports), 16 × 16: 64, 4 × 4 × 4: 11, 3 × 3 × 3: 5 (26 through 6),
 * 2 × 2: 2 (3 blocks through the 2 distinct neighbours). */
static void test_verified(void)
{
  for (int a = 2; a <= 8; a++)
    for (int b = a; b <= 8; b++)
      check_torus((int[]){ a, b }, 2);
  check_torus((int[]){ 3, 5 }, 2);
  check_torus((int[]){ 16, 16 }, 2);
  check_torus((int[]){ 3, 3, 3 }, 3);
  check_torus((int[]){ 4, 4, 4 }, 3);
  check_torus((int[]){ 2, 3, 4 }, 3);
  check_torus((int[]){ 7 }, 1); /* a ring: ⌈6/2⌉ = 3 */
  g_assert_cmpuint(expected_phases((int[]){ 8, 8 }, 2), ==, 16);
  g_assert_cmpuint(expected_phases((int[]){ 16, 16 }, 2), ==, 64);
  g_assert_cmpuint(expected_phases((int[]){ 4, 4, 4 }, 3), ==, 11);
  g_assert_cmpuint(expected_phases((int[]){ 3, 3, 3 }, 3), ==, 5);
  g_assert_cmpuint(expected_phases((int[]){ 2, 2 }, 2), ==, 2);
}

/* The phase count the header states, ⌈(P−1)/Δ⌉, on every 2-D torus up to
 * 20 × 20 and every 3-D one up to 6 × 6 × 6 (the tree search reaches the
 * bound on all of them). */
static void test_phase_counts(void)
{
  NsPlanParams params = { .msize = 1 };
  for (int a = 2; a <= 20; a++)
    for (int b = a; b <= 20; b++) {
      g_autofree char *text = torus_spec((int[]){ a, b }, 2);
      g_autoptr(NsTopology) t = spec(text);
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLGATHER, "torus", &params, NULL);
      g_assert_nonnull(s);
      if (ns_schedule_n_phases(s) != expected_phases((int[]){ a, b }, 2))
        g_error("%s: %u phases", text, ns_schedule_n_phases(s));
    }
  for (int a = 2; a <= 6; a++)
    for (int b = a; b <= 6; b++)
      for (int c = b; c <= 6; c++) {
        g_autofree char *text = torus_spec((int[]){ a, b, c }, 3);
        g_autoptr(NsTopology) t = spec(text);
        g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLGATHER, "torus", &params, NULL);
        g_assert_nonnull(s);
        if (ns_schedule_n_phases(s) != expected_phases((int[]){ a, b, c }, 3))
          g_error("%s: %u phases", text, ns_schedule_n_phases(s));
      }
}

/* Not a torus, or machines that cannot send on every direction at once. */
static void test_refusals(void)
{
  static const struct {
    const char *spec, *message;
  } cases[] = {
    { "mesh:4x4", "torus needs a torus or ring of machines (gen:torus:AxB[xC], gen:ring:P); "
                  "gen:mesh:4x4 is not one" },
    { "star:8", "torus needs a torus or ring of machines (gen:torus:AxB[xC], gen:ring:P); "
                "gen:star:8 is not one" },
    { "torus:4x4:ports=one", "torus sends on all 4 directions of a machine at once; machine n0 "
                             "has 1-port (an all-port torus: the default of gen:torus, not "
                             "ports=one)" },
    { "torus:4x4x4:ports=4", "torus sends on all 6 directions of a machine at once; machine n0 "
                             "has 4-port (an all-port torus: the default of gen:torus, not "
                             "ports=one)" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = spec(cases[i].spec);
    GError *error = NULL;
    NsSchedule *s = plan(t, &error);
    g_assert_null(s);
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_cmpstr(error->message, ==, cases[i].message);
    g_error_free(error);
  }
}

/* The bounds of the port model on the 8x8 torus (100 Mbit/s,
 * 256 KiB): whole blocks ⌈63/4⌉ = 16 block times, the same as the design
 * study's ns_lower_bound_routed; fluid 63/4; one-port 63. A one-port star
 * keeps (P−1)·msize/B. A segmented broadcast on the torus: 32 segments
 * through the root's 4 ports, 8 segment times, T(msize) an estimate. */
static void test_bounds(void)
{
  const double block = 262144 * 8 / 100e6;
  g_autoptr(NsTopology) t = spec("torus:8x8");
  NsAllgatherBound b;
  g_assert_false(ns_allgather_bounds(t, 262144, NS_DEFAULT_PACKET, &b, NULL)); /* no rings */
  g_assert_cmpint(b.max_ports, ==, 4);
  g_assert_cmpint(b.port_model.kind, ==, NS_BOUND_PORT_RECV);
  g_assert_cmpuint(b.port_model.load, ==, 16);
  g_assert_cmpfloat_with_epsilon(b.time_bound, 16 * block, 1e-12);
  g_assert_cmpfloat_with_epsilon(b.fluid_bound, 15.75 * block, 1e-12);
  g_assert_cmpfloat_with_epsilon(b.one_port_bound, 63 * block, 1e-12);
  g_assert_cmpfloat_with_epsilon(ns_allgather_lower_bound(t, 262144), 16 * block, 1e-12);
  NsLowerBound design;
  ns_lower_bound_routed(t, NS_COLL_ALLGATHER, 262144, 0, 1, &design);
  g_assert_cmpfloat(design.seconds, ==, b.time_bound);

  g_autoptr(NsTopology) star = spec("star:8");
  g_assert_cmpint(ns_bounds_max_ports(star), ==, 1);
  g_assert_cmpfloat_with_epsilon(ns_allgather_lower_bound(star, 262144), 7 * block, 1e-12);

  NsPlanParams params = { .msize = 8192, .root = 0, .segment = 8192 };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_BCAST, "binomial", &params, &error);
  g_assert_no_error(error);
  params.msize = 262144;
  g_autoptr(NsSchedule) seg = ns_plan(t, NS_COLL_BCAST, "binomial", &params, &error);
  g_assert_no_error(error);
  NsBcastBound bb;
  g_assert_true(ns_bcast_bound(t, seg, &bb, NULL));
  g_assert_cmpuint(bb.n_segments, ==, 32);
  g_assert_true(bb.t_msize_estimate);
  g_assert_cmpfloat_with_epsilon(bb.lower_bound, 8 * 8192 * 8 / 100e6, 1e-12);
  g_assert_cmpfloat(bb.t_msize, >, bb.lower_bound);
  g_assert_true(ns_bcast_bound(t, s, &bb, NULL)); /* one message: T(msize) is the bound */
  g_assert_false(bb.t_msize_estimate);
  g_assert_cmpfloat(bb.lower_bound, ==, bb.t_msize);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/allgather-torus/verified", test_verified);
  g_test_add_func("/allgather-torus/phase-counts", test_phase_counts);
  g_test_add_func("/allgather-torus/refusals", test_refusals);
  g_test_add_func("/allgather-torus/bounds", test_bounds);
  return g_test_run();
}
