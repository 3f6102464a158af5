/* analysis/progress: the estimate of the time left converges and is never
 * absurd, on synthetic sequences of progress points (no clock); the
 * reporter's lines (LINES mode, a file for a stream); the output-directory
 * policy (analysis/outdir_internal.h). */
#include "analysis/outdir_internal.h"
#include "analysis/progress_internal.h"
#include "platforms/model/error.h"
#include "tests/testutil.h"

#include <glib/gstdio.h>
#include <math.h>

/* A steady run with jitter: 100 rows of about 1 s each. The estimate is
 * within 10 % (+1 s) of the truth wherever it is given, given from 5 %
 * on, and at most 2 s one row before the end. */
static void test_eta_steady(void)
{
  NsEta e;
  ns_eta_init(&e, 100, 0, 1000);
  GRand *r = g_rand_new_with_seed(7);
  double t = 1000, times[101];
  times[0] = t;
  for (int i = 1; i <= 100; i++)
    times[i] = (t += g_rand_double_range(r, 0.9, 1.1));
  for (int i = 1; i <= 100; i++) {
    double left = ns_eta_left(&e, i, times[i]), truth = times[100] - times[i];
    if (i < 5) {
      g_assert_cmpfloat(left, ==, -1);
      continue;
    }
    g_assert_cmpfloat(fabs(left - truth), <=, 0.1 * truth + 1);
  }
  g_assert_cmpfloat(ns_eta_left(&e, 99, times[99]), <=, 2);
  g_assert_cmpfloat(ns_eta_left(&e, 100, times[100]), ==, 0);
  g_rand_free(r);
}

/* The case of the report: a simulation of 992 messages delivers 14 in its
 * first 29 s and the rest in the last second. The old estimate
 * (elapsed x remaining / done) said 2026 s at t = 29; this one says "not
 * known" until 5 % is done, and then never more than 19 x the elapsed
 * time; at the end it is 0. */
static void test_eta_burst(void)
{
  NsEta e;
  ns_eta_init(&e, 992, 0, 0);
  for (int s = 1; s <= 29; s++)
    g_assert_cmpfloat(ns_eta_left(&e, s / 2, s), ==, -1);
  for (int done = 14; done <= 992; done += 7) {
    double now = 29 + (done - 14) / 978.0, left = ns_eta_left(&e, done, now);
    g_assert_cmpfloat(left, <=, 19 * now);
    g_assert_true(left == -1 || left >= 0);
  }
  g_assert_cmpfloat(ns_eta_left(&e, 992, 30), ==, 0);
}

/* Resumed rows count as done but not into the rate: 50 of 100 kept, then
 * one row a second: after 10 s, 40 s left (not 90 x 10 / 60). */
static void test_eta_resumed(void)
{
  NsEta e;
  ns_eta_init(&e, 100, 40, 0);
  ns_eta_skip(&e, 10); /* found later, e.g. the next experiment's kept rows */
  g_assert_cmpfloat(fabs(ns_eta_left(&e, 60, 10) - 40), <, 1e-9);
  g_assert_cmpfloat(ns_eta_left(&e, 51, 1), ==, -1); /* 1 of 50: under 5 % */
}

/* Rows that grow (a size sweep: each row twice the last): the estimate
 * from the average rate is low while the rows grow, never negative, never
 * more than 19 x the elapsed time, and converges to 0 at the end. */
static void test_eta_growing(void)
{
  NsEta e;
  ns_eta_init(&e, 10, 0, 0);
  double now = 0, last = INFINITY;
  for (int i = 1; i <= 10; i++) {
    now += pow(2, i - 1);
    double left = ns_eta_left(&e, i, now);
    g_assert_true(left == -1 || (left >= 0 && left <= 19 * now));
    if (i >= 8) {
      g_assert_cmpfloat(left, <=, last);
      last = left;
    }
  }
  g_assert_cmpfloat(last, ==, 0);
}

static char *read_all(FILE *f)
{
  fflush(f);
  rewind(f);
  GString *s = g_string_new(NULL);
  char buf[256];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    g_string_append_len(s, buf, (gssize)n);
  return g_string_free(s, FALSE);
}

/* The reporters' clock in these tests (ns_progress_use_clock): µs that
 * move only when a test says, so that a stall of the test process (a
 * loaded machine) changes no line. */
static gint64 test_now;

static gint64 test_clock(void)
{
  return test_now;
}

/* LINES: plain lines (no carriage return) naming the count, the item and
 * its detail, and a last "done" line; NONE and NULL print nothing. The
 * elapsed time and the estimate come from the reporter's clock. */
