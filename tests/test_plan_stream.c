/* netsched — streamed planning (schedule.h "Streaming", ns_plan_streamed,
 * ns_verify_planned): a planner's phases handed on as they are built must
 * be exactly the schedule ns_plan returns, for every registered planner on
 * hundreds of seeded topologies; planners that stream must never hold
 * more than one phase; verifying as the planner goes must give the report
 * ns_verify gives; a failing consumer stops the stream with its error; a
 * planner that changes its header after streaming began is caught. */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/common/phase_packing_internal.h"
#include "sched/planners/registry.h"
#include "sched/io/schedule_stream.h"
#include "sched/verify/verify.h"
#include "testutil.h"
#include <stdio.h>
#include <string.h>

/* Planners that stream (the others, and faraj on mixed speeds, build
 * their schedule first). */
static const struct {
  NsCollective c;
  const char *name;
} streaming[] = {
  { NS_COLL_ALLTOALL, "faraj" }, { NS_COLL_ALLTOALL, "ring" }, { NS_COLL_ALLTOALL, "shift" },
  { NS_COLL_ALLTOALL, "pair" },  { NS_COLL_ALLGATHER, "ring" }, { NS_COLL_ALLGATHER, "lr1" },
  { NS_COLL_ALLGATHER, "lr2" },  { NS_COLL_ALLGATHER, "lr3" },  { NS_COLL_ALLGATHER, "torus" },
};

static gboolean streams(NsCollective c, const char *name, const NsTopology *t)
{
  if (c == NS_COLL_ALLTOALL && strcmp(name, "faraj") == 0 && ns_topology_mixed_speeds(t))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(streaming); i++)
    if (streaming[i].c == c && strcmp(name, streaming[i].name) == 0)
      return TRUE;
  return FALSE;
}

/* A sink that rebuilds the schedule it is given, checks the phase numbers
 * and can fail at a chosen phase. */
typedef struct {
  NsSchedule *got;
  uint32_t fail_at;          /* G_MAXUINT32: never */
  uint32_t phases_seen;
  uint64_t largest_held;     /* the most transfers the planner held at a hand-over */
  const NsSchedule *planning;
} Collect;

static gboolean collect_begin(const NsSchedule *header, gpointer data, GError **error)
{
  Collect *c = data;
  g_assert_null(c->got);
  g_assert_cmpuint(ns_schedule_n_phases(header), ==, 0);
  c->got = ns_schedule_copy_header(header);
  return TRUE;
}

static gboolean collect_phase(const NsPhase *ph, gpointer data, GError **error)
{
  Collect *c = data;
  g_assert_nonnull(c->got);
  g_assert_cmpuint(ph->index, ==, c->phases_seen);
  g_assert_cmpuint(ph->first, ==, ns_schedule_n_transfers(c->got));
  c->phases_seen++;
  c->largest_held = MAX(c->largest_held, ph->n);
  if (ph->index == c->fail_at) {
    g_set_error(error, NS_ERROR, NS_ERROR_IO, "consumer gave up at phase %u", ph->index);
    return FALSE;
  }
  ns_schedule_begin_phase(c->got);
  for (uint64_t i = 0; i < ph->n; i++) {
    const NsTransfer *tr = &ph->transfers[i];
    ns_schedule_add_chunks(c->got, tr->src, tr->dst, tr->n_chunks,
                           tr->n_chunks == 1 ? &tr->chunk : ph->chunk_pool + tr->chunk);
  }
  return TRUE;
}

static void assert_same_schedule(const NsSchedule *a, const NsSchedule *b, const char *what)
{
  g_assert_cmpint(a->collective, ==, b->collective);
  g_assert_cmpstr(a->algorithm, ==, b->algorithm);
  g_assert_cmpint(a->n_machines, ==, b->n_machines);
  for (int i = 0; i < a->n_machines; i++)
    g_assert_cmpstr(a->machines[i], ==, b->machines[i]);
  g_assert_cmpuint(a->msize, ==, b->msize);
  g_assert_cmpint(a->root, ==, b->root);
  g_assert_cmpuint(a->n_segments, ==, b->n_segments);
  g_assert_cmpint(a->execution, ==, b->execution);
  g_assert_cmpuint(ns_schedule_n_phases(a), ==, ns_schedule_n_phases(b));
  g_assert_cmpuint(ns_schedule_n_transfers(a), ==, ns_schedule_n_transfers(b));
  for (uint32_t p = 0; p < ns_schedule_n_phases(a); p++) {
    g_autofree char *x = ns_schedule_phase_text(a, p, TRUE);
    g_autofree char *y = ns_schedule_phase_text(b, p, TRUE);
    if (strcmp(x, y) != 0)
      g_error("%s: phase %u differs:\n  %s\n  %s", what, p, x, y);
  }
}

