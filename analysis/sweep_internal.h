/* netsched — batch sweeps over random topologies (docs/sweeps.md).
 *
 * A sweep is a grid: generators × their parameter values × spanning-tree
 * methods = grid points; × seeds = tasks, one random topology each. A
 * sweep over files ([sweep] files = DIR/PATTERN, ...) has one generator,
 * `files`: tree methods = points; × files = tasks, one file each, read by
 * platforms/io/topology_spec.h as -T FILE reads it. Every
 * task gives one row of metrics (analysis/sweep_metrics.c): sizes, path
 * lengths (min, mean, max, distribution), the all-to-all bottleneck load
 * and bandwidth-weighted time bound, the LR1/LR2/LR3 rings' maximum and
 * mean hop path lengths, the heights of Algorithms 4 and 5 against a
 * complete binary tree, and optionally the completion of chosen schedules
 * measured through a callback (the CLI simulates; analysis/ cannot link
 * the simulator). Rows are JSON Lines; the aggregate per grid point holds
 * n, mean, standard deviation, the 95 % Student-t interval and
 * percentiles (analysis/stats.h); plots are gnuplot scripts (plot_internal.h).
 *
 * Long runs:
 *   - rows are written one write(2) each as they complete (rowfile_internal.h); a
 *     run killed even by SIGKILL and restarted resumes without losing or
 *     duplicating a row; every row carries a key (a digest of everything
 *     that determines it) and the file's header the digest of the whole
 *     grid, so rows of another configuration are refused, never kept;
 *   - parallel: forked worker processes (sweep_pool.c), because Debian's
 *     igraph 0.10 is built without IGRAPH_THREAD_SAFE: its default random
 *     generator, error handler and IGRAPH_FINALLY stack are process-wide;
 *   - sharded: task t belongs to shard t mod N; each shard writes its own
 *     file and ns_sweep_merge() joins them, checking none is missing, into
 *     exactly the files an unsharded run writes (byte for byte);
 *   - any other distributor (MPI: mpi/) plugs in as an NsSweepExecutor,
 *     passed to ns_sweep_run() or ns_sweep_command() (sweep_command.h).
 */
#ifndef NETSCHED_SWEEP_H
#define NETSCHED_SWEEP_H

#include "analysis/experiment_internal.h"
#include "analysis/progress_internal.h"
#include <stdio.h>

typedef struct NsSweep NsSweep;

/* The most tasks (grid points x seeds) a sweep may have. Refused when the
 * specification is read, before the grid is built: the end of a run keeps
 * every row (about 2 KB each with the aggregates' copies) to compute the
 * aggregates, so 10^6 tasks is already about 2 GB, and a task generates
 * and measures one topology. docs/sweeps.md, "Limits". */
#define NS_SWEEP_MAX_TASKS 1000000

/*
 * ns_sweep_load — reads a sweep specification (a GLib key file, format in
 * docs/sweeps.md): [sweep] and one [generator NAME] group per generator.
 * Relative paths (output) are resolved against the file's directory.
 * Errors: NS_ERROR_INPUT "FILE:LINE: what is wrong" for syntax errors,
 * unknown groups or keys, keys given twice, empty or bad values, missing
 * keys; NS_ERROR_IO when the file cannot be read. O(file + grid).
 */
NsSweep *ns_sweep_load(const char *path, GError **error);

/* A sweep from the command line: the same keys as the file's, [sweep]'s
 * as KEY=VALUE texts in `settings` (NULL-terminated, may be NULL) and one
 * generator per `generators` item "MODEL[:KEY=V1,V2...]..." (named g1,
 * g2, ...). Errors name the option ("--generator waxman:...: ..."). */
NsSweep *ns_sweep_new(const char *const *settings, const char *const *generators,
                      GError **error);

void ns_sweep_free(NsSweep *sw);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsSweep, ns_sweep_free)

/* The output directory of a loaded file (NULL when none was given). */
const char *ns_sweep_output(const NsSweep *sw);
const char *ns_sweep_description(const NsSweep *sw);
/* The measurement model named in the spec ("ideal" unless `model` says
 * otherwise) and the "COLLECTIVE/ALGORITHM[:SYNC]" labels to measure. */
const char *ns_sweep_model(const NsSweep *sw);
guint ns_sweep_n_measures(const NsSweep *sw);

/* Where the readers' warnings on the files of a sweep over files go
 * (NULL: dropped). The files are read as -T FILE reads them, with the
 * spec's `format` as -f (platforms/io/topology_spec.h). */
void ns_sweep_set_warn(NsSweep *sw, NsWarnFunc warn, void *data);

/* Installs the measurement of the `measure` items; `settings` describes
 * every setting that changes a measurement (part of the row keys). Must
 * be called before the first row when the spec measures anything. */
void ns_sweep_set_measure(NsSweep *sw, NsMeasureFunc measure, void *data, const char *settings);

