/* netsched — decision tables (sched/lower/decision.h): lookup, the JSON
 * file's round trip, and its errors with file:line. */
#include "platforms/model/error.h"
#include "sched/lower/decision.h"
#include <glib.h>
#include <string.h>

static NsDecisionTable *sample(void)
{
  NsDecisionTable *t = ns_decision_table_new(NS_COLL_ALLTOALL, 32);
  t->topology = g_strdup("gen:tree:2,16");
  t->measure = g_strdup("replay:ideal");
  t->timing = g_strdup("mpptest");
  NsDecisionRow *r = ns_decision_table_append(t, 0, "bruck", NULL);
  r->measured_bytes = 1;
  r->time_s = 1.5e-4;
  r->runner_up = g_strdup("ring");
  r->runner_up_params = g_strdup("");
  r->runner_up_s = 2.5e-4;
  r = ns_decision_table_append(t, 3000, "ring", "barriers=4");
  r->measured_bytes = 4096;
  r->time_s = 0.01;
  ns_decision_table_append(t, 262144, "faraj", "");
  return t;
}

static void test_lookup(void)
{
  g_autoptr(NsDecisionTable) t = sample();
  g_assert_true(ns_decision_table_check(t, NULL));
  g_assert_cmpstr(ns_decision_table_lookup(t, 0)->algorithm, ==, "bruck");
  g_assert_cmpstr(ns_decision_table_lookup(t, 2999)->algorithm, ==, "bruck");
  g_assert_cmpstr(ns_decision_table_lookup(t, 3000)->algorithm, ==, "ring");
  g_assert_cmpstr(ns_decision_table_lookup(t, 262143)->params, ==, "barriers=4");
  g_assert_cmpstr(ns_decision_table_lookup(t, G_MAXUINT64)->algorithm, ==, "faraj");
  g_autoptr(NsDecisionTable) empty = ns_decision_table_new(NS_COLL_BCAST, 4);
  g_assert_null(ns_decision_table_lookup(empty, 5));
  g_autoptr(GError) e = NULL;
  g_assert_false(ns_decision_table_check(empty, &e));
}

static void test_round_trip(void)
{
  g_autoptr(NsDecisionTable) t = sample();
  g_autofree char *json = ns_decision_table_to_json(t);
  g_autoptr(GError) e = NULL;
  g_autoptr(NsDecisionTable) u = ns_decision_table_from_json(json, strlen(json), "d.json", &e);
  g_assert_no_error(e);
  g_assert_cmpint(u->collective, ==, NS_COLL_ALLTOALL);
  g_assert_cmpint(u->n_machines, ==, 32);
  g_assert_cmpstr(u->measure, ==, "replay:ideal");
  g_assert_cmpuint(u->rows->len, ==, 3);
  NsDecisionRow *r0 = u->rows->pdata[0], *r2 = u->rows->pdata[2];
  g_assert_cmpstr(r0->runner_up, ==, "ring");
  g_assert_cmpfloat(r0->runner_up_s, ==, 2.5e-4);
  g_assert_null(r2->runner_up);
  g_assert_cmpfloat(r2->time_s, <, 0);
  g_autofree char *again = ns_decision_table_to_json(u);
  g_assert_cmpstr(json, ==, again);
}

/* A row error names the line the row is on. */
static void expect_error(const char *text, const char *message)
{
  g_autoptr(GError) e = NULL;
  g_autoptr(NsDecisionTable) t = ns_decision_table_from_json(text, strlen(text), "d.json", &e);
  g_assert_null(t);
  g_assert_error(e, NS_ERROR, NS_ERROR_INPUT);
  if (strstr(e->message, message) == NULL)
    g_error("expected \"%s\" in \"%s\"", message, e->message);
}

static void test_errors(void)
{
  const char *head = "{\"format\": \"netsched-decision\", \"version\": 1,\n"
                     "\"collective\": \"alltoall\", \"machines\": 8,\n\"rows\": [\n";
  g_autofree char *not_zero =
      g_strconcat(head, "  {\"from_bytes\": 5, \"algorithm\": \"ring\"}\n]}\n", NULL);
  expect_error(not_zero, "d.json:4: the first row must start at 0 bytes");
  g_autofree char *decreasing =
      g_strconcat(head, "  {\"from_bytes\": 0, \"algorithm\": \"ring\"},\n",
                  "  {\"from_bytes\": 0, \"algorithm\": \"pair\"}\n]}\n", NULL);
  expect_error(decreasing, "d.json:5: from_bytes 0 does not increase");
  g_autofree char *negative =
      g_strconcat(head, "  {\"from_bytes\": -1, \"algorithm\": \"ring\"}\n]}\n", NULL);
  expect_error(negative, "d.json:4: \"from_bytes\" must be an integer >= 0");
  g_autofree char *no_alg = g_strconcat(head, "  {\"from_bytes\": 0}\n]}\n", NULL);
  expect_error(no_alg, "d.json:4: \"algorithm\" is missing");
  g_autofree char *bad_time = g_strconcat(
      head, "  {\"from_bytes\": 0, \"algorithm\": \"ring\", \"time_s\": \"x\"}\n]}\n", NULL);
  expect_error(bad_time, "d.json:4: \"time_s\" must be a number");
  expect_error("{\"format\": \"other\", \"version\": 1}", "not a netsched decision file");
  expect_error("{\"format\": \"netsched-decision\", \"version\": 1, \"collective\": \"scan\", "
               "\"machines\": 4, \"rows\": []}",
               "unknown collective \"scan\"");
  expect_error("[1, 2", "d.json:");
  g_autofree char *ctl =
      g_strconcat(head, "  {\"from_bytes\": 0, \"algorithm\": \"ri\\nng\"}\n]}\n", NULL);
  expect_error(ctl, "d.json:4: algorithm and params must be printable");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/decision/lookup", test_lookup);
  g_test_add_func("/decision/round-trip", test_round_trip);
  g_test_add_func("/decision/errors", test_errors);
  return g_test_run();
}
