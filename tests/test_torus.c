/* All-port rings and tori: Liu Gang et al.'s AR and AT2, the padding of
 * their §VI, and the baselines (shift, rowcol, submesh) on the same
 * fabrics. Every expected figure below is derived in the comments from
 * the algorithms' definitions, not read off the planners. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/planners/alltoall/torus_exchange_internal.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <math.h>
#include <string.h>

static NsTopology *torus(int r, int c)
{
  NsShapeOptions o;
  ns_shape_options_init(&o);
  int dims[2] = { r, c };
  GError *error = NULL;
  NsTopology *t = ns_shape_grid(dims, c > 0 ? 2 : 1, TRUE, &o, "", &error);
  g_assert_no_error(error);
  return t;
}

static NsSchedule *plan(const NsTopology *t, const char *algo)
{
  NsPlanParams params = { .msize = 4096 };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, algo, &params, &error);
  g_assert_no_error(error);
  g_assert_nonnull(s);
  return s;
}

/* Transmission in message times (the verifier's Σ over phases of the
 * largest transfer), all links having one speed. */
static double message_times(const NsVerifyReport *r, const NsSchedule *s, const NsTopology *t)
{
  double bw = ns_topology_link(t, 0)->bandwidth;
  return r->transmission_s * bw / (8.0 * (double)s->msize);
}

/* Lemma 1 with message granularity: N_1·ΠN_i/8 messages a link for the
 * largest (even) dimension N_1 — ⌈p²/8⌉ on a ring of p. */
static uint64_t lemma1(int r, int c)
{
  int big = MAX(r, c), p = r * MAX(c, 1);
  return (uint64_t)ceil((double)big * p / 8.0 - 1e-9);
}

/* ---- AR ---------------------------------------------------------------- */

/* Every even p from 4 to 256: verified contention-free, all-port, every
 * message on a shortest path, transmission = ⌈p²/8⌉ (optimal), p/2
 * phases. */
static void test_ar_every_even_ring(void)
{
  for (int p = 4; p <= 256; p += 2) {
    g_autoptr(NsTopology) t = torus(p, 0);
    g_autoptr(NsSchedule) s = plan(t, "ar");
    NsVerifyReport r = ns_test_verify(t, s);
    if (!ns_verify_passed(&r, NS_REQUIRE_OPTIMAL | NS_REQUIRE_SHORTEST))
      g_error("ar on a ring of %d failed verification", p);
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)p / 2);
    g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
    g_assert_cmpuint(r.max_edge_use, ==, 1);
    g_assert_cmpuint(r.bound.load, ==, lemma1(p, 0));
    g_assert_cmpfloat_with_epsilon(message_times(&r, s, t), (double)lemma1(p, 0), 1e-6);
    ns_verify_report_clear(&r);
  }
}

/* Fig. 3, p = 8, derived from §III's text (the figure itself is lost in
 * the OCR). Positive half-circle of P_i: offsets 1..4, the antipodal P_{i+4}
 * going clockwise when even-bound, anticlockwise when odd-bound.
 *  step 0 (Stage 1): P_0→P_1 {M^0_1, M^0_3}, P_0→P_7 {M^0_7, M^0_5},
 *                    P_1→P_2 {M^1_2, M^1_4}, P_1→P_0 {M^1_0, M^1_6}, and
 *                    rotations by 2 of both;
 *  step 1 (Stage 2, k = 0): P_0→P_2 {M^0_2, M^0_4, M^7_2} (even sub-ring
 *                    clockwise: own +2, own antipodal +4, and P_7's +3
 *                    received in Stage 1); P_1→P_7 {M^1_7, M^1_5, M^2_7}
 *                    (odd sub-ring anticlockwise);
 *  step 2 (Stage 2, k = 1): even P_i→P_{i+2} forwards the antipodal
 *                    M^{i−2}_{i+2} it received in step 1; odd P_i→P_{i−2}
 *                    forwards M^{i+2}_{i−2};
 *  step 3 (Stage 3): P_0→P_6 {M^0_6, M^1_6}; P_1→P_3 {M^1_3, M^0_3}. */
typedef struct {
  int src, dst, n;
  int msg[3][2]; /* (origin, destination) offsets relative to src */
} Fig3;

