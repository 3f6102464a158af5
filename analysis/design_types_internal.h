/* netsched — what a design study is made of: designs, their collectives and
 * models, and the spec that runs them (design_internal.h runs it). The
 * study's engine (design.c), its cells (design_cells.c) and its report
 * (design_report.c) all read these; none owns them. */
#ifndef NETSCHED_DESIGN_TYPES_H
#define NETSCHED_DESIGN_TYPES_H

#include "analysis/design_cost_internal.h"
#include "analysis/experiment_internal.h"
#include <stdio.h>

/* Relative gap under which a fluid model's times count as tied. */
#define NS_DESIGN_FLUID_TIE 0.01

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
  char *pattern;       /* alltoallv, allgatherv: the size pattern axis
                          (experiment_pattern_internal.h); NULL otherwise */
  const char *pattern_option; /* its name in messages: "pattern" or "--pattern" */
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
  int jobs;                        /* rows at once in worker processes, written in order
                                      (ns_compare_experiments); <= 1: one at a time */
  FILE *out;                       /* the run's log and the report (NULL: quiet) */
  NsWarnFunc warn;                 /* told of a plot not drawn, a row cut short (NULL: nobody) */
  NsWarnFunc note;                 /* told of a compare.csv upgraded to the current format */
  void *warn_data;                 /* passed to both */
} NsDesignSpec;

#endif
