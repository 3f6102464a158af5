/* netsched — command-line helpers of the commands that simulate (compare,
 * scenario, design): only built with the simulator. */
#ifndef NETSCHED_CLI_SIM_H
#define NETSCHED_CLI_SIM_H

#include "analysis/experiment_internal.h"
#include "analysis/scenario_internal.h"
#include "cli/cli.h"
#include "sim/sim.h"
#include "sim/smpi_baseline.h"

/* The simulation settings of compare, scenario and design. */
/* The ns3 model's options, one table for simulate and compare
 * (cli/ns3_options.c): as given, before the check. */
typedef struct NsCliNs3Args {
  char *transport, *scheduler; /* NULL: tcp-persistent, map */
  char *window_count;          /* udp-window's count; NULL: auto */
  int init_cwnd, mtu;
  int window;                  /* -1: not given */
  double min_rto, retransmit_timeout;
  gboolean no_delayed_ack;
} NsCliNs3Args;
/* Linux's defaults (sim/sim.h). */
void ns_cli_ns3_args_init(NsCliNs3Args *a);
void ns_cli_ns3_args_clear(NsCliNs3Args *a);
/* --transport, --window, --window-count, --retransmit-timeout, --init-cwnd,
 * --min-rto, --no-delayed-ack, --mtu, --ns3-scheduler into `a`. */
void ns_cli_ns3_args_add(GOptionContext *ctx, NsCliNs3Args *a);
/* Checks `a` and sets opt's ns3 fields: 0, or the exit status (2) after
 * "netsched COMMAND: --OPTION takes ..." or "netsched: --transport: ...". */
int ns_cli_ns3_args_apply(const NsCliNs3Args *a, const char *command, NsSimOptions *opt);

typedef struct {
  const char *model;        /* NULL: ideal */
  int queue;                /* packet: switch queue (packets), 0 = default */
  const char *tcp;          /* packet: TCP variant, NULL = default */
  double wall_limit;        /* seconds per simulation, 0 = none */
  const char *calibration;  /* smpi factors: a file or bundled name */
  NsProgress *progress;     /* told of each simulation's messages (NULL: none) */
  int runs;                 /* packet model: simulations per row (0 or 1: one) */
  const char *arrival;      /* --arrival SPEC (sim/arrival.h); NULL: none */
  const char *eager_threshold; /* --eager-threshold SIZE; NULL: NS_SIM_EAGER_DEFAULT */
  const char *reduce_rate;  /* --reduce-rate RATE; NULL: NS_SIM_REDUCE_RATE_DEFAULT */
  char **cfg;               /* --cfg NAME:VALUE (repeatable): SimGrid options, NULL: none */
} NsCliSimSettings;

/* --arrival SPEC (sim/arrival.h): the pattern, or NULL with an error
 * prefixed "--arrival: " (a file's own errors are "PATH:LINE: ..."). */
NsArrival *ns_cli_arrival(const char *spec, GError **error);

/* --cfg NAME:VALUE, each of `cfg` (NULL-terminated; NULL: none) a SimGrid
 * option (ns_simgrid_option_valid); NS_ERROR_INPUT "--cfg 'TEXT': expected
 * NAME:VALUE" otherwise. */
gboolean ns_cli_cfg_check(char *const *cfg, GError **error);

/* --eager-threshold SIZE: "0" (no eager sends) or a size as --msize takes
 * it; NS_ERROR_INPUT "--eager-threshold 'TEXT': why" otherwise. */
gboolean ns_cli_eager_threshold(const char *text, uint64_t *bytes, GError **error);

/* --reduce-rate RATE: "0" (combining is free) or a bandwidth with its unit
 * ("36GBps", "12.5MB/s"; platforms/model/units.h) in bytes per second;
 * NS_ERROR_INPUT "--reduce-rate 'TEXT': why" otherwise. */
gboolean ns_cli_reduce_rate(const char *text, double *bytes_per_s, GError **error);

/* Initialises *opt from the settings (ns_sim_options_clear() it even when
 * this fails). NS_ERROR_INPUT for an unknown model, a --cfg without
 * NAME:VALUE or a calibration with a model other than smpi; the
 * calibration's errors. */
gboolean ns_cli_sim_options(NsSimOptions *opt, const NsCliSimSettings *s, GError **error);

/* The experiment engine's measurement (NsMeasureFunc): simulates the
 * schedule with the NsSimOptions in `user` and the variant's sync scheme
 * (or the schedule's own), reusing the row's facts (its verification,
 * bound and route table); an external baseline (smpi:SPEC) runs under
 * smpirun instead (sim/smpi_baseline.h). Under the packet model opt->runs
 * times (the policy of sim/measure.h), reporting the median, the fastest
 * and the slowest. A failed run fails the measurement, naming the run. */
gboolean ns_cli_measure_by_simulation(const NsTopology *topo, const NsSchedule *s,
                                      const NsVariant *v, uint64_t msize,
                                      const NsRowFacts *facts, NsMeasure *out, void *user,
                                      GError **error);

/* How `scenario run` and `design` run a study: the options they share. */
typedef struct {
  NsOutdirArgs outdir;        /* --resume, --overwrite */
  NsProgressArgs progress; /* --progress, --progress-interval */
  gboolean retry_failed;      /* --retry-failed (implies --resume) */
  int jobs;                   /* -j: experiments at once (0: the cores) */
  char **cfg;                 /* --cfg NAME:VALUE (repeatable): SimGrid options after the
                                 scenario's cfg key; NULL: none */
} NsCliStudyArgs;
/* The options of NsCliStudyArgs, for both commands. */
void ns_cli_add_study_options(GOptionContext *ctx, NsCliStudyArgs *a);
/* Frees what the options of NsCliStudyArgs hold. */
void ns_cli_study_args_clear(NsCliStudyArgs *a);

/* The design study of a loaded scenario (cli/cmd_design.c): `scenario run`
 * and `design` both end here. Returns the exit status. */
int ns_cli_run_study(const NsScenario *scenario, const NsCliStudyArgs *args);

#endif