static void test_ar_fig3(void)
{
  g_autoptr(NsTopology) t = torus(8, 0);
  g_autoptr(NsSchedule) s = plan(t, "ar");
  g_assert_cmpuint(ns_schedule_n_phases(s), ==, 4);
  /* Patterns for an even node e (and an odd node e+1), offsets relative
   * to e; every pattern repeats for e = 0, 2, 4, 6. */
  static const struct {
    int phase, src, dst, n;
    int msg[3][2];
  } pattern[] = {
    { 0, 0, 1, 2, { { 0, 1 }, { 0, 3 } } },          { 0, 0, -1, 2, { { 0, -1 }, { 0, -3 } } },
    { 0, 1, 2, 2, { { 1, 2 }, { 1, 4 } } },          { 0, 1, 0, 2, { { 1, 0 }, { 1, -2 } } },
    { 1, 0, 2, 3, { { 0, 2 }, { 0, 4 }, { -1, 2 } } }, { 1, 1, -1, 3, { { 1, -1 }, { 1, -3 }, { 2, -1 } } },
    { 2, 0, 2, 1, { { -2, 2 } } },                   { 2, 1, -1, 1, { { 3, -1 } } },
    { 3, 0, -2, 2, { { 0, -2 }, { 1, -2 } } },       { 3, 1, 3, 2, { { 1, 3 }, { 0, 3 } } },
  };
  for (uint32_t ph = 0; ph < 4; ph++) {
    uint64_t first, count, expected = 0;
    ns_schedule_phase_range(s, ph, &first, &count);
    for (gsize i = 0; i < G_N_ELEMENTS(pattern); i++)
      expected += pattern[i].phase == (int)ph ? 4 : 0;
    g_assert_cmpuint(count, ==, expected);
    for (gsize i = 0; i < G_N_ELEMENTS(pattern); i++) {
      if (pattern[i].phase != (int)ph)
        continue;
      for (int e = 0; e < 8; e += 2) {
        int src = (e + pattern[i].src + 8) % 8, dst = (e + pattern[i].dst + 8) % 8;
        gboolean found = FALSE;
        for (uint64_t k = first; k < first + count && !found; k++) {
          const NsTransfer *tr = ns_schedule_transfer(s, k);
          if (tr->src != src || tr->dst != dst)
            continue;
          found = TRUE;
          g_assert_cmpuint(tr->n_chunks, ==, (uint32_t)pattern[i].n);
          const uint32_t *ch = ns_schedule_chunks(s, tr);
          for (int m = 0; m < pattern[i].n; m++) {
            uint32_t want = ns_a2a_chunk(8, (e + pattern[i].msg[m][0] + 8) % 8,
                                         (e + pattern[i].msg[m][1] + 8) % 8);
            gboolean has = FALSE;
            for (uint32_t q = 0; q < tr->n_chunks; q++)
              has = has || ch[q] == want;
            if (!has)
              g_error("phase %u n%d->n%d lacks chunk %u", ph, src, dst, want);
          }
        }
        if (!found)
          g_error("phase %u has no transfer n%d->n%d", ph, src, dst);
      }
    }
  }
}

/* A ring of 4: the odd sub-ring's Stage-2 hops P_1→P_3 (through P_0) and
 * P_3→P_1 (through P_2) go anticlockwise, which dimension-order routing
 * (ties clockwise) would not do: they, and only they, carry own routes. */
static void test_ar_ring4_routes(void)
{
  g_autoptr(NsTopology) t = torus(4, 0);
  g_autoptr(NsSchedule) s = plan(t, "ar");
  g_assert_nonnull(s->routes);
  g_assert_cmpuint(s->routes->len, ==, 2);
  for (guint i = 0; i < s->routes->len; i++) {
    const NsTransferRoute *rt = &g_array_index(s->routes, NsTransferRoute, i);
    const NsTransfer *tr = ns_schedule_transfer(s, rt->transfer);
    g_assert_cmpint(tr->src % 2, ==, 1);
    const char *const *nodes;
    g_assert_cmpint(ns_schedule_route_of(s, rt->transfer, &nodes), ==, 3);
    g_assert_cmpstr(nodes[1], ==, tr->src == 1 ? "n0" : "n2");
  }
}

/* ---- AT2 --------------------------------------------------------------- */

