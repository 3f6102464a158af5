/* The lower bounds of reduce and allreduce (docs/verify.md, "Bounds of the
 * reductions"): hand-computed values on a star, two switches and rings,
 * and no verified schedule — binomial reduce, ring and recursive-doubling
 * allreduce, reduce-bcast — faster than the bound on 200 random trees and
 * on tori. */
#include "analysis/bounds_collective.h"
#include "platforms/gen/shapes.h"
#include "platforms/model/error.h"
#include "sched/bound/lower_bound.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"

static NsTopology *spec(const char *text)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(text, &error);
  g_assert_no_error(error);
  return t;
}

/* Seconds of `segments` segments of `bytes` at 100 Mbit/s. */
static double at100m(double segments, double bytes)
{
  return segments * bytes * 8 / 100e6;
}

static void test_values(void)
{
  /* one switch, 4 machines, 100 Mbit/s, one port each */
  g_autoptr(NsTopology) star = ns_test_random_graph(1, 4, 1, 0);
  NsLowerBound b;
  /* reduce: the root receives 4 segments (and a non-root sends 4) */
  ns_lower_bound(star, NS_COLL_REDUCE, 1000, 2, 4, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(4, 1000), 1e-15);
  g_assert_cmpuint(b.load, ==, 4);
  /* allreduce: the machines together send 2(p-1) = 6 copies of each of 4
   * segments, 24 in all: some machine sends 6 (one-way gossip) */
  ns_lower_bound(star, NS_COLL_ALLREDUCE, 1000, -1, 4, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(6, 1000), 1e-15);
  g_assert_cmpint(b.kind, ==, NS_BOUND_PORT_SEND);
  g_assert_cmpuint(b.load, ==, 6);
  /* one segment: ceil(6/4) = 2 whole; fluid 1.5 vectors */
  ns_lower_bound(star, NS_COLL_ALLREDUCE, 4000, -1, 1, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(2, 4000), 1e-15);
  ns_lower_bound_reduction(star, NS_COLL_ALLREDUCE, 4000, 0, -1, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(1.5, 4000), 1e-15);
  g_assert_cmpuint(b.load, ==, 0);
  /* 4000 bytes in 1000-byte segments: the whole segments bind (6 of them) */
  ns_lower_bound_reduction(star, NS_COLL_ALLREDUCE, 4000, 1000, -1, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(6, 1000), 1e-15);
  /* 4000 bytes in 3000-byte segments: one whole (2 sends), below the fluid 1.5 x 4000 */
  ns_lower_bound_reduction(star, NS_COLL_ALLREDUCE, 4000, 3000, -1, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(1.5, 4000), 1e-15);
  /* a reduce of 4000 bytes: n through the root's port */
  ns_lower_bound_reduction(star, NS_COLL_REDUCE, 4000, 0, 0, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, at100m(1, 4000), 1e-15);

  /* a ring of 8 all-port machines (two links each, 1 Gbit/s): the
   * bisection carries 8 segments each way over 2 links (4 a link); the
   * ports: ceil(2·7·8/8) = 14 segments through 2 ports, 7 a port */
  g_autoptr(NsTopology) ring = spec("torus:8");
  double bw = ns_topology_link(ring, 0)->bandwidth;
  ns_lower_bound(ring, NS_COLL_ALLREDUCE, 1000, -1, 8, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, 7 * 8000 / bw, 1e-15);
  g_assert_cmpuint(b.load, ==, 7);
  /* reduce on it: the root receives 8 over 2 ports = 4 a port; a cut
   * (the half without the root) sends 8 over 2 links = 4 */
  ns_lower_bound(ring, NS_COLL_REDUCE, 1000, 0, 8, &b);
  g_assert_cmpfloat_with_epsilon(b.seconds, 4 * 8000 / bw, 1e-15);
}

/* Binomial tree to `root`, every segment combined. */
static void binomial_reduce(NsSchedule *s, int root)
{
  int p = s->n_machines;
  g_autofree uint32_t *segs = g_new(uint32_t, s->n_segments);
  for (uint32_t k = 0; k < s->n_segments; k++)
    segs[k] = k;
  for (int k = 0; (1 << k) < p; k++) {
    ns_schedule_begin_phase(s);
    for (int rel = 0; rel < p; rel++)
      if ((rel & ((2 << k) - 1)) == (1 << k))
        ns_schedule_add_combine(s, (rel + root) % p, (rel - (1 << k) + root) % p, s->n_segments,
                                segs);
  }
}

static void ring_allreduce(NsSchedule *s)
{
  int p = s->n_machines;
  for (int k = 0; k < 2 * (p - 1); k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++) {
      uint32_t seg = (uint32_t)(((k < p - 1 ? i - k : i + 1 - (k - (p - 1))) + 2 * p) % p);
      if (k < p - 1)
        ns_schedule_add_combine(s, i, (i + 1) % p, 1, &seg);
      else
        ns_schedule_add(s, i, (i + 1) % p, seg);
    }
  }
}

