/* The dissertation's §4.1.1.1 all-to-all repository (issue #3): 2dmesh,
 * 3dmesh, rdb and bruck. Every schedule must pass the verifier's data-flow
 * (intermediate hops replayed), completeness and 1-port checks, on the
 * bundled topologies and on 300 seeded random trees, with the number of
 * phases and the chunks moved the paper's formulas give. The expected
 * figures are recomputed here from the paper's text, independently of the
 * planners. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/io/topology_io.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

static const char *const repository[] = { "2dmesh", "3dmesh", "rdb", "bruck" };

/* ---- expected figures, from the dissertation's descriptions ----------- */

static gboolean is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

static int floor_lg(int p)
{
  int lg = 0;
  while ((2 << lg) <= p)
    lg++;
  return lg;
}

static int ceil_lg(int p)
{
  int lg = 0;
  while ((1 << lg) < p)
    lg++;
  return lg;
}

static int popcount(int k)
{
  int n = 0;
  for (; k != 0; k >>= 1)
    n += k & 1;
  return n;
}

/* 2D factoring: x ≤ y, x·y = p, x + y minimal (x the divisor nearest √p). */
static void mesh2(int p, int *x, int *y)
{
  *x = 1;
  for (int d = 2; d <= p; d++)
    if (p % d == 0 && d <= p / d)
      *x = d;
  *y = p / *x;
}

/* 3D factoring: x ≤ y ≤ z, x·y·z = p, x + y + z minimal; ties: largest x,
 * then largest y (the planner's documented choice). Brute force. */
static void mesh3(int p, int d[3])
{
  int best = G_MAXINT;
  for (int x = 1; x <= p; x++)
    for (int y = x; y <= p; y++) {
      if ((int64_t)x * y > p || p % (x * y) != 0 || p / (x * y) < y)
        continue;
      int z = p / (x * y), sum = x + y + z;
      if (sum < best || (sum == best && (x > d[0] || (x == d[0] && y > d[1])))) {
        best = sum;
        d[0] = x;
        d[1] = y;
        d[2] = z;
      }
    }
}

static uint64_t expected_phases(const char *algo, int p)
{
  if (g_str_equal(algo, "bruck"))
    return (uint64_t)ceil_lg(p);
  if (g_str_equal(algo, "2dmesh")) {
    int x, y;
    mesh2(p, &x, &y);
    return (uint64_t)(x - 1 + y - 1);
  }
  if (g_str_equal(algo, "3dmesh")) {
    int d[3] = { 0, 0, 0 };
    mesh3(p, d);
    return (uint64_t)(d[0] + d[1] + d[2] - 3);
  }
  /* rdb: lg p; otherwise fold + ⌊lg p⌋ doubling steps + unfold. */
  return (uint64_t)(is_pow2(p) ? floor_lg(p) : floor_lg(p) + 2);
}

/* Chunk moves. bruck: machine i sends, in step b, every relative index k
 * with bit b set. The all-data algorithms: every machine receives every
 * other machine's block of p−1 chunks exactly once. */
static uint64_t expected_moves(const char *algo, int p)
{
  if (g_str_equal(algo, "bruck")) {
    uint64_t per = 0;
    for (int k = 1; k < p; k++)
      per += (uint64_t)popcount(k);
    return per * (uint64_t)p;
  }
  return (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)(p - 1);
}

/* Chunks of every transfer of each phase, when a phase's transfers all
 * carry the same number (the mesh shapes and bruck); NULL if not known. */
static GArray *expected_phase_sizes(const char *algo, int p)
{
  GArray *a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  if (g_str_equal(algo, "bruck")) {
    for (int b = 0; (1 << b) < p; b++) {
      uint32_t n = 0;
      for (int k = 1; k < p; k++)
        n += (k >> b) & 1;
      g_array_append_val(a, n);
    }
    return a;
  }
  int dims[3] = { 0, 0, 0 }, n_dims = 0;
  if (g_str_equal(algo, "2dmesh")) {
    mesh2(p, &dims[0], &dims[1]);
    n_dims = 2;
  } else if (g_str_equal(algo, "3dmesh")) {
    mesh3(p, dims);
    n_dims = 3;
  } else if (is_pow2(p)) { /* rdb: step k carries 2^k blocks */
    for (int k = 0; (1 << k) < p; k++) {
      uint32_t n = (uint32_t)(1 << k) * (uint32_t)(p - 1);
      g_array_append_val(a, n);
    }
    return a;
  } else {
    g_array_unref(a);
    return NULL;
  }
  /* Dimension e carries dims[0]·…·dims[e−1] blocks of p−1 chunks: the
   * paper's "pn" in x and "p√p n" in y. */
  uint32_t blocks = 1;
  for (int e = 0; e < n_dims; e++) {
    for (int j = 1; j < dims[e]; j++) {
      uint32_t n = blocks * (uint32_t)(p - 1);
      g_array_append_val(a, n);
    }
    blocks *= (uint32_t)dims[e];
  }
  return a;
}