/* Per-step largest transfer of AR on a logical ring of n nodes whose
 * "messages" are bundles: two of `unit` messages for every destination
 * but the antipodal one (one bundle), split in halves both ways when
 * n ≡ 2 (mod 4). Derivation (positions relative to the sender, q = ⌊n/4⌋):
 *  n = 4q:   Stage 1: q destinations each way, 2 bundles each: 2q;
 *            Stage 2 step k: own bundles still ≥ k+1 sub-ring hops away
 *            (q−k, the antipodal one single) and those received in
 *            Stage 1 (q−1−k): 2(q−k)−1 + 2(q−1−k) = 4q−3−4k;
 *            Stage 3 step k: 2(q−1−k) + 2(q−1−k) = 4(q−1−k).
 *  n = 4q+2: Stage 1: q destinations and half the antipodal bundle each
 *            way: 2q + ½; Stage 2 and Stage 3 step k: 4(q−k) − 3/2.
 * Step numbering: 0 = Stage 1, 1+k = Stage 2, 1 + ⌊n_ref/4⌋ + k = Stage 3. */
static void ar_bundle_costs(int n, int n_ref, double unit, double *cost)
{
  int q = n / 4;
  for (int k = 0; k < n_ref / 2; k++)
    cost[k] = 0;
  if (n % 4 == 0) {
    cost[0] = 2.0 * q * unit;
    for (int k = 0; k < q; k++)
      cost[1 + k] = (4.0 * q - 3 - 4 * k) * unit;
    for (int k = 0; k < q - 1; k++)
      cost[1 + n_ref / 4 + k] = 4.0 * (q - 1 - k) * unit;
  } else {
    cost[0] = (2.0 * q + 0.5) * unit;
    for (int k = 0; k < q; k++) {
      cost[1 + k] = (4.0 * (q - k) - 1.5) * unit;
      cost[1 + n_ref / 4 + k] = (4.0 * (q - k) - 1.5) * unit;
    }
  }
}

/* AT2's transmission in message times on r × c (r ≤ c, multiples of 4):
 * Phase 1 carries r·c/8 + r·c/16 then r·c/16 messages a port (Table I);
 * Phases 2 and 3 each cost Σ over steps of the larger of the row rings'
 * step (c/2 nodes, bundles of r messages) and the column rings' (r/2
 * nodes, bundles of c), the latter aligned stage by stage. */
static double at2_expected(int r, int c)
{
  int n_ref = c / 2;
  double row[64], col[64], phase = 0;
  ar_bundle_costs(c / 2, n_ref, r, row);
  ar_bundle_costs(r / 2, n_ref, c, col);
  for (int k = 0; k < n_ref / 2; k++)
    phase += MAX(row[k], col[k]);
  return (double)r * c / 4.0 + 2.0 * phase;
}

static void check_at2(int r, int c)
{
  g_autoptr(NsTopology) t = torus(r, c);
  g_autoptr(NsSchedule) s = plan(t, "at2");
  NsVerifyReport rep = ns_test_verify(t, s);
  int lo = MIN(r, c), hi = MAX(r, c);
  if (rep.failures[NS_CHECK_DATAFLOW] || rep.failures[NS_CHECK_COMPLETE] ||
      rep.failures[NS_CHECK_CONTENTION] || rep.failures[NS_CHECK_PORT] ||
      rep.failures[NS_CHECK_SHORTEST])
    g_error("at2 on %dx%d: a check failed", r, c);
  g_assert_cmpuint(rep.n_phases, ==, (uint64_t)(2 + hi / 2));
  g_assert_cmpuint(rep.bound.load, ==, lemma1(r, c));
  double expected = at2_expected(lo, hi), got = message_times(&rep, s, t);
  if (fabs(got - expected) > 1e-6)
    g_error("at2 on %dx%d: %.2f message times, derived %.2f", r, c, got, expected);
  /* Optimal exactly when the derivation reaches Lemma 1, r·c²/8 — which
   * it does whenever r ≡ c (mod 8); Lemma 3's "T_row ≥ T_column" holds
   * in total but not step by step otherwise (docs/algorithms.md). */
  gboolean optimal = fabs(expected - (double)lemma1(r, c)) < 1e-6;
  g_assert_true(optimal == ns_verify_passed(&rep, NS_REQUIRE_OPTIMAL | NS_REQUIRE_SHORTEST));
  if (lo % 8 == hi % 8)
    g_assert_true(optimal);
  ns_verify_report_clear(&rep);
}

