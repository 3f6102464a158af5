/* Pair-wise synchronisation sets (dissertation §3.2.3.2): computed sets
 * order every contending pair the scheme separates, the verifier notices a
 * missing edge, and the reduction removes what program order or other
 * syncs imply. */
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/io/schedule_json.h"
#include "sched/ir/sync.h"
#include "sched/verify/verify.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static NsSchedule *faraj(const NsTopology *t)
{
  NsPlanParams params = { .msize = 1024 };
  return ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, NULL);
}


static void test_schemes_parse(void)
{
  NsSyncScheme sc;
  GError *error = NULL;
  g_assert_true(ns_sync_scheme_parse("barrier-partial-sender:8", &sc, &error));
  g_assert_cmpint(sc.kind, ==, NS_SYNC_BARRIER_PARTIAL_SENDER);
  g_assert_cmpint(sc.block, ==, 8);
  g_autofree char *name = ns_sync_scheme_to_string(&sc);
  g_assert_cmpstr(name, ==, "barrier-partial-sender:8");
  g_assert_false(ns_sync_scheme_parse("sender-partial", &sc, &error));
  g_assert_cmpstr(error->message, ==,
                  "sync scheme 'sender-partial' needs a block size: sender-partial:BS with BS >= 1 phases");
  g_clear_error(&error);
  g_assert_false(ns_sync_scheme_parse("sender-all:3", &sc, &error));
  g_clear_error(&error);
  g_assert_false(ns_sync_scheme_parse("lightning", &sc, &error));
  g_assert_true(g_str_has_prefix(error->message, "unknown sync scheme 'lightning' (known: none, dummy"));
  g_clear_error(&error);
  /* Which pairs the pair-wise schemes separate. */
  g_assert_true(ns_sync_scheme_parse("sender-partial:4", &sc, NULL));
  g_assert_false(ns_sync_pair_needed(&sc, 1, 3));
  g_assert_true(ns_sync_pair_needed(&sc, 3, 4));
  g_assert_true(ns_sync_scheme_parse("barrier-partial-receiver:4", &sc, NULL));
  g_assert_true(ns_sync_pair_needed(&sc, 1, 3));
  g_assert_false(ns_sync_pair_needed(&sc, 3, 4));
  g_assert_true(ns_sync_barrier_before(&sc, 4));
  g_assert_false(ns_sync_barrier_before(&sc, 5));
}

/* Every scheme's set passes the verifier's sync check on random trees, and
 * dropping any one kept edge breaks it: the set is minimal. */
static void test_sets_are_sufficient_and_minimal(void)
{
  const char *schemes[] = { "sender-all", "receiver-all", "sender-partial:3",
                            "barrier-partial-sender:4" };
  for (uint64_t seed = 1; seed <= 60; seed++) {
    g_autoptr(NsTopology) t = ns_shape_random(seed, 5 + (int)(seed % 20), 2 + (int)(seed % 6),
                                              (NsRandomKind)(seed % 5), 100e6, 0, NULL);
    for (gsize k = 0; k < G_N_ELEMENTS(schemes); k++) {
      g_autoptr(NsSchedule) s = faraj(t);
      NsSyncScheme sc;
      g_assert_true(ns_sync_scheme_parse(schemes[k], &sc, NULL));
      NsSyncStats stats;
      GError *error = NULL;
      g_assert_true(ns_schedule_compute_sync(t, s, &sc, &stats, &error));
      g_assert_no_error(error);
      g_assert_cmpstr(s->sync_scheme, ==, schemes[k]);
      g_assert_cmpuint(stats.kept, ==, s->sync->len);
      g_assert_cmpuint(stats.undecided, ==, 0);
      g_assert_cmpuint(stats.candidates, ==, stats.implied + stats.redundant + stats.kept);
      NsVerifyReport r = ns_test_verify(t, s);
      g_assert_true(r.ran[NS_CHECK_SYNC]);
      g_assert_cmpuint(r.failures[NS_CHECK_SYNC], ==, 0);
      ns_verify_report_clear(&r);
      /* Minimality: removing any single edge leaves some pair unordered. */
      for (guint drop = 0; drop < s->sync->len && drop < 8; drop++) {
        NsSyncEdge saved = g_array_index(s->sync, NsSyncEdge, drop);
        g_array_remove_index(s->sync, drop);
        r = ns_test_verify(t, s);
        g_assert_cmpuint(r.failures[NS_CHECK_SYNC], >, 0);
        ns_verify_report_clear(&r);
        g_array_insert_val(s->sync, drop, saved);
      }
    }
  }
}