/* Plans `name` whole and streamed on t; returns FALSE when the planner
 * does not take the topology. */
static gboolean compare_streamed(const NsTopology *t, NsCollective coll, const char *name,
                                 uint64_t msize, gboolean *streamed)
{
  NsPlanParams params = { .msize = msize, .segment = coll == NS_COLL_BCAST ? msize / 4 : 0 };
  GError *error = NULL;
  /* alltoallv, allgatherv: sizes that vary */
  g_autoptr(NsSizePattern) pattern =
      ns_collective_is_vector(coll)
          ? ns_size_pattern_generate("random:4KiB,1,5", coll, ns_topology_n_machines(t), &error)
          : NULL;
  g_assert_no_error(error);
  params.pattern = pattern;
  g_autoptr(NsSchedule) whole = ns_plan(t, coll, name, &params, &error);
  if (whole == NULL) {
    g_assert_true(g_error_matches(error, NS_ERROR, NS_ERROR_UNSUPPORTED));
    g_clear_error(&error);
    return FALSE;
  }
  Collect c = { .fail_at = G_MAXUINT32 };
  NsPhaseSink sink = { collect_begin, collect_phase, &c, NULL };
  uint32_t n_phases = 0;
  uint64_t n_transfers = 0;
  g_autoptr(NsSchedule) tail =
      ns_plan_streamed(t, coll, name, &params, &sink, &n_phases, &n_transfers, &error);
  g_assert_no_error(error);
  g_assert_nonnull(tail);
  g_autofree char *what = g_strdup_printf("%s/%s on %s", ns_collective_name(coll), name,
                                          ns_topology_source(t));
  assert_same_schedule(c.got, whole, what);
  g_assert_cmpuint(n_phases, ==, ns_schedule_n_phases(whole));
  g_assert_cmpuint(n_transfers, ==, ns_schedule_n_transfers(whole));
  /* the tail: sync scheme, sync edges, routes as planned */
  g_assert_cmpstr(tail->sync_scheme, ==, whole->sync_scheme);
  g_assert_cmpuint(tail->sync->len, ==, whole->sync->len);
  g_assert_cmpuint(tail->routes->len, ==, whole->routes->len);
  g_assert_false(ns_schedule_is_streamed(tail));
  /* a streaming planner hands its phases on and keeps none of them */
  *streamed = ns_schedule_n_phases(tail) == 0 && ns_schedule_n_phases(whole) > 0;
  g_assert_cmpint(*streamed, ==, streams(coll, name, t) && ns_schedule_n_phases(whole) > 0);
  ns_schedule_free(c.got);
  return TRUE;
}

/* Every planner of every collective, on 150 seeded random trees and the
 * bundled fabrics (fat trees, tori, mixed speeds): streamed = whole. */
static void test_streamed_equals_whole(void)
{
  int n_planners;
  const NsPlanner *planners = ns_planners(&n_planners);
  const char *specs[] = { "fattree:4,2", "fattree:2,3", "torus:4x4", "ring:8",
                          "tree:4,16:bandwidth=1Gbps:uplink=10Gbps", "tree:2,4,4" };
  guint compared = 0, streamed_runs = 0;
  for (int k = 0; k < 150 + (int)G_N_ELEMENTS(specs); k++) {
    g_autoptr(NsTopology) t = NULL;
    GError *error = NULL;
    if (k < 150)
      t = ns_shape_random((uint64_t)k + 1, 2 + k % 23, 1 + k % 7, (NsRandomKind)(k % 5), 100e6,
                          10e-6, &error);
    else
      t = ns_shape_from_spec(specs[k - 150], &error);
    g_assert_no_error(error);
    for (int i = 0; i < n_planners; i++) {
      /* the random trees check every planner on a third of them */
      if (k < 150 && k % 3 != 0 && !streams(planners[i].collective, planners[i].name, t))
        continue;
      if (planners[i].needs_tree && ns_topology_routing(t) != NS_ROUTING_TREE)
        continue;
      gboolean streamed = FALSE;
      if (compare_streamed(t, planners[i].collective, planners[i].name, 4096, &streamed)) {
        compared++;
        streamed_runs += streamed;
      }
    }
  }
  g_test_message("%u planner runs compared, %u of them streamed", compared, streamed_runs);
  g_assert_cmpuint(streamed_runs, >, 300);
  g_assert_cmpuint(compared, >, streamed_runs + 500);
}

