/* netsched — the experiment engine behind `compare` and `scenario`.
 *
 * An experiment plans, verifies and measures every algorithm variant ×
 * message size of one collective on one topology under one model, and
 * writes one CSV row per run as it completes, a table on a stream, and a
 * gnuplot plot of throughput against message size with the bound drawn in.
 *
 * The engine lives in analysis/, below the simulator in the pipeline
 * (platforms → sched → analysis → sim → cli), so it cannot call the
 * simulator: the measurement is a callback (NsMeasureFunc) that the caller
 * provides — the CLI passes one that runs SimGrid.
 *
 * Resumable and honest about it: every row carries a `config` digest of
 * everything that determines it (the topology's contents, the collective,
 * the model and its settings, the planning parameters); a resumed run keeps
 * the rows whose digest and (label, size) match, refuses a file holding
 * rows of another configuration, and drops a row cut short by a crash.
 * Rows are written with one write(2) each. Under a size pattern
 * (alltoallv, allgatherv) the digest of a row also covers the content of
 * the pattern it planned with (experiment_pattern_internal.h), and its
 * bound is the pattern's (sched/bound/pattern_bound.h).
 *
 * Names are bad input until proven otherwise: every algorithm label is
 * looked up in the planner registry and every sync scheme parsed before the
 * first run, so an unknown name is an NS_ERROR_INPUT, never a row.
 *
 * compare.csv columns (documented in docs/scenarios.md):
 *   config, topology, collective, model, label, algorithm, sync,
 *   msize_bytes, contention_free, valid, completion_s, bound_s, ratio,
 *   throughput_mbps, bound_mbps, sync_messages, runs, completion_min_s,
 *   completion_max_s, status
 * (completion_s is the median of the runs). Under an arrival pattern
 * (NsCompareSpec.arrival_columns) four more close the row:
 *   avg_imbalance_factor, max_imbalance_factor, per_node_time_s, span_s
 * (δ̄/T, ω/T, ē and last finish − first arrival: Faraj's dissertation
 * §4.2.1, sim/arrival.h; run 0's under repeated runs). A compare.csv of the earlier
 * 17-column format is upgraded in place on resume (runs 1, min = max =
 * completion).
 */
#ifndef NETSCHED_EXPERIMENT_H
#define NETSCHED_EXPERIMENT_H

#include "analysis/progress_internal.h"
#include "analysis/row_facts_internal.h"
#include "platforms/model/topology.h"
#include "sched/planners/registry.h"
#include <stdio.h>

/* One algorithm to run: ALGORITHM[:SYNC], or an external baseline
 * "smpi:SPEC" (SimGrid's own MPI implementation, sim/smpi_baseline.h). */
typedef struct {
  char *label;      /* canonical "algorithm[:scheme]" (registry and scheme spelling) */
  char *algorithm;  /* the planner's registered name; an external baseline's label */
  char *sync;       /* canonical scheme, or NULL for the algorithm's own */
  gboolean external;/* "smpi:SPEC": measured outside netsched's planners and replay.
                       The row plans the collective's reference schedule
                       (ns_variant_reference_planner) for its bound only; the
                       measurement runs the baseline */
} NsVariant;

/* The spelling of external baselines in algorithm lists. */
#define NS_VARIANT_EXTERNAL_PREFIX "smpi:"

/* Parses "faraj:sender-all,ring,simple" for collective `c`. Every
 * algorithm must be registered for `c` and every scheme must parse;
 * "smpi:SPEC" items are external baselines (SPEC of letters, digits, '_',
 * '-' and '=': the caller checks the name, sim/smpi_baseline.h);
 * duplicates are refused. NS_ERROR_INPUT naming the bad item (and the
 * known algorithms) otherwise. Newly allocated array of NsVariant;
 * ns_variants_free(). O(items · registry). */
GArray *ns_variants_parse(const char *text, NsCollective c, GError **error);
void ns_variants_free(GArray *variants);
/* The planner whose schedule gives an external baseline's row its bound
 * and required bytes: every machine, the collective's simplest schedule
 * (alltoall, allgather, alltoallv, allgatherv "simple", bcast and reduce
 * "flat", allreduce "reduce-bcast"). */
const char *ns_variant_reference_planner(NsCollective c);

/* Message sizes "8KiB..1MiB" (powers of two, at most 64) or "8KiB,64KiB".
 * `option` names the option in messages. Newly allocated array of
 * uint64_t, or NULL with NS_ERROR_INPUT. */
GArray *ns_msizes_parse(const char *option, const char *text, GError **error);

/* What a measurement reports for one row. */
typedef struct {
  double completion_s;    /* the median of the runs */
  double min_s, max_s;    /* the fastest and slowest run (= completion_s for one run) */
  int runs;               /* simulations behind the row (0 counts as 1) */
  double bound_s;
  double throughput_bps;
  uint64_t sync_messages;
  char sync[64];          /* the scheme actually used ("posted" for posted schedules) */
  gboolean valid;         /* the schedule verified (data flow, completeness, sync) */
  /* under an arrival pattern (Faraj's dissertation §4.2.1): δ̄/T, ω/T, the
     average per-node time ē and last finish − first arrival */
  double avg_imbalance, max_imbalance, per_node_s, span_s;
} NsMeasure;