/* Figure 1: the bottleneck s0->s1 carries a message in every phase, so
 * its consecutive users need no reduction; the verifier names a missing
 * ordering. */
static void test_figure1_missing_edge(void)
{
  g_autoptr(NsTopology) t = ns_shape_chain(2, 3, 100e6, 0);
  g_autoptr(NsSchedule) s = faraj(t);
  NsSyncScheme sc = { NS_SYNC_SENDER_ALL, 0 };
  g_assert_true(ns_schedule_compute_sync(t, s, &sc, NULL, NULL));
  g_assert_cmpuint(s->sync->len, >, 0);
  g_array_set_size(s->sync, 0);
  NsVerifyReport r = ns_test_verify(t, s);
  g_assert_cmpuint(r.failures[NS_CHECK_SYNC], >, 0);
  g_assert_false(ns_verify_passed(&r, FALSE));
  const NsFinding *f = &g_array_index(r.findings, NsFinding, 0);
  g_autofree char *d = ns_finding_describe(f, t, s);
  g_assert_true(strstr(d, "contend in different phases but neither program order nor the "
                          "sender-all sync edges order them") != NULL);
  ns_verify_report_clear(&r);
}

/* The sync set and its scheme survive the JSON round trip, and the
 * verifier still accepts the re-read schedule. */
static void test_json_round_trip(void)
{
  g_autoptr(NsTopology) t = ns_shape_chain(3, 4, 100e6, 0);
  g_autoptr(NsSchedule) s = faraj(t);
  NsSyncScheme sc = { NS_SYNC_RECEIVER_PARTIAL, 2 };
  g_assert_true(ns_schedule_compute_sync(t, s, &sc, NULL, NULL));
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  g_assert_true(ns_schedule_write_json(s, mem, NULL));
  fclose(mem);
  GError *error = NULL;
  g_autoptr(NsSchedule) back = ns_schedule_parse_json("mem.json", buf, len, &error);
  g_assert_no_error(error);
  g_assert_cmpstr(back->sync_scheme, ==, "receiver-partial:2");
  g_assert_cmpuint(back->sync->len, ==, s->sync->len);
  g_assert_cmpmem(back->sync->data, back->sync->len * sizeof(NsSyncEdge), s->sync->data,
                  s->sync->len * sizeof(NsSyncEdge));
  NsVerifyReport r = ns_test_verify(t, back);
  g_assert_true(r.ran[NS_CHECK_SYNC]);
  g_assert_true(ns_verify_passed(&r, TRUE));
  ns_verify_report_clear(&r);
  free(buf);
  /* An unknown scheme name is bad input with its JSON path. */
  const char *bad = "{\"format\":\"netsched-schedule\",\"version\":1,\"collective\":\"alltoall\","
                    "\"algorithm\":\"x\",\"machines\":[\"n0\",\"n1\"],\"msize_bytes\":8,"
                    "\"execution\":\"phased\",\"phases\":[[[0,1,[0,1]]]],\"sync_scheme\":\"fast\"}";
  g_assert_null(ns_schedule_parse_json("bad.json", bad, strlen(bad), &error));
  g_assert_true(strstr(error->message, "$.sync_scheme") != NULL);
  g_assert_true(strstr(error->message, "unknown sync scheme 'fast'") != NULL);
  g_clear_error(&error);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/sync/schemes-parse", test_schemes_parse);
  g_test_add_func("/sync/sufficient-and-minimal", test_sets_are_sufficient_and_minimal);
  g_test_add_func("/sync/missing-edge-reported", test_figure1_missing_edge);
  g_test_add_func("/sync/json-round-trip", test_json_round_trip);
  return g_test_run();
}
