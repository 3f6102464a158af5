/* netsched — the one measurement policy of every command that simulates
 * (simulate, compare, scenario, design, sweep --measure):
 *   calibration  a calibration (analysis/calibrate_internal.h) simulates with the
 *                smpi model and the calibration's factors;
 *   runs         the packet model runs N times, run k with FqCoDel salt
 *                ns_sim_run_perturbation(k) (sim.h); the fluid models are
 *                deterministic, so once;
 *   median       a row's time is the median of its runs
 *                (ns_median_sorted, analysis/stats.h), with the fastest
 *                and the slowest beside it. */
#ifndef NETSCHED_SIM_MEASURE_H
#define NETSCHED_SIM_MEASURE_H

#include "analysis/calibrate_internal.h"
#include "sim/sim.h"

/* The smpi model with the calibration's factors (copied from `cal`), and
 * its reduction rate when it has one. */
void ns_sim_options_calibrate(NsSimOptions *opt, const NsCalibration *cal);

/* The completion times of a measurement's runs. */
typedef struct {
  GArray *sorted;  /* double: every run's completion time, fastest first */
  double median;   /* ns_median_sorted of them */
  gboolean valid;  /* every run's replay was of a schedule that verified */
} NsSimRuns;
void ns_sim_runs_clear(NsSimRuns *r);

/* Runs 1..runs-1 of a measurement whose run 0 is `first` (the caller
 * simulated it, perhaps traced), each ns_simulate with opt->run = k
 * (restored to 0) on run 0's route table and bound (unless opt->known
 * gives them), each an item of opt->progress ("run k of n") when `items`;
 * *out gets the runs' times with run 0's. With jobs > 1 (and more than
 * two runs) `jobs` worker processes (analysis/pool_internal.h) simulate
 * them, the same *out and error for every `jobs`. An error names the run
 * ("run k of n: ..."; the first failed one). O(runs simulations). */
gboolean ns_sim_more_runs(const NsTopology *topo, const NsSchedule *s, NsSimOptions *opt,
                          int runs, int jobs, gboolean items, const NsSimResult *first,
                          NsSimRuns *out, GError **error);

#endif
