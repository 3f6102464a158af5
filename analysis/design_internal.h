/* netsched — the design study: candidate cluster designs side by side.
 *
 * A design study answers "which of these fabrics gives the best all-to-all,
 * all-gather and broadcast, and how far from the bound?". It runs the
 * compare engine (experiment_internal.h) for every design × collective × model —
 * each run resumable in its own directory — collects every row through
 * the engine's row sink, and writes across designs:
 *
 *   design.csv     every row of every run (the compare.csv columns: config,
 *                  topology, collective, model, label, ...): one file to
 *                  filter, no join needed;
 *   summary.csv    one row per collective × size × model × design: the
 *                  bound, the fastest verified schedule (or the tie a
 *                  fluid model cannot break), the best contention-free one,
 *                  the MPI defaults, the bottleneck, switch and cable
 *                  counts, and the cost when prices are given;
 *   COLL-MODEL.{dat,gp,svg,png}
 *                  one plot per collective and model, designs side by side
 *                  (clustered bars per message size: bound, fastest
 *                  verified, best contention-free, MPICH's and Open MPI's
 *                  defaults), time
 *                  and ratio to the bound, both from zero with headroom,
 *                  each bar labelled with its algorithm, the subtitle
 *                  computed from the bars;
 *   report.md      the recommendation, also printed; designs ranked with
 *                  every ratio to the fastest, ties (ns_study_rows_tie)
 *                  said as ties; links to the plots that exist.
 *
 * Which model ranks. The fluid models (ideal, tcp, smpi) share bandwidth
 * perfectly: any schedule whose link loads fit — the all-posted `simple`
 * as much as an optimal phased one — meets the bound, so they cannot tell
 * schedules apart by contention. The report names the schedule to
 * configure from the packet model when the study has it (always the
 * fastest verified one); from a fluid model only when that fastest is
 * contention-free and ahead of every other by more than
 * NS_DESIGN_FLUID_TIE; otherwise it lists the tie (or says the fastest
 * shares links) and names none. Every ranking states its model.
 *
 * "Verified" means planned, proved complete by the verifier and simulated
 * to completion; "best contention-free" is the fastest verified schedule
 * the verifier also proved contention-free. The MPI defaults are the
 * registry's `mpich` and `ompi` selectors, added to every collective's
 * algorithm list when the study does not name them: what the cluster gets
 * out of the box.
 */
#ifndef NETSCHED_DESIGN_H
#define NETSCHED_DESIGN_H

#include "analysis/experiment_internal.h"
#include <stdio.h>

/* Relative gap under which a fluid model's times count as tied. */
#define NS_DESIGN_FLUID_TIE 0.01

/* Prices for the cost column (design_cost.c). */
typedef struct NsPrices NsPrices;

typedef struct {
  char *name;          /* [A-Za-z0-9][A-Za-z0-9._-]*: used in paths and plots */
  char *description;   /* one line for people (may be NULL) */
  NsTopology *topo;    /* loaded by the caller, not owned */
  char *versus;        /* the design this one changes one part of (NULL: none) */
  char *change;        /* what changed ("10 Gbit/s uplinks"; NULL: "vs VERSUS") */
  guint64 model_mask;  /* bit m: run model m on this design (0: every model) */
  const NsPrices *prices; /* this design's prices (NULL: the study's), not owned */
} NsDesign;

/* TRUE when design d runs model m. */
static inline gboolean ns_design_runs_model(const NsDesign *d, int m)
{
  return d->model_mask == 0 || (d->model_mask >> m & 1) != 0;
}

typedef struct {
  NsCollective collective;
  GArray *variants;    /* NsVariant, MPI selectors included */
  char *root;          /* bcast root machine name (NULL: the first machine) */
  uint64_t segment;    /* bcast segment bytes (0: whole message) */
} NsDesignCollective;

typedef struct {
  char *name;            /* "ideal", "packet", ... */
  gboolean fluid;        /* cannot separate contention-free schedules */
  char *settings;        /* for the config digest */
  void *measure_data;    /* passed to the measure function */
} NsDesignModel;

