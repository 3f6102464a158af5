/* netsched — the simulation settings shared by compare, scenario and
 * design, and the measurement they hand the experiment engine. */
#include "analysis/calibrate_internal.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"

gboolean ns_cli_sim_options(NsSimOptions *opt, const NsCliSimSettings *s, GError **error)
{
  ns_sim_options_init(opt);
  if (s->runs < 0 || s->runs > 1000) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "runs %d: expected 1 to 1000", s->runs);
    return FALSE;
  }
  if (s->queue > 0)
    opt->queue_packets = s->queue;
  opt->wall_limit = MAX(s->wall_limit, 0);
  opt->tcp_variant = g_strdup(s->tcp);
  opt->progress = s->progress;
  opt->runs = MAX(s->runs, 1);
  if (s->model != NULL && !ns_net_model_parse(s->model, &opt->model, error))
    return FALSE;
  if (s->calibration == NULL)
    return TRUE;
  /* The SMPI model with the calibration's factors. */
  g_autoptr(NsCalibration) cal = ns_calibration_load(s->calibration, error);
  if (cal == NULL)
    return FALSE;
  if (s->model != NULL && opt->model != NS_MODEL_SMPI) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "a calibration simulates with the smpi model, not %s", s->model);
    return FALSE;
  }
  opt->model = NS_MODEL_SMPI;
  opt->lat_factor = g_steal_pointer(&cal->lat_factor);
  opt->bw_factor = g_steal_pointer(&cal->bw_factor);
  return TRUE;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

gboolean ns_cli_measure_by_simulation(const NsTopology *topo, const NsSchedule *s,
                                      const NsVariant *v, uint64_t msize, NsMeasure *out,
                                      void *user, GError **error)
{
  (void)msize; /* the schedule was planned for it */
  NsSimOptions *opt = user;
  opt->sync = (NsSyncScheme){ NS_SYNC_NONE, 0 };
  opt->sync_set = v->sync != NULL;
  if (v->sync != NULL && !ns_sync_scheme_parse(v->sync, &opt->sync, error))
    return FALSE;
  opt->msize = 0; /* the schedule's own */
  /* The fluid models are deterministic: one run says it all. */
  int runs = opt->model == NS_MODEL_PACKET && opt->runs > 1 ? opt->runs : 1;
  g_autofree double *times = g_new(double, (gsize)runs);
  gboolean ok = TRUE;
  for (int k = 0; k < runs && ok; k++) {
    NsSimResult r;
    opt->run = k;
    if (!(ok = ns_simulate(topo, s, opt, &r, error))) {
      if (runs > 1)
        g_prefix_error(error, "run %d of %d: ", k + 1, runs);
      break;
    }
    times[k] = r.completion;
    if (k == 0) {
      *out = (NsMeasure){ .completion_s = r.completion, .bound_s = r.bound,
                          .throughput_bps = r.throughput, .sync_messages = r.n_sync_messages,
                          .valid = r.valid, .runs = runs };
      g_strlcpy(out->sync, r.sync, sizeof out->sync);
    }
    out->valid = out->valid && r.valid;
    ns_sim_result_clear(&r);
  }
  opt->run = 0;
  if (!ok)
    return FALSE;
  qsort(times, (size_t)runs, sizeof *times, compare_doubles);
  double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
  out->throughput_bps *= out->completion_s / median; /* the same bytes */
  out->completion_s = median;
  out->min_s = times[0];
  out->max_s = times[runs - 1];
  return TRUE;
}