/* Measures schedule `s` (planned for variant `v` with messages of `msize`
 * bytes). `facts`: what the caller already derived from (topo, s), to be
 * reused rather than derived again (NULL: nothing). FALSE with an error
 * makes the row a failed one (status = the message); the experiment goes
 * on. */
typedef gboolean (*NsMeasureFunc)(const NsTopology *topo, const NsSchedule *s,
                                  const NsVariant *v, uint64_t msize, const NsRowFacts *facts,
                                  NsMeasure *out, void *user, GError **error);

/* One row of an experiment as the engine wrote it (run now) or found it
 * (resumed): what a caller aggregating several experiments needs. Strings
 * belong to the engine and live until the sink returns. */
typedef struct {
  const char *label;      /* the variant's label ("faraj:sender-all") */
  const char *algorithm;  /* what the planner called it ("mpich(ring)") */
  const char *sync;       /* the scheme simulated */
  const char *status;     /* "ok" or why the row failed */
  uint64_t msize;
  gboolean ok;            /* measured */
  gboolean contention_free;
  gboolean valid;
  double completion_s, bound_s, mbps, bound_mbps;
  double min_s, max_s;    /* over the runs */
  int runs;
} NsCompareRow;

typedef void (*NsCompareRowSink)(const NsCompareRow *row, void *user);

typedef struct {
  const NsTopology *topo;
  const char *name;         /* the topology's name in rows and titles (NULL: the
                               file's base name) */
  NsCollective collective;
  const GArray *variants;   /* NsVariant */
  const GArray *sizes;      /* uint64_t */
  NsPlanParams params;      /* root, segment, arity (msize and pattern are set per row) */
  const char *pattern;      /* alltoallv, allgatherv: the size pattern axis, required
                               (analysis/experiment_pattern_internal.h); NULL otherwise */
  const char *pattern_option; /* its name in messages (NULL: "--pattern") */
  const char *model;        /* the model's name, for rows and the plot title */
  const char *settings;     /* every other setting that changes a result, as text
                               (e.g. "queue=100;tcp=Cubic"): part of the config digest */
  const char *outdir;       /* created if missing */
  gboolean resume;
  gboolean retry_failed;    /* resume: run the rows whose last attempt failed again */
  NsProgress *progress;     /* told of every row as an item of weight 1, kept rows as
                               skipped; the caller adds the rows to its total (NULL: none) */
  FILE *table;              /* the human-readable table (NULL: none) */
  gboolean need_result;     /* no row with a result is an error, and no plot is written
                               (compare; a design's cell may have none) */
  NsMeasureFunc measure;
  void *measure_data;
  gboolean arrival_columns; /* rows end with the arrival pattern's measures (NsMeasure) */
  NsCompareRowSink sink;    /* called for every row, run or resumed (may be NULL) */
  void *sink_data;
  NsWarnFunc warn;          /* told of a plot not drawn, a last row cut short (NULL: nobody) */
  NsWarnFunc note;          /* told of a compare.csv upgraded to the current format */
  void *warn_data;          /* passed to both */
  int jobs;                 /* ns_compare_experiment: rows at once, in worker processes
                               (<= 1: one at a time, in this process) */
} NsCompareSpec;

/* Runs the experiment into OUTDIR/compare.csv, compare.dat, compare.gp and,
 * when gnuplot is there, compare.svg and compare.png (a missing gnuplot
 * is a warning through spec->warn), holding OUTDIR's lock (analysis/output_dir_internal.h).
 * The sink gets every row in variant × size order, kept or run now, from
 * its compare.csv text. Rows that fail are rows with a status, not
 * errors — unless every row fails and `need_result` is set:
 * NS_ERROR_UNSUPPORTED then, the CSV written, no plot. FALSE with
 * NS_ERROR_INPUT for a resume of another configuration, a malformed CSV to
 * resume or an OUTDIR that is a symbolic link, NS_ERROR_IO when files
 * cannot be written (a plot gnuplot failed to write included) or another
 * run holds OUTDIR.
 * Time: the planners' and measurements' costs, plus O(rows) bookkeeping. */
gboolean ns_compare_experiment(const NsCompareSpec *spec, GError **error);

/* Called before experiment `index` writes its first line. */
typedef void (*NsCompareBanner)(guint index, void *user);

/*
 * ns_compare_experiments — the experiments specs[0..n-1] as if run one
 * after another by ns_compare_experiment (their `jobs` ignored), with
 * their rows computed by `jobs` worker processes (analysis/pool_internal.h;
 * <= 1: in this process) and written in that order anyway: the tables,
 * files and sinks are the same bytes and calls for every `jobs`. Every
 * experiment is opened (locked, its resume read) before the first row;
 * its progress reporter, if any, is the first non-NULL one of the specs.
 * Errors: those of ns_compare_experiment; NS_ERROR_IO when a worker
 * cannot be started or dies (the rows written so far are kept).
 */
gboolean ns_compare_experiments(const NsCompareSpec *const *specs, guint n, int jobs,
                                NsCompareBanner banner, void *banner_data, GError **error);

#endif