typedef struct {
  const NsDesign *designs;
  int n_designs;
  const NsDesignCollective *collectives;
  int n_collectives;
  const GArray *sizes;             /* uint64_t */
  const NsDesignModel *models;
  int n_models;                    /* at most 64 */
  NsMeasureFunc measure;
  const NsPrices *prices;          /* NULL: no cost column (then no design has prices) */
  const char *outdir;
  gboolean one_collective_layout;  /* runs in OUTDIR/DESIGN-MODEL (else -COLLECTIVE appended) */
  gboolean retry_failed;           /* rows whose last attempt failed run again */
  gboolean restart;                /* start every run's rows over (--overwrite); default: keep
                                      the rows there (the caller applied
                                      analysis/outdir_internal.h) */
  NsProgress *progress;            /* told of every row (NULL: none) */
  int jobs;                        /* runs (collective x design x model) at once in worker
                                      processes (analysis/pool_internal.h); <= 1: one at a time */
  FILE *out;                       /* the run's log and the report (NULL: quiet) */
  NsWarnFunc warn;                 /* told of a plot not drawn, a row cut short (NULL: nobody) */
  NsWarnFunc note;                 /* told of a compare.csv upgraded to the current format */
  void *warn_data;                 /* passed to both */
} NsDesignSpec;

/*
 * ns_design_study — runs the study described by `spec` and writes the
 * files listed above into spec->outdir.
 *
 * Steps:
 *  1. for every collective × design × model: the compare engine into its
 *     run directory, resuming what a previous run of the same configuration
 *     left there, every row passed back to the study;
 *  2. per collective × size × model × design: bound, best verified
 *     contention-free schedule (or the tie the fluid model cannot break),
 *     MPI defaults, bottleneck (sched/bound/lower_bound.h), hardware counts;
 *  3. design.csv, summary.csv, plots and report.md, each written whole
 *     (temporary file and rename).
 * Errors: NS_ERROR_INPUT (a bcast root that is not a machine of a design,
 * a resume of another configuration), NS_ERROR_IO. Rows that fail (an
 * algorithm that cannot plan a fabric, a simulation that stopped) are rows
 * with a status, not errors.
 * Time: the runs' planning and simulation, plus O(rows · designs) for the
 * summary.
 */
gboolean ns_design_study(const NsDesignSpec *spec, GError **error);

/* A design name fit for paths and plots: 1–64 of [A-Za-z0-9._-], not
 * starting with '.' or '-'. */
gboolean ns_design_name_valid(const char *name);

/* ---- hardware and cost (design_cost.c) ---- */

typedef struct {
  int switches;
  int cables;          /* links */
  int switch_ports;    /* link ends at switches */
  int nic_ports;       /* link ends at machines */
} NsHardware;

/* Counts the hardware of `topo`. O(links). */
void ns_design_hardware(const NsTopology *topo, NsHardware *hw);

/*
 * ns_prices_load — a price file (strict key file, analysis/keyfile_internal.h):
 *
 *   [prices]
 *   currency    = EUR                       (text, default "")
 *   switch      = 1500                      per switch, or by its ports in use:
 *   switch      = 8:200, 48:2500, 128:15000 PORTS:PRICE, the smallest chassis
 *                                           with at least the switch's ports
 *   switch-port = 1Gbps:40, 10Gbps:300      per switch port, by link speed
 *   nic-port    = 1Gbps:30, 10Gbps:250      per machine port, by link speed
 *   cable       = 1Gbps:5, 10Gbps:60        per link, by link speed
 *
 * Every key is optional (a missing one costs nothing); a speed a design
 * uses but a listed key does not price, or a switch with more ports than
 * the largest chassis, is an error of ns_design_cost.
 * NULL with NS_ERROR_INPUT (`file:line: ...`) or NS_ERROR_IO. O(size).
 */
NsPrices *ns_prices_load(const char *path, GError **error);
/* The prices of `base` (may be NULL) with the keys that `path` gives
 * replacing base's, key by key: one design's prices over the study's. */
NsPrices *ns_prices_load_over(const NsPrices *base, const char *path, GError **error);
void ns_prices_free(NsPrices *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsPrices, ns_prices_free)
const char *ns_prices_currency(const NsPrices *p);

/* The price of `topo`'s hardware. FALSE with NS_ERROR_INPUT naming the
 * speed that has no price. O(links · prices). */
gboolean ns_design_cost(const NsPrices *p, const NsTopology *topo, double *cost,
                        GError **error);

#endif