/* Every r ≤ c, multiples of four, up to 32 × 32 (36 tori), a few with the
 * larger size first, and a selection up to 64 × 64 (the suite runs under
 * AddressSanitizer; the 64 × 64 schedule moves 1.7·10^8 chunks and is
 * planned and verified by bench/bench_torus instead). */
static void test_at2_sizes(void)
{
  for (int r = 4; r <= 32; r += 4)
    for (int c = r; c <= 32; c += 4)
      check_at2(r, c);
  check_at2(8, 4);
  check_at2(12, 8);
  check_at2(32, 20);
  check_at2(4, 64);
  check_at2(8, 60);
  if (g_test_slow()) { /* -m slow: larger ones, minutes under ASan */
    check_at2(16, 64);
    check_at2(32, 64);
  }
}

/* AT2 on 8 × 8: only the anticlockwise four-link sub-ring hops (half a
 * ring, where dimension-order routing goes clockwise) carry own routes. */
static void test_at2_routes(void)
{
  g_autoptr(NsTopology) t = torus(8, 8);
  g_autoptr(NsSchedule) s = plan(t, "at2");
  g_assert_nonnull(s->routes);
  int buf[64];
  for (guint i = 0; i < s->routes->len; i++) {
    const NsTransferRoute *rt = &g_array_index(s->routes, NsTransferRoute, i);
    const NsTransfer *tr = ns_schedule_transfer(s, rt->transfer);
    g_assert_cmpuint(rt->n, ==, 5);
    g_assert_cmpint(ns_topology_route_machines(t, tr->src, tr->dst, buf), ==, 4);
  }
  /* The logical odd sub-rings of a logical ring of 4 send anticlockwise:
   * one route per node and ring phase (Phases 2 and 3, Stage 2). */
  g_assert_cmpuint(s->routes->len, ==, 64);
}

/* Phases a sink received, gathered into one schedule. */
static gboolean gather_begin(const NsSchedule *header, gpointer data, GError **error)
{
  *(NsSchedule **)data = ns_schedule_copy_header(header);
  return TRUE;
}

static gboolean gather_phase(const NsPhase *phase, gpointer data, GError **error)
{
  NsSchedule *s = *(NsSchedule **)data;
  ns_schedule_begin_phase(s);
  for (uint64_t i = 0; i < phase->n; i++) {
    const NsTransfer *tr = &phase->transfers[i];
    const uint32_t *c = tr->n_chunks == 1 ? &tr->chunk : phase->chunk_pool + tr->chunk;
    ns_schedule_add_chunks(s, tr->src, tr->dst, tr->n_chunks, c);
  }
  return TRUE;
}

/* The engine builds one phase at a time: where no transfer needs a route
 * of its own (sizes above 8, padded or not) the planner streams its phases — the
 * tail handed back holds none — and they are the schedule planned whole,
 * transfer for transfer and chunk for chunk; both declare
 * store-and-forward relays. On 8 × 8 and 7 × 6 (own routes) the phases
 * come from the schedule held whole. */
static void test_streamed(void)
{
  static const struct {
    int r, c;
    const char *algo;
    gboolean streams;
  } cases[] = { { 12, 12, "at2", TRUE }, { 16, 20, "at2", TRUE }, { 12, 0, "ar", TRUE },
                { 10, 14, "at2", TRUE }, { 8, 8, "at2", FALSE }, { 7, 6, "at2", FALSE } };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = torus(cases[i].r, cases[i].c);
    g_autoptr(NsSchedule) whole = plan(t, cases[i].algo);
    g_assert_true(whole->store_forward);
    NsSchedule *got = NULL;
    NsPhaseSink sink = { gather_begin, gather_phase, &got, NULL };
    NsPlanParams params = { .msize = 4096 };
    GError *error = NULL;
    uint32_t n_phases = 0;
    g_autoptr(NsSchedule) tail = ns_plan_streamed(t, NS_COLL_ALLTOALL, cases[i].algo, &params,
                                                  &sink, &n_phases, NULL, &error);
    g_assert_no_error(error);
    g_assert_nonnull(tail);
    g_autoptr(NsSchedule) streamed = got;
    g_assert_cmpuint(ns_schedule_n_phases(tail), ==, (cases[i].streams ? 0 : n_phases));
    g_assert_true(streamed->store_forward);
    g_assert_cmpuint(n_phases, ==, ns_schedule_n_phases(whole));
    g_assert_cmpuint(ns_schedule_n_phases(streamed), ==, ns_schedule_n_phases(whole));
    for (uint32_t ph = 0; ph < n_phases; ph++) {
      g_autofree char *a = ns_schedule_phase_text(whole, ph, TRUE);
      g_autofree char *b = ns_schedule_phase_text(streamed, ph, TRUE);
      g_assert_cmpstr(a, ==, b);
    }
  }
}