static void test_reporter_lines(void)
{
  ns_progress_use_clock(test_clock);
  test_now = 1000000;
  FILE *f = tmpfile();
  g_assert_nonnull(f);
  NsProgress *p = ns_progress_new(f, NS_PROGRESS_LINES, 1e-6, "compare", "rows");
  ns_progress_add_total(p, 4);
  ns_progress_skip(p, 1);
  test_now += 10;
  ns_progress_item(p, 1, "ring %s", "64KiB");
  test_now += 10;
  ns_progress_detail(p, 0.5, "%d/%d messages", 3, 6);
  test_now += 10;
  ns_progress_item_done(p);
  /* 1.6 s later, a quarter into the next row: 2 s elapsed, 1.25 of the 3
   * rows this run has to do took them, so the 1.75 left take about 2 s */
  test_now += 1600000;
  ns_progress_item(p, 1, "pair %s", "64KiB");
  ns_progress_detail(p, 0.25, "%d/%d messages", 1, 4);
  ns_progress_free(p);
  g_autofree char *text = read_all(f);
  fclose(f);
  g_assert_null(strchr(text, '\r'));
  g_assert_cmpstr(text, ==,
                  "compare: 1/4 rows (38 %), 0s; ring 64KiB: 3/6 messages\n"
                  "compare: 2/4 rows (50 %), 0s\n"
                  "compare: 2/4 rows (56 %), 2s, about 2s left; pair 64KiB: 1/4 messages\n"
                  "compare: 2/4 rows done in 2s\n");

  /* no name, no total (plan -o): the detail and the elapsed time */
  f = tmpfile();
  p = ns_progress_new(f, NS_PROGRESS_LINES, 1e-6, "", NULL);
  test_now += 10;
  ns_progress_detail(p, 0, "plan: %d phases", 3);
  ns_progress_free(p);
  g_autofree char *plan = read_all(f);
  fclose(f);
  g_assert_cmpstr(plan, ==, "plan: 3 phases (0s)\nplan: 3 phases, done in 0s\n");
  ns_progress_use_clock(NULL);

  f = tmpfile();
  p = ns_progress_new(f, NS_PROGRESS_NONE, 1e-6, "x", "rows");
  ns_progress_add_total(p, 1);
  ns_progress_item(p, 1, "a");
  ns_progress_item_done(p);
  ns_progress_free(p);
  ns_progress_item(NULL, 1, "a"); /* a no-op */
  g_autofree char *none = read_all(f);
  fclose(f);
  g_assert_cmpstr(none, ==, "");
}

static void test_mode_parse(void)
{
  NsProgressMode m;
  GError *error = NULL;
  g_assert_true(ns_progress_mode_parse("lines", &m, &error));
  g_assert_cmpint(m, ==, NS_PROGRESS_LINES);
  g_assert_false(ns_progress_mode_parse("always", &m, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, "--progress 'always': expected auto, bar, lines or none");
  g_error_free(error);
}

/* The output-directory policy: a directory holding a result file is
 * refused unless resumed or overwritten; patterns one directory deep. */
static void test_outdir_policy(void)
{
  g_autofree char *dir = g_dir_make_tmp("ns-outdir-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename(dir, "missing", NULL);
  const char *const compare[] = { "compare.csv", NULL };
  const char *const study[] = { "design.csv", "*/compare.csv", NULL };
  gboolean resume = TRUE;
  GError *error = NULL;
  g_assert_true(ns_outdir_policy(missing, compare, NS_OUTDIR_NEW, &resume, &error));
  g_assert_false(resume);
  g_assert_true(ns_outdir_policy(dir, compare, NS_OUTDIR_NEW, &resume, &error));
  g_autofree char *other = g_build_filename(dir, "notes.txt", NULL);
  g_assert_true(g_file_set_contents(other, "mine\n", -1, NULL));
  g_assert_true(ns_outdir_policy(dir, study, NS_OUTDIR_NEW, &resume, &error));
  g_autofree char *run = g_build_filename(dir, "a-ideal", NULL);
  g_autofree char *csv = g_build_filename(run, "compare.csv", NULL);
  g_assert_cmpint(g_mkdir(run, 0755), ==, 0);
  g_assert_true(g_file_set_contents(csv, "config\n", -1, NULL));
  g_assert_true(ns_outdir_policy(dir, compare, NS_OUTDIR_NEW, &resume, &error));
  g_assert_false(ns_outdir_policy(dir, study, NS_OUTDIR_NEW, &resume, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_autofree char *want = g_strdup_printf(
      "%s holds results of an earlier run (a-ideal/compare.csv): add --resume to continue "
      "them or --overwrite to start afresh", dir);
  g_assert_cmpstr(error->message, ==, want);
  g_clear_error(&error);
  g_assert_true(ns_outdir_policy(dir, study, NS_OUTDIR_RESUME, &resume, &error));
  g_assert_true(resume);
  g_assert_true(ns_outdir_policy(dir, study, NS_OUTDIR_OVERWRITE, &resume, &error));
  g_assert_false(resume);
  NsOutdirMode mode;
  g_assert_false(ns_outdir_mode(TRUE, TRUE, &mode, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  g_assert_true(ns_outdir_mode(FALSE, TRUE, &mode, &error));
  g_assert_cmpint(mode, ==, NS_OUTDIR_OVERWRITE);
  g_unlink(csv);
  g_rmdir(run);
  g_unlink(other);
  g_rmdir(dir);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/progress/eta/steady", test_eta_steady);
  g_test_add_func("/progress/eta/burst", test_eta_burst);
  g_test_add_func("/progress/eta/resumed", test_eta_resumed);
  g_test_add_func("/progress/eta/growing", test_eta_growing);
  g_test_add_func("/progress/reporter/lines", test_reporter_lines);
  g_test_add_func("/progress/mode", test_mode_parse);
  g_test_add_func("/outdir/policy", test_outdir_policy);
  return g_test_run();
}
