/* netsched — the measurement policy of the commands that simulate (see
 * measure.h). */
#include "sim/measure.h"
#include "analysis/progress_internal.h"
#include "analysis/stats.h"
#include "analysis/pool_internal.h"
#include "platforms/model/error.h"
#include <string.h>

void ns_sim_options_calibrate(NsSimOptions *opt, const NsCalibration *cal)
{
  opt->model = NS_MODEL_SMPI;
  g_free(opt->lat_factor);
  g_free(opt->bw_factor);
  opt->lat_factor = g_strdup(cal->lat_factor);
  opt->bw_factor = g_strdup(cal->bw_factor);
  if (cal->reduce_rate > 0) /* the machines' own rate, measured with the table */
    opt->reduce_rate = cal->reduce_rate;
}

void ns_sim_runs_clear(NsSimRuns *r)
{
  if (r->sorted != NULL)
    g_array_unref(r->sorted);
  *r = (NsSimRuns){ 0 };
}

static gint compare_doubles(gconstpointer a, gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ---- runs over worker processes (analysis/pool_internal.h) ---- */

typedef struct {
  const NsTopology *topo;
  const NsSchedule *s;
  NsSimOptions *opt;
  int runs;
  /* per run (index k), filled by the sink */
  double *completion;
  gboolean *valid;
  char **failed;       /* the error of run k, or NULL */
} ParallelRuns;

/* A worker: run task + 1; 'o', its completion and validity, or 'e' and
 * the error message. */
static void run_work(guint task, GString *out, void *user)
{
  ParallelRuns *pr = user;
  ns_progress_silence(pr->opt->progress); /* this process's copy: the parent reports */
  pr->opt->run = (int)task + 1;
  NsSimResult r;
  GError *error = NULL;
  if (ns_simulate(pr->topo, pr->s, pr->opt, &r, &error)) {
    char valid = r.valid ? 1 : 0;
    g_string_append_c(out, 'o');
    g_string_append_len(out, (const char *)&r.completion, sizeof r.completion);
    g_string_append_len(out, &valid, 1);
    ns_sim_result_clear(&r);
  } else {
    g_string_append_c(out, 'e');
    g_string_append(out, error->message);
    g_error_free(error);
  }
}

static char *run_name(guint task, void *user)
{
  const ParallelRuns *pr = user;
  return g_strdup_printf("run %u of %d", task + 2, pr->runs);
}

static gboolean run_done(guint task, const char *bytes, gsize len, void *data, GError **error)
{
  ParallelRuns *pr = data;
  guint k = task + 1;
  if (len == 1 + sizeof(double) + 1 && bytes[0] == 'o') {
    memcpy(&pr->completion[k], bytes + 1, sizeof(double));
    pr->valid[k] = bytes[1 + sizeof(double)] != 0;
  } else {
    pr->failed[k] = len > 0 && bytes[0] == 'e' ? g_strndup(bytes + 1, MIN(len - 1, 4096))
                                               : g_strdup("no result");
  }
  ns_progress_add(pr->opt->progress, 1);
  return TRUE;
}

/* Runs 1..runs-1 by `jobs` workers, in any order; the result is the same
 * as in order: the times are sorted, and the error is the first failed
 * run's. */
static gboolean more_runs_parallel(const NsTopology *topo, const NsSchedule *s, NsSimOptions *opt,
                                   int runs, int jobs, NsSimRuns *out, GError **error)
{
  ParallelRuns pr = { .topo = topo, .s = s, .opt = opt, .runs = runs,
                      .completion = g_new0(double, runs), .valid = g_new0(gboolean, runs),
                      .failed = g_new0(char *, runs + 1) };
  guint n = (guint)runs - 1;
  guint *tasks = g_new(guint, n);
  for (guint t = 0; t < n; t++)
    tasks[t] = t;
  NsPool pool = { .work = run_work, .name = run_name, .user = &pr, .n_tasks = n,
                  .worker = "simulation worker", .kept = "no run is kept" };
  gboolean ok = ns_pool_run(&pool, tasks, n, jobs, run_done, &pr, error);
  for (int k = 1; ok && k < runs; k++) {
    if (pr.failed[k] != NULL) {
      ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "run %d of %d: %s", k + 1, runs, pr.failed[k]);
      ok = FALSE;
      break;
    }
    g_array_append_val(out->sorted, pr.completion[k]);
    out->valid = out->valid && pr.valid[k];
  }
  g_free(tasks);
  g_free(pr.completion);
  g_free(pr.valid);
  g_strfreev(pr.failed);
  return ok;
}

gboolean ns_sim_more_runs(const NsTopology *topo, const NsSchedule *s, NsSimOptions *opt,
                          int runs, int jobs, gboolean items, const NsSimResult *first,
                          NsSimRuns *out, GError **error)
{
  *out = (NsSimRuns){ .sorted = g_array_new(FALSE, FALSE, sizeof(double)),
                      .valid = first->valid };
  g_array_append_val(out->sorted, first->completion);
  /* Runs differ in the salt only: run 0's route table and bound serve them
   * all (a caller's facts, when given, already do). */
  const NsRowFacts *given = opt->known;
  NsRowFacts run0 = { .bound_s = first->bound, .routes = first->routes };
  if (given == NULL && first->routes != NULL)
    opt->known = &run0;
  gboolean ok = TRUE;
  if (jobs > 1 && runs > 2)
    ok = more_runs_parallel(topo, s, opt, runs, jobs, out, error);
  for (int k = 1; k < runs && ok && !(jobs > 1 && runs > 2); k++) {
    NsSimResult r;
    opt->run = k;
    if (items)
      ns_progress_item(opt->progress, 1, "run %d of %d", k + 1, runs);
    ok = ns_simulate(topo, s, opt, &r, error);
    if (items)
      ns_progress_item_done(opt->progress);
    if (!ok) {
      g_prefix_error(error, "run %d of %d: ", k + 1, runs);
      break;
    }
    g_array_append_val(out->sorted, r.completion);
    out->valid = out->valid && r.valid;
    ns_sim_result_clear(&r);
  }
  opt->run = 0;
  opt->known = given;
  if (!ok) {
    ns_sim_runs_clear(out);
    return FALSE;
  }
  g_array_sort(out->sorted, compare_doubles);
  out->median = ns_median_sorted((const double *)out->sorted->data, out->sorted->len);
  return TRUE;
}