/* ---- checks ------------------------------------------------------------ */

/* Receipts of the same chunk by the same machine beyond the first, relays
 * included (the verifier flags only second deliveries to a destination).
 * Also counts transfers carrying a chunk whose origin is the receiver. */
static uint64_t count_repeat_receipts(const NsSchedule *s)
{
  int p = s->n_machines;
  /* One bit per (chunk, receiver): p³ bits. */
  uint64_t n_bits = (uint64_t)p * (uint64_t)p * (uint64_t)p;
  uint8_t *seen = g_new0(uint8_t, n_bits / 8 + 1);
  uint64_t repeats = 0;
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    const uint32_t *c = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      if ((int)(c[k] / (uint32_t)p) == tr->dst)
        repeats++;
      uint64_t bit = (uint64_t)c[k] * (uint64_t)p + (uint64_t)tr->dst;
      if (seen[bit / 8] & (1u << (bit % 8)))
        repeats++;
      seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
    }
  }
  g_free(seen);
  return repeats;
}

static NsSchedule *plan(const NsTopology *t, const char *algo)
{
  NsPlanParams params = { .msize = 1024 };
  GError *error = NULL;
  NsSchedule *s = ns_plan(t, NS_COLL_ALLTOALL, algo, &params, &error);
  g_assert_no_error(error);
  g_assert_nonnull(s);
  return s;
}

static void fail_with_finding(const NsTopology *t, const NsSchedule *s, const NsVerifyReport *r,
                              NsCheck check)
{
  for (guint i = 0; i < r->findings->len; i++) {
    const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
    if (ns_finding_check(f->kind) == check) {
      g_autofree char *d = ns_finding_describe(f, t, s);
      g_error("alltoall/%s on %s: %s failed %" G_GUINT64_FORMAT " times, e.g. %s", s->algorithm,
              ns_topology_source(t), ns_check_name(check), r->failures[check], d);
    }
  }
  g_error("alltoall/%s on %s: %s failed", s->algorithm, ns_topology_source(t),
          ns_check_name(check));
}

/* Plans `algo` on `t` and asserts everything the issue asks for. */
static void check_algorithm(const NsTopology *t, const char *algo)
{
  int p = ns_topology_n_machines(t);
  g_autoptr(NsSchedule) s = plan(t, algo);
  g_assert_cmpstr(s->algorithm, ==, algo);
  g_assert_cmpint(s->execution, ==, NS_EXEC_PHASED);

  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, NULL, &r, &error));
  g_assert_no_error(error);
  const NsCheck must_pass[] = { NS_CHECK_DATAFLOW, NS_CHECK_COMPLETE, NS_CHECK_PORT };
  for (gsize c = 0; c < G_N_ELEMENTS(must_pass); c++) {
    g_assert_true(r.ran[must_pass[c]]);
    if (r.failures[must_pass[c]] != 0)
      fail_with_finding(t, s, &r, must_pass[c]);
  }
  /* On one switch, 1-port means no two transfers share a directed edge. */
  if (ns_topology_n_nodes(t) == p + 1 && r.failures[NS_CHECK_CONTENTION] != 0)
    fail_with_finding(t, s, &r, NS_CHECK_CONTENTION);
  g_assert_cmpuint(r.n_required, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(r.n_delivered, ==, (uint64_t)p * (p - 1));
  g_assert_cmpuint(count_repeat_receipts(s), ==, 0);

  /* The paper's step counts and data volumes. */
  g_assert_cmpuint(r.n_phases, ==, expected_phases(algo, p));
  g_assert_cmpuint(r.n_chunk_moves, ==, expected_moves(algo, p));
  GArray *sizes = expected_phase_sizes(algo, p);
  if (sizes != NULL) {
    g_assert_cmpuint(ns_schedule_n_phases(s), ==, sizes->len);
    for (uint32_t ph = 0; ph < sizes->len; ph++) {
      uint64_t first, n;
      ns_schedule_phase_range(s, ph, &first, &n);
      g_assert_cmpuint(n, ==, (uint64_t)p); /* every machine sends once */
      for (uint64_t i = first; i < first + n; i++)
        g_assert_cmpuint(ns_schedule_transfer(s, i)->n_chunks, ==,
                         g_array_index(sizes, uint32_t, ph));
    }
    g_array_unref(sizes);
  }
  ns_verify_report_clear(&r);
}