/* §VI padding: other sizes run AT2 on the next multiples of four; the
 * schedules are complete, contention-free and all-port on the physical
 * torus. What they cost against Lemma 1 is printed (docs/algorithms.md
 * has the table); it cannot beat the bound. */
static void test_at2_padding(void)
{
  const int sizes[][2] = { { 6, 6 }, { 10, 12 }, { 4, 6 }, { 5, 7 }, { 3, 4 }, { 7, 9 }, { 6, 14 } };
  for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++) {
    g_autoptr(NsTopology) t = torus(sizes[i][0], sizes[i][1]);
    g_autoptr(NsSchedule) s = plan(t, "at2");
    NsVerifyReport r = ns_test_verify(t, s);
    g_assert_true(ns_verify_passed(&r, 0));
    g_assert_cmpuint(r.n_delivered, ==, (uint64_t)r.n_machines * (r.n_machines - 1));
    g_assert_cmpfloat(r.transmission_s, >=, r.bound_s * (1 - 1e-9));
    g_test_message("at2 padded on %dx%d: %" G_GUINT64_FORMAT " phases, transmission x%.4f of "
                   "the bound", sizes[i][0], sizes[i][1], r.n_phases,
                   r.transmission_s / r.bound_s);
    ns_verify_report_clear(&r);
  }
}

static void test_unsupported(void)
{
  struct {
    int r, c;
    const char *algo;
  } cases[] = { { 7, 0, "ar" }, { 8, 8, "ar" }, { 8, 0, "at2" }, { 2, 8, "at2" },
                { 6, 0, "submesh" }, { 5, 8, "submesh" } };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(NsTopology) t = torus(cases[i].r, cases[i].c);
    NsPlanParams params = { .msize = 1024 };
    GError *error = NULL;
    NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, cases[i].algo, &params, &error);
    g_assert_null(s);
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_error_free(error);
  }
  g_autoptr(NsTopology) star = ns_shape_star(8, 100e6, 0);
  NsPlanParams params = { .msize = 1024 };
  GError *error = NULL;
  g_assert_null(ns_plan(star, NS_COLL_ALLTOALL, "rowcol", &params, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_error_free(error);
}

/* The planner refuses an exchange too large for a schedule from the
 * chunk moves of one origin per parity group: on every torus without
 * imaginary nodes up to 24 × 24 (either size the larger) and every even ring up to 96 that count
 * equals the count over all p² messages, and equals the moves of the
 * schedule planned. A torus whose exchange moves more than 2^32 − 1
 * chunks (AT2 on 128 × 128: 4,630,511,616) is refused at once when the
 * schedule is to be held whole (ns_plan); streamed (ns_plan_streamed,
 * `verify -a`, `plan -o`) each phase's chunks fit and it is planned. */
static void test_moves_by_symmetry(void)
{
  guint checked = 0;
  for (int r = 4; r <= 24; r += 4)
    for (int c = 4; c <= 24; c += 4) {
      g_autoptr(NsTopology) t = torus(r, c);
      uint64_t all = ns_torus_exchange_moves(t, 2, FALSE);
      g_assert_cmpuint(ns_torus_exchange_moves(t, 2, TRUE), ==, all);
      if (r * c <= 144) {
        g_autoptr(NsSchedule) s = plan(t, "at2");
        NsVerifyReport rep = ns_test_verify(t, s);
        g_assert_cmpuint(rep.n_chunk_moves, ==, all);
        ns_verify_report_clear(&rep);
      }
      checked++;
    }
  for (int n = 4; n <= 96; n += 2) {
    g_autoptr(NsTopology) t = torus(n, 0);
    g_assert_cmpuint(ns_torus_exchange_moves(t, 1, TRUE), ==,
                     ns_torus_exchange_moves(t, 1, FALSE));
    checked++;
  }
  g_test_message("%u tori and rings: the symmetric count is the full count", checked);
  g_autoptr(NsTopology) big = torus(128, 128);
  g_assert_cmpuint(ns_torus_exchange_moves(big, 2, TRUE), ==, 4630511616u);
  NsPlanParams params = { .msize = 1024 };
  GError *error = NULL;
  gint64 t0 = g_get_monotonic_time();
  g_assert_null(ns_plan(big, NS_COLL_ALLTOALL, "at2", &params, &error));
  g_test_message("128 x 128 refused in %.1f s", (double)(g_get_monotonic_time() - t0) / 1e6);
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_nonnull(strstr(error->message, "would move 4630511616 chunks"));
  g_error_free(error);
}

/* ---- baselines ------------------------------------------------------------ */

/* Transmission with contention counted: every phase lasts as long as its
 * most loaded directed edge needs for the chunks crossing it (links of one
 * speed, bandwidth shared), in message times. Independent of the
 * verifier, from the topology's routes. */
static double congested_message_times(const NsTopology *t, const NsSchedule *s)
{
  double total = 0;
  int n_edges = ns_topology_n_edges(t);
  uint64_t *load = g_new0(uint64_t, n_edges);
  int *route = g_new(int, ns_topology_max_route_len(t));
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n, worst = 0;
    ns_schedule_phase_range(s, ph, &first, &n);
    memset(load, 0, sizeof(uint64_t) * (size_t)n_edges);
    for (uint64_t k = first; k < first + n; k++) {
      const NsTransfer *tr = ns_schedule_transfer(s, k);
      int len = ns_topology_route_machines(t, tr->src, tr->dst, route);
      for (int e = 0; e < len; e++) {
        load[route[e]] += tr->n_chunks;
        worst = MAX(worst, load[route[e]]);
      }
    }
    total += (double)worst;
  }
  g_free(route);
  g_free(load);
  return total;
}

