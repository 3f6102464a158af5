/* netsched — the measurement policy of the commands that simulate (see
 * measure.h). */
#include "sim/measure.h"
#include "analysis/progress_internal.h"
#include "analysis/stats.h"

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

gboolean ns_sim_more_runs(const NsTopology *topo, const NsSchedule *s, NsSimOptions *opt,
                          int runs, gboolean items, const NsSimResult *first, NsSimRuns *out,
                          GError **error)
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
  for (int k = 1; k < runs && ok; k++) {
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
