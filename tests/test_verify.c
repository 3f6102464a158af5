/* The verifier on hand-made schedules: each check must catch what it is
 * for, and name the phase, transfers and edge. */
#include "platforms/model/error.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <string.h>

/* Figure 1 of Faraj & Yuan, as bundled. */
static NsTopology *figure1(void)
{
  return ns_test_topology("faraj-fig1.topo");
}

static NsSchedule *empty(const NsTopology *t, NsCollective c)
{
  return ns_schedule_for_topology(t, c, "hand-made", 1024);
}

/* Hand-made schedules use a few of the topology's machines: a
 * sub-communicator, as asked (--subset). */
static NsVerifyReport run(const NsTopology *t, const NsSchedule *s)
{
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.coverage = NS_COVER_SUBSET;
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_no_error(error);
  return r;
}

static char *first_finding(const NsVerifyReport *r, const NsTopology *t, const NsSchedule *s,
                           NsCheck check)
{
  for (guint i = 0; i < r->findings->len; i++) {
    const NsFinding *f = &g_array_index(r->findings, NsFinding, i);
    if (ns_finding_check(f->kind) == check)
      return ns_finding_describe(f, t, s);
  }
  return NULL;
}

/* All messages in one phase each, in order: complete, contention-free. */
static NsSchedule *one_per_phase(const NsTopology *t, int skip_o, int skip_d)
{
  NsSchedule *s = empty(t, NS_COLL_ALLTOALL);
  for (int o = 0; o < 6; o++)
    for (int d = 0; d < 6; d++)
      if (o != d && !(o == skip_o && d == skip_d)) {
        ns_schedule_begin_phase(s);
        ns_schedule_add(s, o, d, ns_a2a_chunk(6, o, d));
      }
  return s;
}

static void test_complete_and_missing(void)
{
  g_autoptr(NsTopology) t = figure1();
  g_autoptr(NsSchedule) ok = one_per_phase(t, -1, -1);
  NsVerifyReport r = run(t, ok);
  g_assert_true(ns_verify_passed(&r, FALSE));
  g_assert_false(ns_verify_passed(&r, TRUE)); /* 30 phases, load 9 */
  g_autofree char *opt = first_finding(&r, t, ok, NS_CHECK_OPTIMAL);
  g_assert_cmpstr(opt, ==, "30 phases where the bottleneck load allows 9");
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) missing = one_per_phase(t, 2, 4);
  r = run(t, missing);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_autofree char *d = first_finding(&r, t, missing, NS_CHECK_COMPLETE);
  g_assert_cmpstr(d, ==, "message n2->n4 never reaches n4");
  ns_verify_report_clear(&r);
}

static void test_duplicate(void)
{
  g_autoptr(NsTopology) t = figure1();
  g_autoptr(NsSchedule) s = one_per_phase(t, -1, -1);
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 3, 1, ns_a2a_chunk(6, 3, 1));
  NsVerifyReport r = run(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_autofree char *d = first_finding(&r, t, s, NS_CHECK_COMPLETE);
  g_assert_cmpstr(d, ==, "phase 30: transfer #30 n3->n1 delivers message n3->n1 to n1 a second time");
  ns_verify_report_clear(&r);
}

/* Indirect delivery: n0's message for n5 relayed through n3. Forwarding in
 * the phase it arrives is not allowed; in the next phase it is. */
static void test_dataflow(void)
{
  g_autoptr(NsTopology) t = figure1();
  uint32_t c05 = ns_a2a_chunk(6, 0, 5);
  g_autoptr(NsSchedule) same = empty(t, NS_COLL_ALLTOALL);
  ns_schedule_begin_phase(same);
  ns_schedule_add(same, 0, 3, c05);
  ns_schedule_add(same, 3, 5, c05);
  NsVerifyReport r = run(t, same);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 1);
  g_autofree char *d = first_finding(&r, t, same, NS_CHECK_DATAFLOW);
  g_assert_cmpstr(d, ==, "phase 0: transfer #1 n3->n5 sends message n0->n5, which n3 does not "
                         "hold yet");
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) next = empty(t, NS_COLL_ALLTOALL);
  ns_schedule_begin_phase(next);
  ns_schedule_add(next, 0, 3, c05);
  ns_schedule_begin_phase(next);
  ns_schedule_add(next, 3, 5, c05);
  r = run(t, next);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.n_delivered, ==, 1);
  ns_verify_report_clear(&r);
}

