/* netsched — what `netsched tune` writes besides measurements.csv
 * (analysis/tune.c measures; docs/tune.md, "Outputs"). */
#ifndef NETSCHED_TUNE_OUTPUTS_H
#define NETSCHED_TUNE_OUTPUTS_H

#include "analysis/tune_spec_internal.h"

/* One candidate's times at the fixed sizes, its parameter tuned per size
 * (NAN where it does not apply), for the plot. */
typedef struct {
  const char *label;
  const double *time_s; /* spec->sizes->len entries */
} NsTuneCurve;

/* decision.csv: from_bytes, to_bytes (empty: no upper end), algorithm,
 * params, measured_bytes, time_s, runner_up, runner_up_params,
 * runner_up_s, margin_percent (how much slower the runner-up was). */
gboolean ns_tune_write_decision_csv(const char *outdir, const NsDecisionTable *t,
                                    GError **error);

/* tune.dat and tune.gp, then tune.svg and tune.png with gnuplot: time
 * against size per candidate, the chosen envelope, the switch points.
 * *plotted: gnuplot drew them (a missing gnuplot is a warning). */
gboolean ns_tune_write_plot(const NsTuneSpec *spec, const char *topology_name,
                            const NsDecisionTable *t, const NsTuneCurve *curves, guint n_curves,
                            gboolean *plotted, GError **error);

/* The tuned routine: a table per chosen (algorithm, params), planned at
 * its row's measured size (COLL-ALGO[-PARAMS].nsr), netsched-mpi.conf
 * dispatching them by size, tuned_COLL.c (every table embedded and
 * netsched_tuned_COLL() choosing by size, Figure 4.5(a)) and README with
 * the commands. */
gboolean ns_tune_write_routines(const NsTuneSpec *spec, const NsDecisionTable *t,
                                GError **error);

#endif
