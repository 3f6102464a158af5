/* netsched — STAGE-MPI's size search (analysis/tune_search_internal.h) on
 * synthetic time curves, and the tuned parameters' meaning
 * (ns_tune_params_apply). */
#include "analysis/tune_outputs_internal.h"
#include "analysis/tune_search_internal.h"
#include "platforms/model/error.h"
#include <glib.h>
#include <string.h>

/* Candidate c costs a[c] + b[c]·m; a negative a: it does not apply. */
typedef struct {
  const double *a, *b;
  guint calls;
  guint fail_at_call; /* 0: never */
} Curves;

static gboolean linear_time(guint c, uint64_t m, double *t, void *user, GError **error)
{
  Curves *k = user;
  if (++k->calls == k->fail_at_call) {
    g_set_error(error, NS_ERROR, NS_ERROR_IO, "disk full");
    return FALSE;
  }
  *t = k->a[c] < 0 ? -1 : k->a[c] + k->b[c] * (double)m;
  return TRUE;
}

static const uint64_t sizes[] = { 1, 64, 512, 2048, 65536 };

/* Three crossing lines: A best below 1000 B (a tie at 1000 goes to A), B
 * up to 44444 B, C above; D never applies. */
static void test_crossings(void)
{
  const double a[] = { 1, 10, 50, -1 }, b[] = { 0.01, 0.001, 0.0001, 0 };
  Curves k = { a, b, 0, 0 };
  g_autoptr(GArray) sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
  guint best[G_N_ELEMENTS(sizes)];
  g_assert_true(ns_tune_search(4, sizes, G_N_ELEMENTS(sizes), linear_time, &k, sw, best, NULL));
  g_assert_cmpuint(sw->len, ==, 3);
  NsTuneSwitch *s = (NsTuneSwitch *)sw->data;
  g_assert_cmpuint(s[0].from_bytes, ==, 0);
  g_assert_cmpuint(s[0].candidate, ==, 0);
  g_assert_cmpuint(s[1].from_bytes, ==, 1001); /* 1 + 0.01 m = 10 + 0.001 m at m = 1000 */
  g_assert_cmpuint(s[1].candidate, ==, 1);
  g_assert_cmpuint(s[2].from_bytes, ==, 44445); /* 10 + 0.001 m = 50 + 0.0001 m at 44444.4 */
  g_assert_cmpuint(s[2].candidate, ==, 2);
  guint want[] = { 0, 0, 0, 1, 2 };
  for (guint i = 0; i < G_N_ELEMENTS(sizes); i++)
    g_assert_cmpuint(best[i], ==, want[i]);
  /* the linear search (4 × 5) and two binary searches of ⌈log2 gap⌉ steps,
   * two candidates each */
  g_assert_cmpuint(k.calls, <=, 4 * 5 + 2 * 11 + 2 * 16);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, 0), ==, 0);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, 1000), ==, 0);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, 1001), ==, 1);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, 44444), ==, 1);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, 44445), ==, 2);
  g_assert_cmpuint(ns_tune_switch_lookup(sw, G_MAXUINT64), ==, 2);
}

/* One candidate best everywhere: one switch, no binary search. */
static void test_one_best(void)
{
  const double a[] = { 5, 1 }, b[] = { 1, 0.5 };
  Curves k = { a, b, 0, 0 };
  g_autoptr(GArray) sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
  g_assert_true(ns_tune_search(2, sizes, G_N_ELEMENTS(sizes), linear_time, &k, sw, NULL, NULL));
  g_assert_cmpuint(sw->len, ==, 1);
  g_assert_cmpuint(g_array_index(sw, NsTuneSwitch, 0).candidate, ==, 1);
  g_assert_cmpuint(k.calls, ==, 2 * G_N_ELEMENTS(sizes));
}

/* Nothing applies: an error, not an empty table; the callback's error
 * stops the search. */
static void test_errors(void)
{
  const double a[] = { -1, -1 }, b[] = { 0, 0 };
  Curves k = { a, b, 0, 0 };
  g_autoptr(GArray) sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
  g_autoptr(GError) e = NULL;
  g_assert_false(ns_tune_search(2, sizes, G_N_ELEMENTS(sizes), linear_time, &k, sw, NULL, &e));
  g_assert_error(e, NS_ERROR, NS_ERROR_UNSUPPORTED);
  g_assert_cmpstr(e->message, ==, "no candidate applies at any of the 5 message sizes");
  const double a2[] = { 1, 10 }, b2[] = { 0.01, 0.001 };
  Curves k2 = { a2, b2, 0, 13 }; /* fails inside the binary search */
  g_autoptr(GError) e2 = NULL;
  g_array_set_size(sw, 0);
  g_assert_false(ns_tune_search(2, sizes, G_N_ELEMENTS(sizes), linear_time, &k2, sw, NULL, &e2));
  g_assert_error(e2, NS_ERROR, NS_ERROR_IO);
}

/* A candidate that applies from some size on only (a segment smaller than
 * the message) loses where it does not apply. */
static void test_partial(void)
{
  const double a[] = { 1, 0 }, b[] = { 0.01, 0.001 };
  Curves k = { a, b, 0, 0 };
  g_autoptr(GArray) sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
  static const uint64_t few[] = { 1, 4096 };
  g_assert_true(ns_tune_search(2, few, 2, linear_time, &k, sw, NULL, NULL));
  /* b is 0 + 0.001 m: faster from m = 1 already, so the crossing is the
   * first probe above 1 */
  g_assert_cmpuint(sw->len, ==, 1);
  g_assert_cmpuint(g_array_index(sw, NsTuneSwitch, 0).candidate, ==, 1);
}

static void test_params(void)
{
  NsPlanParams pp = { 0 };
  char *sync = NULL;
  g_assert_true(ns_tune_params_apply("", 16, &pp, &sync, NULL));
  g_assert_null(sync);
  g_assert_true(ns_tune_params_apply("segment=8192", 16, &pp, &sync, NULL));
  g_assert_cmpuint(pp.segment, ==, 8192);
  g_assert_null(sync);
  /* 15 phases, 2 barriers: blocks of 5 (not 7 + 7 + 1) */
  g_assert_true(ns_tune_params_apply("barriers=2", 16, &pp, &sync, NULL));
  g_assert_cmpstr(sync, ==, "barrier-partial-none:5");
  g_free(sync);
  g_assert_true(ns_tune_params_apply("barriers=14", 16, &pp, &sync, NULL));
  g_assert_cmpstr(sync, ==, "barrier-partial-none:1");
  g_free(sync);
  const char *bad[] = { "barriers=15", "barriers=0", "segment=0", "segment=4k", "nodes=3" };
  for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(GError) e = NULL;
    g_assert_false(ns_tune_params_apply(bad[i], 16, &pp, &sync, &e));
    g_assert_error(e, NS_ERROR, NS_ERROR_INPUT);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/tune/search/crossings", test_crossings);
  g_test_add_func("/tune/search/one-best", test_one_best);
  g_test_add_func("/tune/search/errors", test_errors);
  g_test_add_func("/tune/search/partial", test_partial);
  g_test_add_func("/tune/params", test_params);
  return g_test_run();
}