static void recursive_doubling(NsSchedule *s)
{
  int p = s->n_machines;
  g_autofree uint32_t *segs = g_new(uint32_t, s->n_segments);
  for (uint32_t k = 0; k < s->n_segments; k++)
    segs[k] = k;
  for (int k = 0; (1 << k) < p; k++) {
    ns_schedule_begin_phase(s);
    for (int i = 0; i < p; i++)
      ns_schedule_add_combine(s, i, i ^ (1 << k), s->n_segments, segs);
  }
}

/* The schedule's transmission time with or without contention: each
 * phase lasts at least as long as its busiest directed link needs for
 * the bytes routed over it (verify's figure for contention-free ones). */
static double transmission(const NsTopology *t, const NsSchedule *s)
{
  int n_edges = ns_topology_n_edges(t);
  g_autofree double *bits = g_new(double, n_edges);
  g_autofree int *path = g_new(int, ns_topology_max_route_len(t) + 1);
  double total = 0;
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    for (int e = 0; e < n_edges; e++)
      bits[e] = 0;
    double longest = 0;
    for (uint64_t i = first; i < first + n; i++) {
      const NsTransfer *tr = ns_schedule_transfer(s, i);
      int len = ns_topology_route_machines(t, tr->src, tr->dst, path);
      for (int k = 0; k < len; k++) {
        int e = path[k];
        bits[e] += 8.0 * (double)ns_schedule_transfer_bytes(s, tr);
        longest = MAX(longest, bits[e] / ns_topology_link(t, e / 2)->bandwidth);
      }
    }
    total += longest;
  }
  return total;
}

/* Verifies `s` (complete, every data-flow rule) and checks that its
 * transmission time is not below the collective's bound; returns the
 * time over the bound. */
static double check_above_bound(const NsTopology *t, const NsSchedule *s)
{
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_no_error(error);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  double bound = ns_collective_bound(t, s, s->msize);
  g_assert_cmpfloat(bound, >, 0);
  double time = transmission(t, s);
  if (r.failures[NS_CHECK_CONTENTION] == 0) /* the verifier's own figure agrees */
    g_assert_cmpfloat_with_epsilon(r.transmission_s, time, time * 1e-12);
  g_assert_cmpfloat(time, >=, bound * (1 - 1e-12));
  double ratio = time / bound;
  ns_verify_report_clear(&r);
  return ratio;
}

static void check_topology(const NsTopology *t, GRand *rng, double *best_ring)
{
  int p = ns_topology_n_machines(t);
  uint32_t segments = (uint32_t)g_rand_int_range(rng, 1, 5);
  g_autoptr(NsSchedule) reduce = ns_schedule_for_topology(t, NS_COLL_REDUCE, "binomial", 4096);
  reduce->root = g_rand_int_range(rng, 0, p);
  reduce->n_segments = segments;
  binomial_reduce(reduce, reduce->root);
  check_above_bound(t, reduce);

  g_autoptr(NsSchedule) ring = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "ring", 4096);
  ring->n_segments = (uint32_t)p;
  ring_allreduce(ring);
  *best_ring = MIN(*best_ring, check_above_bound(t, ring));

  /* reduce to a root, broadcast back: copies */
  g_autoptr(NsSchedule) rb = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "reduce-bcast", 4096);
  rb->n_segments = segments;
  binomial_reduce(rb, 0);
  for (int k = 1; k < p; k++) { /* the root sends the result to each in turn */
    ns_schedule_begin_phase(rb);
    uint32_t all[4] = { 0, 1, 2, 3 };
    ns_schedule_add_chunks(rb, 0, k, segments, all);
  }
  check_above_bound(t, rb);

  if ((p & (p - 1)) == 0) {
    g_autoptr(NsSchedule) rd = ns_schedule_for_topology(t, NS_COLL_ALLREDUCE, "rd", 4096);
    rd->n_segments = segments;
    recursive_doubling(rd);
    check_above_bound(t, rd);
  }
}

static void test_never_above_schedules(void)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed(22);
  double best_ring = G_MAXDOUBLE;
  for (guint i = 0; i < 200; i++) {
    int p = i % 3 == 0 ? 1 << g_rand_int_range(rng, 1, 6) : g_rand_int_range(rng, 2, 40);
    int switches = g_rand_int_range(rng, 1, MAX(2, p / 3));
    g_autoptr(NsTopology) t = ns_test_random_graph(1000 + i, p, switches, 0);
    check_topology(t, rng, &best_ring);
  }
  const char *const tori[] = { "torus:8", "torus:4x4", "torus:3x5", "torus:2x2x2" };
  for (guint i = 0; i < G_N_ELEMENTS(tori); i++) {
    g_autoptr(NsTopology) t = spec(tori[i]);
    check_topology(t, rng, &best_ring);
  }
  /* on one switch the ring reaches the bound: 2(p-1) segments, one a phase */
  g_autoptr(NsTopology) star = ns_test_random_graph(5, 6, 1, 0);
  double on_star = G_MAXDOUBLE;
  check_topology(star, rng, &on_star);
  g_assert_cmpfloat_with_epsilon(on_star, 1.0, 1e-12);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/lower-bound-reduction/values", test_values);
  g_test_add_func("/lower-bound-reduction/never-above-schedules", test_never_above_schedules);
  return g_test_run();
}