/* min(j, N−j): the links a shift by j loads on a ring of N (the shorter way;
 * at N/2 all of it clockwise, N/2 transfers a link). */
static int shift_load(int j, int N)
{
  j = ((j % N) + N) % N;
  return MIN(j, N - j);
}

/* rowcol: dimension k's shift j loads each link of its direction with
 * min(j, N_k−j) transfers of p/N_k chunks, so it costs
 * Σ_k (p/N_k)·⌊N_k²/4⌋ message times — N³/2 on N × N, four times
 * Lemma 1's N³/8; on a ring ⌊p²/4⌋, twice ⌈p²/8⌉. */
static void test_rowcol(void)
{
  const int sizes[][2] = { { 8, 0 }, { 12, 0 }, { 4, 4 }, { 8, 8 }, { 6, 10 }, { 16, 16 }, { 5, 7 } };
  for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int N0 = sizes[i][0], N1 = MAX(sizes[i][1], 1), p = N0 * N1;
    g_autoptr(NsTopology) t = torus(N0, sizes[i][1]);
    g_autoptr(NsSchedule) s = plan(t, "rowcol");
    NsVerifyReport r = ns_test_verify(t, s);
    g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE], ==, 0);
    g_assert_cmpuint(r.failures[NS_CHECK_SHORTEST], ==, 0);
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)(N0 - 1 + N1 - 1));
    double expected = (double)(p / N0) * (N0 * N0 / 4) + (double)(p / N1) * (N1 * N1 / 4);
    g_assert_cmpfloat_with_epsilon(congested_message_times(t, s), expected, 1e-9);
    if (N0 >= 4)
      g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], >, 0);
    if (N0 == N1 && N0 % 4 == 0) /* N³/2 against N³/8 */
      g_assert_cmpfloat_with_epsilon(expected / (double)lemma1(N0, N1), 4.0, 1e-9);
    if (sizes[i][1] == 0)
      g_assert_cmpfloat_with_epsilon(expected, (double)(p * p / 4), 1e-9);
    ns_verify_report_clear(&r);
  }
}