/* ---- tests ------------------------------------------------------------- */

static void test_registry(void)
{
  const NsPlanFunc funcs[] = { ns_alltoall_2dmesh, ns_alltoall_3dmesh, ns_alltoall_rdb,
                               ns_alltoall_bruck };
  for (gsize a = 0; a < G_N_ELEMENTS(repository); a++) {
    const NsPlanner *pl = ns_planner_find(NS_COLL_ALLTOALL, repository[a]);
    g_assert_nonnull(pl);
    g_assert_cmpstr(pl->name, ==, repository[a]);
    g_assert_true(pl->plan == funcs[a]);
    g_assert_nonnull(strstr(pl->source, "§4.1.1.1"));
  }
}

/* The paper's cost terms, exactly, where it states them: p a power of two
 * (bruck (p/2)·lg p chunks a machine, rdb lg p steps), a perfect square
 * (2dmesh 2(√p−1) steps) and a perfect cube (3dmesh 3(∛p−1) steps); all-data
 * algorithms (p−1)·p messages a machine less the p−1 self-messages. */
static void test_paper_formulas(void)
{
  for (int lg = 1; lg <= 6; lg++) {
    int p = 1 << lg;
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    g_autoptr(NsSchedule) b = plan(t, "bruck");
    g_autoptr(NsSchedule) r = plan(t, "rdb");
    NsVerifyReport rb = { 0 }, rr = { 0 };
    g_assert_true(ns_verify(t, b, NULL, &rb, NULL));
    g_assert_true(ns_verify(t, r, NULL, &rr, NULL));
    g_assert_cmpuint(rb.n_phases, ==, (uint64_t)lg);
    g_assert_cmpuint(rb.n_chunk_moves, ==, (uint64_t)p * (uint64_t)(p / 2) * (uint64_t)lg);
    g_assert_cmpuint(rr.n_phases, ==, (uint64_t)lg);
    g_assert_cmpuint(rr.n_chunk_moves, ==, (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)(p - 1));
    g_assert_true(ns_verify_passed(&rb, FALSE));
    g_assert_true(ns_verify_passed(&rr, FALSE));
    ns_verify_report_clear(&rb);
    ns_verify_report_clear(&rr);
  }
  for (int q = 2; q <= 8; q++) {
    int p = q * q;
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    g_autoptr(NsSchedule) s = plan(t, "2dmesh");
    NsVerifyReport r = { 0 };
    g_assert_true(ns_verify(t, s, NULL, &r, NULL));
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)(2 * (q - 1)));
    g_assert_cmpuint(r.n_chunk_moves, ==, (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)(p - 1));
    /* x-dimension messages: one block (pn); y-dimension: √p blocks (p√p n). */
    g_assert_cmpuint(ns_schedule_transfer(s, 0)->n_chunks, ==, (uint32_t)(p - 1));
    g_assert_cmpuint(ns_schedule_transfer(s, ns_schedule_n_transfers(s) - 1)->n_chunks, ==,
                     (uint32_t)(q * (p - 1)));
    g_assert_true(ns_verify_passed(&r, FALSE));
    ns_verify_report_clear(&r);
  }
  for (int q = 2; q <= 4; q++) {
    int p = q * q * q;
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    g_autoptr(NsSchedule) s = plan(t, "3dmesh");
    NsVerifyReport r = { 0 };
    g_assert_true(ns_verify(t, s, NULL, &r, NULL));
    g_assert_cmpuint(r.n_phases, ==, (uint64_t)(3 * (q - 1)));
    g_assert_cmpuint(r.n_chunk_moves, ==, (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)(p - 1));
    g_assert_cmpuint(ns_schedule_transfer(s, ns_schedule_n_transfers(s) - 1)->n_chunks, ==,
                     (uint32_t)(q * q * (p - 1)));
    g_assert_true(ns_verify_passed(&r, FALSE));
    ns_verify_report_clear(&r);
  }
}

