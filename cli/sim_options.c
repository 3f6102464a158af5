/* netsched — the simulation settings shared by compare, scenario and
 * design, and the measurement they hand the experiment engine. */
#include "analysis/calibrate_internal.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sim/measure.h"
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
  if (!ns_cli_cfg_check(s->cfg, error))
    return FALSE;
  for (int i = 0; s->cfg != NULL && s->cfg[i] != NULL; i++)
    g_ptr_array_add(opt->cfg, g_strdup(s->cfg[i]));
  if (s->model != NULL && !ns_net_model_parse(s->model, &opt->model, error))
    return FALSE;
  if (s->arrival != NULL && (opt->arrival = ns_cli_arrival(s->arrival, error)) == NULL)
    return FALSE;
  if (s->eager_threshold != NULL &&
      !ns_cli_eager_threshold(s->eager_threshold, &opt->eager_threshold, error))
    return FALSE;
  /* After the calibration (below), which may carry the machines' rate. */
  if (s->reduce_rate != NULL && !ns_cli_reduce_rate(s->reduce_rate, &opt->reduce_rate, error))
    return FALSE;
  if (s->calibration == NULL)
    return TRUE;
  g_autoptr(NsCalibration) cal = ns_calibration_load(s->calibration, error);
  if (cal == NULL)
    return FALSE;
  if (s->model != NULL && opt->model != NS_MODEL_SMPI) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "a calibration simulates with the smpi model, not %s", s->model);
    return FALSE;
  }
  ns_sim_options_calibrate(opt, cal);
  /* an explicit --reduce-rate wins over the calibration's */
  return s->reduce_rate == NULL || ns_cli_reduce_rate(s->reduce_rate, &opt->reduce_rate, error);
}

gboolean ns_cli_cfg_check(char *const *cfg, GError **error)
{
  for (int i = 0; cfg != NULL && cfg[i] != NULL; i++)
    if (!ns_simgrid_option_valid(cfg[i])) {
      g_autofree char *shown = g_strescape(cfg[i], NULL);
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "--cfg '%s': expected NAME:VALUE", shown);
      return FALSE;
    }
  return TRUE;
}

gboolean ns_cli_eager_threshold(const char *text, uint64_t *bytes, GError **error)
{
  if (strcmp(text, "0") == 0) { /* sizes are > 0; 0 turns eager sends off */
    *bytes = 0;
    return TRUE;
  }
  return ns_cli_parse_size("--eager-threshold", text, bytes, error);
}

gboolean ns_cli_reduce_rate(const char *text, double *bytes_per_s, GError **error)
{
  if (strcmp(text, "0") == 0) { /* bandwidths are > 0; 0 makes combining free */
    *bytes_per_s = 0;
    return TRUE;
  }
  double bits;
  const char *why = NULL;
  if (!ns_parse_bandwidth(text, &bits, &why)) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "--reduce-rate '%s': %s", text, why);
    return FALSE;
  }
  *bytes_per_s = bits / 8;
  return TRUE;
}

NsArrival *ns_cli_arrival(const char *spec, GError **error)
{
  NsArrival *a = ns_arrival_parse(spec, error);
  if (a == NULL && !g_str_has_prefix(spec, "file:"))
    g_prefix_error(error, "--arrival: ");
  return a;
}

gboolean ns_cli_measure_by_simulation(const NsTopology *topo, const NsSchedule *s,
                                      const NsVariant *v, uint64_t msize,
                                      const NsRowFacts *facts, NsMeasure *out, void *user,
                                      GError **error)
{
  NsSimOptions *opt = user;
  if (v->external)
    return ns_smpi_baseline_row(topo, s, v, msize, out, opt, error);
  /* msize: the schedule was planned for it */
  opt->sync = (NsSyncScheme){ NS_SYNC_NONE, 0 };
  opt->sync_set = v->sync != NULL;
  if (v->sync != NULL && !ns_sync_scheme_parse(v->sync, &opt->sync, error))
    return FALSE;
  opt->msize = 0; /* the schedule's own */
  opt->known = facts; /* verified and bounded by the engine: not again, not per run */
  /* The fluid models are deterministic: one run says it all. */
  int runs = opt->model == NS_MODEL_PACKET && opt->runs > 1 ? opt->runs : 1;
  NsSimResult r;
  NsSimRuns all = { 0 };
  gboolean ok = ns_simulate(topo, s, opt, &r, error);
  if (!ok && runs > 1)
    g_prefix_error(error, "run 1 of %d: ", runs);
  if (ok) {
    *out = (NsMeasure){ .completion_s = r.completion, .bound_s = r.bound,
                        .throughput_bps = r.throughput, .sync_messages = r.n_sync_messages,
                        .valid = r.valid, .runs = runs };
    g_strlcpy(out->sync, r.sync, sizeof out->sync);
    if (r.arrival != NULL) { /* run 0's: the pattern is the same in every run */
      out->avg_imbalance = r.arrival_stats.avg_imbalance;
      out->max_imbalance = r.arrival_stats.max_imbalance;
      out->per_node_s = r.arrival_stats.mean_node_s;
      out->span_s = r.arrival_stats.span_s;
    }
    /* one process: compare's and design's rows are what -j spreads */
    ok = ns_sim_more_runs(topo, s, opt, runs, 1, FALSE, &r, &all, error);
    ns_sim_result_clear(&r);
  }
  opt->known = NULL;
  if (!ok)
    return FALSE;
  out->valid = all.valid;
  out->throughput_bps *= out->completion_s / all.median; /* the same bytes */
  out->completion_s = all.median;
  out->min_s = g_array_index(all.sorted, double, 0);
  out->max_s = g_array_index(all.sorted, double, all.sorted->len - 1);
  ns_sim_runs_clear(&all);
  return TRUE;
}