static void test_contention_and_port(void)
{
  g_autoptr(NsTopology) t = figure1();
  g_autoptr(NsSchedule) s = empty(t, NS_COLL_ALLTOALL);
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 0, 3, ns_a2a_chunk(6, 0, 3)); /* n0 s0 s1 s3 n3 */
  ns_schedule_add(s, 5, 4, ns_a2a_chunk(6, 5, 4)); /* n5 s1 s3 n4: shares s1->s3 */
  ns_schedule_add(s, 3, 0, ns_a2a_chunk(6, 3, 0)); /* opposite direction: no clash */
  ns_schedule_begin_phase(s);
  ns_schedule_add(s, 1, 2, ns_a2a_chunk(6, 1, 2));
  ns_schedule_add(s, 1, 0, ns_a2a_chunk(6, 1, 0)); /* n1 sends twice */
  NsVerifyReport r = run(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_CONTENTION], ==, 2); /* s1->s3, then n1->s0 */
  g_autofree char *d = first_finding(&r, t, s, NS_CHECK_CONTENTION);
  g_assert_cmpstr(d, ==, "phase 0: transfers #0 n0->n3 and #1 n5->n4 share edge s1->s3");
  g_assert_cmpuint(r.failures[NS_CHECK_PORT], ==, 1);
  g_autofree char *p = first_finding(&r, t, s, NS_CHECK_PORT);
  g_assert_cmpstr(p, ==, "phase 1: n1 sends twice (#3 n1->n2 and #4 n1->n0), 1-port model");
  ns_verify_report_clear(&r);

  /* All-port: the port check does not run. */
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  g_assert_true(ns_verify(t, s, &opt, &r, NULL));
  g_assert_false(r.ran[NS_CHECK_PORT]);
  ns_verify_report_clear(&r);
}

static void test_unknown_machine(void)
{
  g_autoptr(NsTopology) t = figure1();
  const char *names[] = { "n0", "zz" };
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_ALLTOALL, "x", 2, names, 8);
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_false(ns_verify(t, s, NULL, &r, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_autofree char *want = g_strdup_printf("schedule machine 'zz' is not a machine of topology %s",
                                          ns_topology_source(t));
  g_assert_cmpstr(error->message, ==, want);
  g_error_free(error);
  ns_verify_report_clear(&r);
}

/* All-gather and broadcast postconditions (the planners come later; the
 * verifier is ready for them). */
static void test_allgather_bcast(void)
{
  g_autoptr(NsTopology) t = figure1();
  /* Logical ring n0 -> n1 -> ... -> n5 -> n0, forwarding what arrived. */
  g_autoptr(NsSchedule) ag = empty(t, NS_COLL_ALLGATHER);
  for (int step = 0; step < 5; step++) {
    ns_schedule_begin_phase(ag);
    for (int i = 0; i < 6; i++)
      ns_schedule_add(ag, i, (i + 1) % 6, (uint32_t)((i - step + 6) % 6));
  }
  NsVerifyReport r = run(t, ag);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 0);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_assert_cmpuint(r.n_required, ==, 30);
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) bc = empty(t, NS_COLL_BCAST);
  bc->root = 0;
  bc->n_segments = 1;
  ns_schedule_begin_phase(bc);
  for (int i = 1; i < 6; i++)
    ns_schedule_add(bc, i - 1, i, 0); /* a chain in one phase: only n1 gets it */
  r = run(t, bc);
  g_assert_cmpuint(r.failures[NS_CHECK_DATAFLOW], ==, 4);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0); /* delivered, though illegally */
  ns_verify_report_clear(&r);
}

