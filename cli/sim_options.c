/* netsched — the simulation settings shared by compare, scenario and
 * design, and the measurement they hand the experiment engine. */
#include "analysis/calibrate.h"
#include "cli/cli_sim.h"
#include "analysis/bounds_collective.h"
#include "platforms/error.h"
#include "sim/smpi_baseline.h"
#include <string.h>

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

gboolean ns_cli_check_baselines(const GArray *variants, NsCollective c, const NsSimOptions *opt,
                                GError **error)
{
  for (guint i = 0; i < variants->len; i++) {
    const NsVariant *v = &g_array_index(variants, NsVariant, i);
    if (!v->external)
      continue;
    if (!ns_smpi_baseline_check(c, v->algorithm + strlen(NS_VARIANT_EXTERNAL_PREFIX), error))
      return FALSE;
    if (opt != NULL && opt->model != NS_MODEL_SMPI && opt->lat_factor == NULL &&
        opt->bw_factor == NULL) {
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                  "%s is measured by smpirun under SMPI's network model: use --model smpi, "
                  "not %s", v->label, ns_net_model_name(opt->model));
      return FALSE;
    }
  }
  return TRUE;
}

/* An external baseline (smpi:SPEC): SMPI's own implementation under
 * smpirun; `s` is the reference schedule, for the root and the bytes. */
static gboolean measure_baseline(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                                 uint64_t msize, NsMeasure *out, const NsSimOptions *opt,
                                 GError **error)
{
  int root = s->root >= 0 ? ns_topology_find_machine(topo, s->machines[s->root]) : 0;
  double t = 0;
  if (!ns_smpi_baseline_measure(topo, s->collective,
                                v->algorithm + strlen(NS_VARIANT_EXTERNAL_PREFIX), msize,
                                MAX(root, 0), opt, &t, error))
    return FALSE;
  *out = (NsMeasure){ .completion_s = t, .min_s = t, .max_s = t, .runs = 1,
                      .bound_s = ns_collective_bound(topo, s, s->msize),
                      .throughput_bps = t > 0 ? ns_collective_required_bytes(s, s->msize) * 8.0 / t
                                              : 0,
                      .valid = FALSE /* no schedule of netsched's was verified */ };
  g_strlcpy(out->sync, "smpirun", sizeof out->sync);
  return TRUE;
}

gboolean ns_cli_measure_by_simulation(const NsTopology *topo, const NsSchedule *s,
                                      const NsVariant *v, uint64_t msize, NsMeasure *out,
                                      void *user, GError **error)
{
  NsSimOptions *opt = user;
  if (v->external)
    return measure_baseline(topo, s, v, msize, out, opt, error);
  /* msize: the schedule was planned for it */
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