/* Transfers spelled "src->dst:{origins of the blocks it carries}". */
static char *phase_blocks(const NsSchedule *s, uint32_t ph, int src)
{
  uint64_t first, n;
  ns_schedule_phase_range(s, ph, &first, &n);
  int p = s->n_machines;
  GString *out = g_string_new(NULL);
  for (uint64_t i = first; i < first + n; i++) {
    const NsTransfer *tr = ns_schedule_transfer(s, i);
    if (tr->src != src)
      continue;
    g_string_append_printf(out, "%d->%d:{", tr->src, tr->dst);
    const uint32_t *c = ns_schedule_chunks(s, tr);
    int last = -1;
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      int o = (int)(c[k] / (uint32_t)p);
      if (o != last)
        g_string_append_printf(out, "%s%d", last < 0 ? "" : ",", o);
      last = o;
    }
    g_string_append(out, "}");
  }
  return g_string_free(out, FALSE);
}

/* Small cases worked by hand from the paper's descriptions. */
static void test_worked_examples(void)
{
  /* bruck, p = 4: step 0 machine 0 sends indices 1, 3 to machine 1: its own
   * messages 0->1 and 0->3; step 1 indices 2, 3 to machine 2: its own 0->2
   * and 3->2, which it received from machine 3 in step 0. */
  g_autoptr(NsTopology) t4 = ns_shape_star(4, 100e6, 0);
  g_autoptr(NsSchedule) b = plan(t4, "bruck");
  g_assert_cmpuint(ns_schedule_n_phases(b), ==, 2);
  const uint32_t b0[] = { ns_a2a_chunk(4, 0, 1), ns_a2a_chunk(4, 0, 3) };
  const uint32_t b1[] = { ns_a2a_chunk(4, 0, 2), ns_a2a_chunk(4, 3, 2) };
  const NsTransfer *t0 = ns_schedule_transfer(b, 0), *t1 = ns_schedule_transfer(b, 4);
  g_assert_cmpint(t0->src, ==, 0);
  g_assert_cmpint(t0->dst, ==, 1);
  g_assert_cmpint(t1->src, ==, 0);
  g_assert_cmpint(t1->dst, ==, 2);
  g_assert_cmpuint(t0->n_chunks, ==, 2);
  g_assert_cmpuint(t1->n_chunks, ==, 2);
  g_assert_cmpmem(ns_schedule_chunks(b, t0), sizeof b0, b0, sizeof b0);
  g_assert_cmpmem(ns_schedule_chunks(b, t1), sizeof b1, b1, sizeof b1);

  /* 2dmesh, p = 6: a 2 × 3 mesh, rows {0,1}, {2,3}, {4,5}. */
  g_autoptr(NsTopology) t6 = ns_shape_star(6, 100e6, 0);
  g_autoptr(NsSchedule) m = plan(t6, "2dmesh");
  const char *mesh[] = { "0->1:{0}", "0->2:{0,1}", "0->4:{0,1}" };
  g_assert_cmpuint(ns_schedule_n_phases(m), ==, G_N_ELEMENTS(mesh));
  for (uint32_t ph = 0; ph < G_N_ELEMENTS(mesh); ph++) {
    g_autofree char *got = phase_blocks(m, ph, 0);
    g_assert_cmpstr(got, ==, mesh[ph]);
  }
  /* 3dmesh, p = 12: 2 × 2 × 3. Machine 0's partners 1, then 2, then 4, 8. */
  g_autoptr(NsTopology) t12 = ns_shape_star(12, 100e6, 0);
  g_autoptr(NsSchedule) m3 = plan(t12, "3dmesh");
  const char *mesh3_0[] = { "0->1:{0}", "0->2:{0,1}", "0->4:{0,1,2,3}", "0->8:{0,1,2,3}" };
  g_assert_cmpuint(ns_schedule_n_phases(m3), ==, G_N_ELEMENTS(mesh3_0));
  for (uint32_t ph = 0; ph < G_N_ELEMENTS(mesh3_0); ph++) {
    g_autofree char *got = phase_blocks(m3, ph, 0);
    g_assert_cmpstr(got, ==, mesh3_0[ph]);
  }
  /* rdb, p = 6 (not a power of two): fold 4->0 and 5->1, doubling among
   * 0..3, unfold 0->4 (everything but 4's own block) and 1->5. */
  g_autoptr(NsSchedule) r = plan(t6, "rdb");
  const char *rdb0[] = { "", "0->1:{0,4}", "0->2:{0,4,1,5}", "0->4:{0,1,5,2,3}" };
  const char *rdb4[] = { "4->0:{4}", "", "", "" };
  g_assert_cmpuint(ns_schedule_n_phases(r), ==, G_N_ELEMENTS(rdb0));
  for (uint32_t ph = 0; ph < G_N_ELEMENTS(rdb0); ph++) {
    g_autofree char *got0 = phase_blocks(r, ph, 0);
    g_autofree char *got4 = phase_blocks(r, ph, 4);
    g_assert_cmpstr(got0, ==, rdb0[ph]);
    g_assert_cmpstr(got4, ==, rdb4[ph]);
  }
}

