/* netsched — internal: what a tuning is asked (NsTuneSpec) and what its
 * tuned parameters mean to a planner (analysis/tune_params.c); shared by
 * the tuning (tune.c) and its outputs (tune_outputs.c), which read no
 * more of each other. docs/tune.md. */
#ifndef NETSCHED_TUNE_SPEC_INTERNAL_H
#define NETSCHED_TUNE_SPEC_INTERNAL_H

#include "analysis/experiment_internal.h"
#include "sched/lower/decision.h"

typedef struct {
  const NsTopology *topo;
  const char *name;          /* the topology's name in files (NULL: its base name) */
  NsCollective collective;
  const char *algorithms;    /* comma-separated candidates (NULL: every registered
                                algorithm of the collective except the MPI libraries'
                                selectors mpich, ompi, ompi-legacy) */
  const GArray *sizes;       /* uint64_t, increasing */
  int root;                  /* bcast root */
  const char *model;         /* the model's name (decision.json's "measure": replay:MODEL) */
  const char *measure_name;  /* decision.json's "measure" when not the replay ("smpirun"; NULL:
                                replay:MODEL); in the resume digest */
  const char *settings;      /* every other setting that changes a time: in the digest */
  const char *timing;        /* the timing mechanism's name for decision.json (NULL: "mpptest") */
  int iterations;            /* invocations per measurement (Figure 4.3's ITER; 0: 1): the
                                measurement's completion is divided by it */
  const char *outdir;
  gboolean resume;
  NsMeasureFunc measure;
  void *measure_data;
  NsWarnFunc note;           /* progress and skipped candidates (NULL: quiet) */
  NsWarnFunc warn;           /* a plot not drawn, a row cut short */
  void *warn_data;
  const char *command;       /* the command line, for the generated files' comments */
  uint64_t eager_threshold;  /* the generated routines' (NsRoutineOptions): the replay's */
  const char *pattern;       /* alltoallv, allgatherv: a size-pattern generator scaled to each
                                size measured (experiment_pattern_internal.h; the binary
                                search measures between the sizes, so no fixed pattern);
                                NULL for the other collectives */
} NsTuneSpec;

/* A parameter as tuned ("barriers=4", "segment=8192", "") into what
 * plans and replays it: the planning parameters' segment and the sync
 * scheme (newly allocated "barrier-partial-none:BS", or NULL: the
 * algorithm's own). FALSE with NS_ERROR_INPUT for a parameter text tune
 * does not write. */
gboolean ns_tune_params_apply(const char *params, int n_machines, NsPlanParams *pp, char **sync,
                              GError **error);

#endif