/* shift (p−1 direct shifts i → i+j, machine i at (i mod N0, ⌊i/N0⌋)):
 * write j = a + N0·b. Every row shifts by a along dimension 0 (load
 * min(a, N0−a)); a source with x + a ≥ N0 carries into the next row, so
 * the columns shift by b or, when a > 0, some by b+1 (load min(b', N1−b'))
 * — a phase costs the largest of these, and the schedule
 * Σ_j max(...) message times. On a ring: ⌊p²/4⌋ = 2·⌈p²/8⌉ (p ≡ 0 mod 4). */
static void test_shift(void)
{
  const int sizes[][2] = { { 8, 0 }, { 12, 0 }, { 4, 4 }, { 8, 8 }, { 8, 12 }, { 16, 16 } };
  for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int N0 = sizes[i][0], N1 = MAX(sizes[i][1], 1), p = N0 * N1;
    g_autoptr(NsTopology) t = torus(N0, sizes[i][1]);
    g_autoptr(NsSchedule) s = plan(t, "shift");
    double expected = 0;
    for (int j = 1; j < p; j++) {
      int a = j % N0, b = j / N0;
      int worst = MAX(shift_load(a, N0), N1 > 1 ? shift_load(b, N1) : 0);
      if (a > 0 && N1 > 1)
        worst = MAX(worst, shift_load(b + 1, N1));
      expected += worst;
    }
    g_assert_cmpfloat_with_epsilon(congested_message_times(t, s), expected, 1e-9);
    if (sizes[i][1] == 0)
      g_assert_cmpfloat_with_epsilon(expected / (double)lemma1(p, 0), 2.0, 1e-9);
    g_test_message("shift on %dx%d: %.0f message times, x%.3f of Lemma 1", N0, N1, expected,
                   expected / (double)lemma1(N0, sizes[i][1]));
    NsVerifyReport r = ns_test_verify(t, s);
    g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE] + r.failures[NS_CHECK_SHORTEST], ==, 0);
    ns_verify_report_clear(&r);
  }
}

/* submesh (§IV.A's previous scheme): complete and one-port, but the groups'
 * shifts contend and relayed messages leave shortest paths (a message from
 * x = 0 to x = N0−3 first goes to x = 1), as Liu Gang et al. say. */
static void test_submesh(void)
{
  const int sizes[][2] = { { 4, 4 }, { 8, 8 }, { 8, 12 }, { 6, 10 } };
  for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int N0 = sizes[i][0], N1 = sizes[i][1], p = N0 * N1;
    g_autoptr(NsTopology) t = torus(N0, N1);
    g_autoptr(NsSchedule) s = plan(t, "submesh");
    NsVerifyOptions opt;
    ns_verify_options_init(&opt);
    opt.port = NS_PORT_ONE;
    NsVerifyReport r = { 0 };
    g_assert_true(ns_verify(t, s, &opt, &r, NULL));
    g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW] + r.failures[NS_CHECK_COMPLETE], ==, 0);
    g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 0);
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)(N0 / 2 + N1 / 2));
    g_assert_cmpuint(r.n_chunk_moves, ==,
                     (uint64_t)p * p + (uint64_t)p * ((N0 / 2 - 1) * 2 * N1 + (N1 / 2 - 1) * 2 * N0));
    if (N0 >= 8) {
      g_assert_cmpuint(r.failures[NS_CHECK_SHORTEST], >, 0);
      g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], >, 0);
    }
    ns_verify_report_clear(&r);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/torus/ar/every-even-ring-4-256", test_ar_every_even_ring);
  g_test_add_func("/torus/ar/fig3-ring-of-8", test_ar_fig3);
  g_test_add_func("/torus/ar/ring-of-4-own-routes", test_ar_ring4_routes);
  g_test_add_func("/torus/at2/sizes", test_at2_sizes);
  g_test_add_func("/torus/at2/own-routes-8x8", test_at2_routes);
  g_test_add_func("/torus/at2/padding", test_at2_padding);
  g_test_add_func("/torus/streamed", test_streamed);
  g_test_add_func("/torus/unsupported", test_unsupported);
  g_test_add_func("/torus/moves-by-symmetry", test_moves_by_symmetry);
  g_test_add_func("/torus/baseline/rowcol", test_rowcol);
  g_test_add_func("/torus/baseline/shift", test_shift);
  g_test_add_func("/torus/baseline/submesh", test_submesh);
  return g_test_run();
}