/* Every bundled topology (native, Slurm, GraphML). */
static void test_bundled_topologies(void)
{
  g_autofree char *dir = ns_test_source("scenarios/topologies");
  GError *error = NULL;
  GDir *d = g_dir_open(dir, 0, &error);
  g_assert_no_error(error);
  int loaded = 0;
  const char *name;
  while ((name = g_dir_read_name(d)) != NULL) {
    if (!g_str_has_suffix(name, ".topo") && !g_str_has_suffix(name, ".conf") &&
        !g_str_has_suffix(name, ".graphml"))
      continue;
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(NsTopology) t = ns_topology_load(path, NS_TOPO_FORMAT_AUTO, NULL, NULL, &error);
    g_assert_no_error(error);
    for (gsize a = 0; a < G_N_ELEMENTS(repository); a++)
      check_algorithm(t, repository[a]);
    loaded++;
  }
  g_dir_close(d);
  g_assert_cmpint(loaded, >=, 5);
}

/* 300 seeded random trees of every kind: the first 69 take every p from 2
 * to 70 once (every prime and power of two in range, perfect squares and
 * cubes among them), the others p = 2 .. 40 (the all-data algorithms move
 * p·(p−1)² chunks, so large p dominate the run time). */
static void test_random_trees(void)
{
  const NsRandomKind kinds[] = { NS_RANDOM_UNIFORM, NS_RANDOM_STAR, NS_RANDOM_CHAIN,
                                 NS_RANDOM_DEEP, NS_RANDOM_UNBALANCED };
  gboolean seen_p[71] = { FALSE };
  int checked = 0;
  for (uint64_t seed = 1; seed <= 300; seed++) {
    /* 37 is prime to 69 and to 39: a permutation of each range. */
    int p = seed <= 69 ? 2 + (int)((seed * 37) % 69) : 2 + (int)((seed * 37) % 39);
    int switches = 1 + (int)(seed * 104729 % (guint64)MAX(p / 2, 1));
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_random(seed, p, switches,
                                              kinds[seed % G_N_ELEMENTS(kinds)], 100e6, 10e-6,
                                              &error);
    g_assert_no_error(error);
    g_assert_cmpint(ns_topology_n_machines(t), ==, p);
    for (gsize a = 0; a < G_N_ELEMENTS(repository); a++)
      check_algorithm(t, repository[a]);
    seen_p[p] = TRUE;
    checked++;
  }
  g_assert_cmpint(checked, ==, 300);
  for (int p = 2; p <= 70; p++)
    g_assert_true(seen_p[p]);
}

/* Copy of `s` with its phases in the order `order[0..n)`. */
static NsSchedule *reorder(const NsSchedule *s, const uint32_t *order, uint32_t n)
{
  NsSchedule *c = ns_schedule_new(s->collective, s->algorithm, s->n_machines,
                                  (const char *const *)s->machines, s->msize);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t first, count;
    ns_schedule_phase_range(s, order[i], &first, &count);
    ns_schedule_begin_phase(c);
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      ns_schedule_add_chunks(c, tr->src, tr->dst, tr->n_chunks, ns_schedule_chunks(s, tr));
    }
  }
  return c;
}

/* The checks above can fail: Bruck's steps in reverse order forward chunks
 * not yet received (the verifier replays the intermediate hops), and a
 * mesh step played twice delivers twice and makes relays receive again. */