/* The parts of two reports the checks decide. */
static void assert_same_report(const NsVerifyReport *a, const NsVerifyReport *b)
{
  g_assert_cmpuint(a->n_phases, ==, b->n_phases);
  g_assert_cmpuint(a->n_transfers, ==, b->n_transfers);
  g_assert_cmpuint(a->n_delivered, ==, b->n_delivered);
  g_assert_cmpuint(a->n_chunk_moves, ==, b->n_chunk_moves);
  g_assert_cmpuint(a->lower_bound, ==, b->lower_bound);
  g_assert_cmpfloat(a->transmission_s, ==, b->transmission_s);
  g_assert_cmpfloat(a->bound_s, ==, b->bound_s);
  for (int c = 0; c < NS_N_CHECKS; c++) {
    g_assert_cmpint(a->ran[c], ==, b->ran[c]);
    g_assert_cmpuint(a->failures[c], ==, b->failures[c]);
  }
  g_assert_cmpuint(a->findings->len, ==, b->findings->len);
  for (guint i = 0; i < a->findings->len; i++) {
    const NsFinding *x = &g_array_index(a->findings, NsFinding, i);
    const NsFinding *y = &g_array_index(b->findings, NsFinding, i);
    g_assert_cmpint(x->kind, ==, y->kind);
    g_assert_cmpint(x->phase, ==, y->phase);
    g_assert_cmpint(x->t1, ==, y->t1);
    g_assert_cmpint(x->t2, ==, y->t2);
    g_assert_cmpint(x->edge, ==, y->edge);
  }
}

/* Verifying as the planner goes = planning, then verifying: on trees
 * where ring and pair contend (findings), where faraj does not, and on a
 * fat tree and a torus. */
static void test_verify_planned(void)
{
  const char *algos[] = { "faraj", "ring", "shift", "pair", "bruck", "simple", "at2" };
  guint runs = 0, failing = 0;
  for (int k = 0; k < 60; k++) {
    GError *error = NULL;
    g_autoptr(NsTopology) t =
        k < 56 ? ns_shape_random((uint64_t)k + 500, 4 + 2 * (k % 13), 2 + k % 5,
                                 (NsRandomKind)(k % 5), 100e6, 10e-6, &error)
               : ns_shape_from_spec(k == 56 ? "fattree:4,3" : k == 57 ? "torus:8x8"
                                    : k == 58 ? "tree:4,16:bandwidth=1Gbps:uplink=10Gbps"
                                              : "tree:4,4,4", &error);
    g_assert_no_error(error);
    for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
      NsPlanParams params = { .msize = 65536 };
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, algos[a], &params, &error);
      if (s == NULL) {
        g_clear_error(&error);
        continue;
      }
      NsVerifyReport whole = ns_test_verify(t, s), planned;
      g_autoptr(NsVerifySession) vs =
          ns_verify_planned(t, NS_COLL_ALLTOALL, algos[a], &params, NULL, NULL, NULL,
                            &planned, &error);
      g_assert_no_error(error);
      g_assert_nonnull(vs);
      assert_same_report(&planned, &whole);
      /* the findings name the same transfers */
      if (whole.findings->len > 0) {
        const NsFinding *f = &g_array_index(whole.findings, NsFinding, 0);
        g_autofree char *x = ns_finding_describe(f, t, s);
        g_autofree char *y = ns_finding_describe(f, t, ns_verify_session_schedule(vs));
        g_assert_cmpstr(x, ==, y);
      }
      failing += !ns_verify_passed(&whole, 0);
      runs++;
      ns_verify_report_clear(&whole);
      ns_verify_report_clear(&planned);
    }
  }
  g_test_message("%u plans verified both ways, %u of them with findings", runs, failing);
  g_assert_cmpuint(runs, >, 250);
  g_assert_cmpuint(failing, >, 30);
}

/* A consumer that fails stops the stream: its error comes back, and no
 * phase is handed on after it — streamed or built whole first. */