/* Regression (review finding 3): one sync edge from a later phase back to
 * an earlier one closes a wait cycle with program order on 3 machines; the
 * verifier must reject it and name the cycle. A backward edge that closes
 * no cycle is legal. */
static void test_sync_cycle(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-a.topo");
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_ALLGATHER, "hand-made", 3,
                                            (const char *const[]){ "n0", "n1", "n2" }, 64);
  for (int k = 0; k < 2; k++) { /* ring n0 -> n1 -> n2 -> n0 */
    ns_schedule_begin_phase(s);
    for (int i = 0; i < 3; i++)
      ns_schedule_add(s, i, (i + 1) % 3, (uint32_t)((i - k + 3) % 3));
  }
  NsVerifyReport r = run(t, s);
  g_assert_true(ns_verify_passed(&r, FALSE));
  g_assert_false(r.ran[NS_CHECK_SYNC]);
  ns_verify_report_clear(&r);
  /* #3 n0->n1 (phase 1) must wait for #5 n2->n0 (phase 1): legal, n2's
   * phase 1 does not depend on n0's. */
  ns_schedule_add_sync(s, 5, 3);
  r = run(t, s);
  g_assert_true(ns_verify_passed(&r, FALSE));
  g_assert_true(r.ran[NS_CHECK_SYNC]);
  ns_verify_report_clear(&r);
  /* #0 n0->n1 (phase 0) waits for #4 n1->n2 (phase 1), which program order
   * puts after n1's phase 0, that is after #0 itself: deadlock. */
  ns_schedule_add_sync(s, 4, 0);
  r = run(t, s);
  g_assert_false(ns_verify_passed(&r, FALSE));
  g_assert_cmpuint(r.failures[NS_CHECK_SYNC], ==, 1);
  g_assert_nonnull(r.cycle);
  g_assert_cmpuint(r.cycle->len, ==, 2);
  g_autofree char *d = first_finding(&r, t, s, NS_CHECK_SYNC);
  g_assert_nonnull(strstr(d, "deadlocks"));
  g_assert_nonnull(strstr(d, "#0 n0->n1 (phase 0)"));
  g_assert_nonnull(strstr(d, "#4 n1->n2 (phase 1)"));
  ns_verify_report_clear(&r);
}

/* Regression (review findings 8 and 12): an all-gather block sent back to
 * its origin is redundant; a broadcast declaring 2^31 - 1 segments costs
 * what its transfers cost and reports the never-sent segments at once. */
static void test_redundant_and_absurd_segments(void)
{
  g_autoptr(NsTopology) t = figure1();
  g_autoptr(NsSchedule) ag = empty(t, NS_COLL_ALLGATHER);
  for (int step = 0; step < 5; step++) {
    ns_schedule_begin_phase(ag);
    for (int i = 0; i < 6; i++)
      ns_schedule_add(ag, i, (i + 1) % 6, (uint32_t)((i - step + 6) % 6));
  }
  ns_schedule_begin_phase(ag);
  ns_schedule_add(ag, 0, 1, 1); /* n1's own block back to n1 */
  NsVerifyReport r = run(t, ag);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 1);
  g_assert_cmpuint(r.n_delivered, ==, 30); /* not "31 of 30" */
  g_autofree char *d = first_finding(&r, t, ag, NS_CHECK_COMPLETE);
  g_assert_nonnull(strstr(d, "holds it already"));
  ns_verify_report_clear(&r);

  g_autoptr(NsSchedule) bc = empty(t, NS_COLL_BCAST);
  bc->root = 0;
  bc->n_segments = G_MAXINT32;
  ns_schedule_begin_phase(bc);
  for (int i = 1; i < 6; i++)
    ns_schedule_add(bc, 0, i, 0);
  r = run(t, bc);
  g_assert_cmpuint(r.n_required, ==, (uint64_t)G_MAXINT32 * 5);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, ((uint64_t)G_MAXINT32 - 1) * 5);
  g_autofree char *m = first_finding(&r, t, bc, NS_CHECK_COMPLETE);
  g_assert_nonnull(strstr(m, "segments 1 and up are carried by no transfer"));
  ns_verify_report_clear(&r);
}