static void test_broken_schedules_fail(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(8, 100e6, 0);
  g_autoptr(NsSchedule) b = plan(t, "bruck");
  const uint32_t reversed[] = { 2, 1, 0 };
  g_autoptr(NsSchedule) bad = reorder(b, reversed, 3);
  NsVerifyReport r = { 0 };
  g_assert_true(ns_verify(t, bad, NULL, &r, NULL));
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], >, 0);
  g_assert_cmpuint(r.n_chunk_moves, ==, expected_moves("bruck", 8)); /* same moves */
  ns_verify_report_clear(&r);

  g_autoptr(NsTopology) t9 = ns_shape_star(9, 100e6, 0);
  g_autoptr(NsSchedule) m = plan(t9, "2dmesh"); /* 3 × 3: phases 0,1 x; 2,3 y */
  const uint32_t twice[] = { 0, 1, 2, 3, 3 };
  g_autoptr(NsSchedule) dup = reorder(m, twice, 5);
  g_assert_true(ns_verify(t9, dup, NULL, &r, NULL));
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], >, 0);
  g_assert_cmpuint(count_repeat_receipts(dup), >, 0);
  ns_verify_report_clear(&r);
  /* A relay receiving a chunk again is a redundant delivery: machine 1 got
   * 0's block, message 0->5 included, in phase 0. */
  const uint32_t all[] = { 0, 1, 2, 3 };
  g_autoptr(NsSchedule) dup2 = reorder(m, all, 4);
  ns_schedule_begin_phase(dup2);
  ns_schedule_add(dup2, 0, 1, ns_a2a_chunk(9, 0, 5));
  g_assert_true(ns_verify(t9, dup2, NULL, &r, NULL));
  g_assert_false(ns_verify_passed(&r, FALSE));
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_assert_cmpuint(count_repeat_receipts(dup2), ==, 1);
  ns_verify_report_clear(&r);
  /* So is a chunk listed twice in one transfer, and a message back to its
   * origin. */
  g_autoptr(NsSchedule) dup3 = reorder(m, all, 4);
  ns_schedule_begin_phase(dup3);
  const uint32_t same[] = { ns_a2a_chunk(9, 1, 2), ns_a2a_chunk(9, 1, 2) };
  ns_schedule_add_chunks(dup3, 1, 3, 2, same);
  ns_schedule_add(dup3, 4, 1, ns_a2a_chunk(9, 1, 4));
  g_assert_true(ns_verify(t9, dup3, NULL, &r, NULL));
  /* Listed twice; both copies redundant (2dmesh gathers all data, so machine
   * 3 relayed 1->2 already); and 1->4 back at its origin. */
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 4);
  ns_verify_report_clear(&r);
}

/* Edge cases: p = 2 and 3 on one switch, and the IR's size limit. */
static void test_limits(void)
{
  for (int p = 1; p <= 3; p++) {
    g_autoptr(NsTopology) t = ns_shape_star(p, 100e6, 0);
    if (t == NULL)
      continue; /* a shape may refuse p = 1 */
    for (gsize a = 0; a < G_N_ELEMENTS(repository); a++)
      check_algorithm(t, repository[a]);
  }
  g_autoptr(NsTopology) big = ns_shape_star(1700, 100e6, 0);
  const char *alldata[] = { "2dmesh", "3dmesh", "rdb" };
  for (gsize a = 0; a < G_N_ELEMENTS(alldata); a++) {
    NsPlanParams params = { .msize = 1 };
    GError *error = NULL;
    NsSchedule *s = ns_plan(big, NS_COLL_ALLTOALL, alldata[a], &params, &error);
    g_assert_null(s);
    g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(error->message, "1700 machines"));
    g_error_free(error);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/alltoall-repository/registry", test_registry);
  g_test_add_func("/alltoall-repository/paper-formulas", test_paper_formulas);
  g_test_add_func("/alltoall-repository/worked-examples", test_worked_examples);
  g_test_add_func("/alltoall-repository/bundled-topologies", test_bundled_topologies);
  g_test_add_func("/alltoall-repository/random-trees-300", test_random_trees);
  g_test_add_func("/alltoall-repository/broken-schedules-fail", test_broken_schedules_fail);
  g_test_add_func("/alltoall-repository/limits", test_limits);
  return g_test_run();
}