static void test_sink_error(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-c.topo");
  const char *algos[] = { "faraj", "ring", "bruck" };
  for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
    Collect c = { .fail_at = 3 };
    NsPhaseSink sink = { collect_begin, collect_phase, &c, NULL };
    NsPlanParams params = { .msize = 1024 };
    GError *error = NULL;
    NsSchedule *tail =
        ns_plan_streamed(t, NS_COLL_ALLTOALL, algos[a], &params, &sink, NULL, NULL, &error);
    g_assert_null(tail);
    g_assert_error(error, NS_ERROR, NS_ERROR_IO);
    g_assert_cmpstr(error->message, ==, "consumer gave up at phase 3");
    g_assert_cmpuint(c.phases_seen, ==, 4);
    g_clear_error(&error);
    ns_schedule_free(c.got);
  }
}

/* Selectors run a streaming planner inside and relabel its schedule: the
 * inner planner must not stream for them. */
static void test_selectors_do_not_stream_inner(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-c.topo");
  const char *algos[] = { "mpich", "ompi", "ring-light-barrier", "ring-n-barrier" };
  for (gsize a = 0; a < G_N_ELEMENTS(algos); a++) {
    gboolean streamed = TRUE;
    g_assert_true(compare_streamed(t, NS_COLL_ALLTOALL, algos[a], 1 << 20, &streamed));
    g_assert_false(streamed);
  }
}

static gboolean ignore_begin(const NsSchedule *h, gpointer d, GError **e) { return TRUE; }
static gboolean ignore_phase(const NsPhase *p, gpointer d, GError **e) { return TRUE; }

/* A planner bug: the header changed after its phases began to flow (a
 * JSON Lines file would already carry the old one). */
static void test_header_changed(void)
{
  const char *names[] = { "a", "b" };
  NsPhaseSink sink = { ignore_begin, ignore_phase, NULL, NULL };
  for (int variant = 0; variant < 2; variant++) {
    g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_ALLTOALL, "x", 2, names, 8);
    ns_schedule_stream_to(s, &sink);
    g_assert_true(ns_schedule_is_streamed(s));
    ns_schedule_add(s, 0, 1, 1);
    ns_schedule_begin_phase(s);
    ns_schedule_add(s, 1, 0, 2);
    if (variant == 0)
      ns_schedule_relabel(s, "y", NULL);
    else
      ns_schedule_add_sync(s, 0, 1);
    GError *error = NULL;
    uint32_t phases = 0;
    g_assert_false(ns_schedule_stream_finish(s, &phases, NULL, &error));
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_nonnull(strstr(error->message, "after streaming its phases began"));
    g_assert_cmpuint(phases, ==, 2);
    g_clear_error(&error);
  }
}

/* A sink writing the phases as they come (what `netsched plan -o` does)
 * writes byte for byte the file of the whole schedule, in both formats. */
typedef struct {
  NsScheduleFormat format;
  FILE *out;
  NsSchedule *header;
  NsScheduleWriter *w;
} Write;

static gboolean write_begin(const NsSchedule *h, gpointer data, GError **error)
{
  Write *w = data;
  w->header = ns_schedule_copy_header(h);
  w->w = ns_schedule_writer_new(w->out, w->format, w->header, NULL, error);
  return w->w != NULL;
}

static gboolean write_phase(const NsPhase *ph, gpointer data, GError **error)
{
  ns_schedule_writer_phase(((Write *)data)->w, ph);
  return TRUE;
}

static void test_streamed_file(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-c.topo");
  const char *algos[] = { "faraj", "ring", "bruck", "mpich" };
  for (gsize a = 0; a < G_N_ELEMENTS(algos); a++)
    for (int f = 0; f < 2; f++) {
      NsScheduleFormat format = f ? NS_SCHEDULE_JSONL : NS_SCHEDULE_JSON;
      NsPlanParams params = { .msize = 65536 };
      GError *error = NULL;
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, algos[a], &params, &error);
      g_assert_no_error(error);
      char *whole_text = NULL, *streamed_text = NULL;
      size_t whole_len = 0, streamed_len = 0;
      FILE *out = open_memstream(&whole_text, &whole_len);
      g_assert_true(ns_schedule_write(s, format, out, &error));
      fclose(out);
      Write w = { .format = format, .out = open_memstream(&streamed_text, &streamed_len) };
      NsPhaseSink sink = { write_begin, write_phase, &w, NULL };
      g_autoptr(NsSchedule) tail =
          ns_plan_streamed(t, NS_COLL_ALLTOALL, algos[a], &params, &sink, NULL, NULL, &error);
      g_assert_no_error(error);
      g_assert_true(ns_schedule_writer_finish(w.w, &error));
      fclose(w.out);
      g_assert_cmpuint(streamed_len, ==, whole_len);
      g_assert_true(memcmp(streamed_text, whole_text, whole_len) == 0);
      free(whole_text);
      free(streamed_text);
      ns_schedule_free(w.header);
    }
}