/* Indices a schedule built in code could get wrong are input errors, not
 * reads past an array (found by the mutation test under ASan). */
static void test_indices_out_of_range(void)
{
  g_autoptr(NsTopology) t = figure1();
  g_autoptr(NsSchedule) bc = empty(t, NS_COLL_BCAST);
  bc->root = 0;
  bc->n_segments = 1;
  ns_schedule_begin_phase(bc);
  ns_schedule_add(bc, 0, 1, 1); /* segment 1 of a one-segment broadcast */
  NsVerifyReport r = { 0 };
  GError *error = NULL;
  g_assert_false(ns_verify(t, bc, NULL, &r, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "carries chunk 1, out of range"));
  g_clear_error(&error);
  ns_verify_report_clear(&r);
  g_autoptr(NsSchedule) a = empty(t, NS_COLL_ALLTOALL);
  ns_schedule_add(a, 0, 1, ns_a2a_chunk(6, 0, 1));
  ns_schedule_add_sync(a, 0, 7);
  g_assert_false(ns_verify(t, a, NULL, &r, &error));
  g_assert_nonnull(strstr(error->message, "sync edge 0: #0 -> #7 out of range"));
  g_clear_error(&error);
  ns_verify_report_clear(&r);
}

/* Issue 17.5: by default the schedule must cover the topology's machines;
 * --machines lists a sub-communicator, --subset allows any. */
static void test_coverage(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-a.topo"); /* n0..n23 on s0 */
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_ALLGATHER, "hand-made", 3,
                                            (const char *const[]){ "n0", "n1", "n2" }, 64);
  for (int k = 0; k < 2; k++) { /* a ring over n0, n1, n2 */
    ns_schedule_begin_phase(s);
    for (int i = 0; i < 3; i++)
      ns_schedule_add(s, i, (i + 1) % 3, (uint32_t)((i - k + 3) % 3));
  }
  NsVerifyReport r = ns_test_verify(t, s); /* the default: all 24 */
  g_assert_true(r.ran[NS_CHECK_COVERAGE]);
  g_assert_cmpuint(r.failures[NS_CHECK_COVERAGE], ==, 21);
  g_assert_false(ns_verify_passed(&r, 0));
  g_autofree char *d = first_finding(&r, t, s, NS_CHECK_COVERAGE);
  g_assert_cmpstr(d, ==, "machine n3 of the topology is not in the schedule");
  g_assert_cmpint(r.optimal_skip, ==, NS_OPTIMAL_SUBSET);
  ns_verify_report_clear(&r);

  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  const char *const three[] = { "n2", "n0", "n1", "n0", NULL }; /* a set: n0 twice */
  opt.coverage = NS_COVER_LISTED;
  opt.machines = three;
  GError *error = NULL;
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_true(ns_verify_passed(&r, 0));
  g_assert_cmpint(r.n_listed, ==, 3);
  ns_verify_report_clear(&r);

  const char *const two[] = { "n0", "n1", NULL };
  opt.machines = two;
  g_assert_true(ns_verify(t, s, &opt, &r, &error));
  g_assert_cmpuint(r.failures[NS_CHECK_COVERAGE], ==, 1);
  g_autofree char *extra = first_finding(&r, t, s, NS_CHECK_COVERAGE);
  g_assert_cmpstr(extra, ==, "schedule machine n2 is not among the machines asked for");
  ns_verify_report_clear(&r);

  const char *const unknown[] = { "n0", "x9", NULL };
  opt.machines = unknown;
  g_assert_false(ns_verify(t, s, &opt, &r, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "machine 'x9' asked for is not a machine"));
  g_clear_error(&error);
  ns_verify_report_clear(&r);
}