/* The digest of the grid (every task's key, in order), tasks, points. */
const char *ns_sweep_digest(const NsSweep *sw);
guint ns_sweep_n_tasks(const NsSweep *sw);
guint ns_sweep_n_points(const NsSweep *sw);
/* "fig325 machines=200 tree=bfs seed 7" (newly allocated). */
char *ns_sweep_task_label(const NsSweep *sw, guint task);
/* The key of task `task` (a digest of everything that determines its row),
 * newly allocated: keys are computed when needed, never held per task. */
char *ns_sweep_task_key(const NsSweep *sw, guint task);

/*
 * ns_sweep_task_row — computes task `task`: builds its topology and its
 * metrics and appends its JSON row (one line, with '\n') to `row`. A
 * topology that cannot be built, or a metric that fails, is part of the
 * row ("status", "*_error"), never an error of the sweep. Deterministic:
 * the same task gives the same bytes in any process.
 * Time: the generator, O(S·(S+L)) path statistics, O(P·depth) rings and
 * LR3's programme, O(P³) Algorithm 5 (P <= 4096), the measurements.
 */
void ns_sweep_task_row(const NsSweep *sw, guint task, GString *row);

/* Receives a finished row in the process that runs the sweep: FALSE (with
 * an error) stops the run. */
typedef gboolean (*NsSweepSink)(guint task, const char *row, gsize len, void *data,
                                GError **error);

/* Computes tasks and hands their rows to the sink, in any order. */
typedef struct NsSweepExecutor {
  const char *name;   /* "processes", "mpi", ... for reports */
  gboolean (*run)(const NsSweep *sw, const guint *tasks, guint n_tasks, NsSweepSink sink,
                  void *sink_data, void *self, GError **error);
  void *self;
  int workers;        /* how many computations at once, for reports */
  /* NULL, or called with the built sweep before a run touches its output
   * directory: TRUE when this process does not run the sweep but served
   * another that runs it (netsched-mpi's ranks > 0 compute rows for rank 0
   * until told to stop); the command then ends there, successfully. */
  gboolean (*serves)(const NsSweep *sw, void *self);
} NsSweepExecutor;

/*
 * ns_sweep_pool_run — the built-in executor: `jobs` forked worker
 * processes (1: in this process, no fork) fed task indices through pipes,
 * rows coming back framed (task, length, bytes); each worker dies with the
 * parent (PR_SET_PDEATHSIG) and is reaped before this returns, on every
 * path. NS_ERROR_IO when a worker cannot be started or dies (its exit
 * status and task are named). See sweep_pool.c.
 */
gboolean ns_sweep_pool_run(const NsSweep *sw, const guint *tasks, guint n_tasks, int jobs,
                           NsSweepSink sink, void *sink_data, GError **error);

typedef struct {
  const char *outdir;
  int shard, n_shards;         /* this run computes tasks t with t mod n_shards == shard */
  gboolean restart;            /* discard the rows already there (default: resume) */
  int jobs;                    /* worker processes of the built-in executor (>= 1) */
  const NsSweepExecutor *executor;  /* NULL: the built-in one with `jobs` */
  NsProgress *progress;        /* told of every row (analysis/progress_internal.h; NULL: none) */
  FILE *report;                /* what was done, where the files are (NULL: nothing) */
  NsWarnFunc warn;             /* told of a row cut short, a plot not drawn (NULL: nobody) */
  void *warn_data;
} NsSweepRunOptions;

/*
 * ns_sweep_run — runs the tasks of shard I/N that the output does not
 * hold yet into OUTDIR/rows.jsonl (one shard: N = 1) or
 * OUTDIR/shard-I-of-N.jsonl, then, for N = 1, finishes: rows.jsonl
 * rewritten in task order, rows.csv, aggregate.json, aggregate.csv and
 * the plots (ns_sweep_merge() finishes sharded runs).
 * Errors: NS_ERROR_INPUT for rows of another sweep or shard, a malformed
 * or duplicated row, measurements asked without a measurement installed;
 * NS_ERROR_IO for files and workers. Time: the tasks' rows.
 */
gboolean ns_sweep_run(const NsSweep *sw, const NsSweepRunOptions *opt, GError **error);

/*
 * ns_sweep_merge — joins the shard files `files` (NULL: every
 * OUTDIR/shard-*-of-*.jsonl) of this sweep into OUTDIR's rows.jsonl and
 * finishes as ns_sweep_run() does. Every shard 0..N−1 must be there once,
 * complete, with this sweep's digest. Errors: NS_ERROR_INPUT naming the
 * missing or foreign shard, or the missing rows (count and first ones);
 * NS_ERROR_IO for files. Time O(rows).
 */
gboolean ns_sweep_merge(const NsSweep *sw, const char *outdir, const char *const *files,
                        FILE *report, NsWarnFunc warn, void *warn_data, GError **error);

#endif