/* alltoall/ring and shift (sched/planners/alltoall/alltoall_ring.c): phase
 * j - 1 is every machine i sending its own message to (i + j) mod p, in
 * the order of i — written in place with the wrap-around counted, not
 * divided — on every p from 2 to 40 and on 1,000 (whole and streamed). */
static void test_shifts_phases(void)
{
  for (int p = 2; p <= 300; p = p < 40 ? p + 1 : p + 260) { /* 2..40, 300 */
    g_autofree char *spec = g_strdup_printf("star:%d", p);
    GError *error = NULL;
    g_autoptr(NsTopology) t = ns_shape_from_spec(spec, &error);
    g_assert_no_error(error);
    NsPlanParams params = { .msize = 64 };
    const char *names[] = { "ring", "shift" };
    for (gsize a = 0; a < G_N_ELEMENTS(names); a++) {
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, names[a], &params, &error);
      g_assert_no_error(error);
      g_assert_cmpuint(ns_schedule_n_phases(s), ==, (guint)(p - 1));
      for (int j = 1; j < p; j++) {
        NsPhase ph = ns_schedule_phase(s, (uint32_t)j - 1);
        g_assert_cmpuint(ph.n, ==, (guint)p);
        for (int i = 0; i < p; i++) {
          const NsTransfer *tr = &ph.transfers[i];
          int d = (i + j) % p;
          g_assert_cmpint(tr->src, ==, i);
          g_assert_cmpint(tr->dst, ==, d);
          g_assert_cmpuint(tr->n_chunks, ==, 1);
          g_assert_false(tr->combine || tr->raw);
          g_assert_cmpuint(tr->chunk, ==, ns_a2a_chunk(p, i, d));
        }
      }
      gboolean streamed;
      g_assert_true(p > 40 || compare_streamed(t, NS_COLL_ALLTOALL, names[a], 64, &streamed));
      g_assert_true(p > 40 || streamed);
    }
  }
}

/* ns_schedule_add_room(): the transfers written in place are what as many
 * ns_schedule_add() calls append — in a schedule held whole, in one
 * streamed, and as the first call (the phase it begins). */
static void test_add_room(void)
{
  g_autoptr(NsTopology) t = ns_shape_from_spec("star:6", NULL);
  g_autoptr(NsSchedule) by_add = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "x", 64);
  g_autoptr(NsSchedule) by_room = ns_schedule_for_topology(t, NS_COLL_ALLTOALL, "x", 64);
  for (int phase = 0; phase < 3; phase++) {
    if (phase > 0) {
      ns_schedule_begin_phase(by_add);
      ns_schedule_begin_phase(by_room);
    }
    uint32_t n = (uint32_t)(phase == 1 ? 0 : 5);
    NsTransfer *room = ns_schedule_add_room(by_room, n);
    for (uint32_t i = 0; i < n; i++) {
      int src = (int)i, dst = (int)(i + 1 + (uint32_t)phase) % 6;
      uint32_t at = ns_schedule_add(by_add, src, dst, ns_a2a_chunk(6, src, dst));
      g_assert_cmpuint(at, ==, ns_schedule_n_transfers(by_room) - n + i);
      room[i] = (NsTransfer){ .src = src, .dst = dst, .n_chunks = 1,
                              .chunk = ns_a2a_chunk(6, src, dst) };
    }
  }
  assert_same_schedule(by_room, by_add, "add_room against add");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/plan-stream/streamed-equals-whole", test_streamed_equals_whole);
  g_test_add_func("/plan-stream/verify-planned", test_verify_planned);
  g_test_add_func("/plan-stream/sink-error", test_sink_error);
  g_test_add_func("/plan-stream/selectors", test_selectors_do_not_stream_inner);
  g_test_add_func("/plan-stream/header-changed", test_header_changed);
  g_test_add_func("/plan-stream/file", test_streamed_file);
  g_test_add_func("/plan-stream/shifts-phases", test_shifts_phases);
  g_test_add_func("/plan-stream/add-room", test_add_room);
  return g_test_run();
}