/* Issue 17.6: a posted schedule under window:W is checked step by step
 * (step k: each sender's k-th transfer); without the scheme it is one
 * phase. */
static void test_posted_steps(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-a.topo");
  const char *const names[] = { "n0", "n1", "n2", "n3" };
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_ALLTOALL, "shift", 4, names, 1500);
  s->execution = NS_EXEC_POSTED;
  ns_schedule_begin_phase(s);
  for (int x = 0; x < 4; x++)
    for (int i = 1; i < 4; i++)
      ns_schedule_add(s, x, (x + i) % 4, ns_a2a_chunk(4, x, (x + i) % 4));
  NsVerifyReport r = run(t, s); /* no scheme: one phase, every machine sends thrice */
  g_assert_false(r.stepped);
  g_assert_cmpuint(r.failures[NS_CHECK_PORT], >, 0);
  ns_verify_report_clear(&r);

  ns_schedule_relabel(s, "shift", "window:4");
  g_assert_true(ns_verify_stepped(s));
  r = run(t, s);
  g_assert_true(r.stepped);
  g_assert_cmpuint(r.n_steps, ==, 3);
  g_assert_true(ns_verify_passed(&r, 0));
  g_assert_cmpint(r.optimal_skip, ==, NS_OPTIMAL_POSTED);
  ns_verify_report_clear(&r);

  /* n0 posts n0->n2 first: step 0 has n0->n2 and n1->n2 */
  NsTransfer *tr = &g_array_index(s->transfers, NsTransfer, 0);
  NsTransfer first = tr[0];
  tr[0] = tr[1];
  tr[1] = first;
  r = run(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_COMPLETE], ==, 0);
  g_autofree char *d = first_finding(&r, t, s, NS_CHECK_PORT);
  g_assert_cmpstr(d, ==, "phase 0 step 0: n2 receives twice (#0 n0->n2 and #3 n1->n2), 1-port model");
  ns_verify_report_clear(&r);

  /* A session whose window scheme comes after the phases cannot have
   * checked them step by step: it says so (callers read the file again). */
  g_autoptr(NsSchedule) header = ns_schedule_copy_header(s);
  g_clear_pointer(&header->sync_scheme, g_free);
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.coverage = NS_COVER_SUBSET;
  GError *error = NULL;
  g_autoptr(NsVerifySession) vs = ns_verify_begin(t, header, &opt, 0, &error);
  g_assert_no_error(error);
  NsPhase ph = ns_schedule_phase(s, 0);
  g_assert_true(ns_verify_phase(vs, ph.transfers, ph.n, ph.chunk_pool, &error));
  g_assert_true(ns_verify_tail_needs_phases(header, s));
  g_assert_false(ns_verify_end(vs, s, &r, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_clear_error(&error);
  ns_verify_report_clear(&r);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/verify/complete-and-missing", test_complete_and_missing);
  g_test_add_func("/verify/duplicate", test_duplicate);
  g_test_add_func("/verify/dataflow", test_dataflow);
  g_test_add_func("/verify/contention-and-port", test_contention_and_port);
  g_test_add_func("/verify/unknown-machine", test_unknown_machine);
  g_test_add_func("/verify/allgather-bcast", test_allgather_bcast);
  g_test_add_func("/verify/sync-cycle", test_sync_cycle);
  g_test_add_func("/verify/indices-out-of-range", test_indices_out_of_range);
  g_test_add_func("/verify/redundant-and-absurd-segments", test_redundant_and_absurd_segments);
  g_test_add_func("/verify/coverage", test_coverage);
  g_test_add_func("/verify/posted-steps", test_posted_steps);
  return g_test_run();
}
