/* netsched — the sweep engine's internal structures, shared by
 * sweep_config.c (specifications, the grid), sweep_metrics.c (rows),
 * sweep_report.c (aggregates, CSV, plots) and sweep.c (runs, merges). */
#ifndef NETSCHED_SWEEP_PRIVATE_H
#define NETSCHED_SWEEP_PRIVATE_H

#include "analysis/sweep_internal.h"
#include "sched/ir/schedule.h"

/* Version of the row schema: part of every key, so rows of an older
 * netsched are refused rather than mixed. */
#define NS_SWEEP_ROW_VERSION 2

/* NS_SWEEP_FILES: the one generator of a sweep over topology files
 * ([sweep] files), not a [generator] model. */
typedef enum { NS_SWEEP_WAXMAN, NS_SWEEP_TRANSIT_STUB, NS_SWEEP_KRUSKAL_TREE,
               NS_SWEEP_SPEC, NS_SWEEP_FILES } NsSweepModel;

const char *ns_sweep_model_name(NsSweepModel model);

/* Metric groups ([sweep] metrics). */
enum {
  NS_METRICS_PATHS = 1 << 0,
  NS_METRICS_ALLTOALL = 1 << 1,
  NS_METRICS_ALLGATHER = 1 << 2,
  NS_METRICS_BCAST = 1 << 3,
  NS_METRICS_ALL = 0xf,
};

/* The numeric metrics of a row, in row and CSV order. */
typedef enum {
  M_MACHINES, M_SWITCHES, M_LINKS, M_GRAPH_LINKS, M_GRAPH_DEGREE, M_PATCH_LINKS,
  M_PATH_MIN, M_PATH_MEAN, M_PATH_MAX,
  M_A2A_LOAD, M_A2A_BOTTLENECKS, M_A2A_TIME, M_A2A_THROUGHPUT,
  M_A2A_CUT_LOAD, M_A2A_CUT_TIME, M_ROUTED_MAX, M_ROUTED_MEAN, M_ROUTED_P50, M_ROUTED_P90,
  M_ROUTED_P99,
  M_TWO_HOP, M_LR1_MAX, M_LR1_MEAN, M_LR2_MAX, M_LR2_MEAN, M_LR3_MAX, M_LR3_MEAN,
  M_ALG4_HEIGHT, M_ALG5_HEIGHT, M_ALG5_DEGREE, M_CBT_HEIGHT, M_ALG5_OVER_CBT,
  N_METRICS
} NsSweepMetric;

typedef struct {
  const char *name;
  gboolean integer;   /* printed without decimals */
  guint group;        /* NS_METRICS_* that computes it (0: always) */
} NsSweepMetricInfo;

extern const NsSweepMetricInfo ns_sweep_metrics[N_METRICS];

typedef struct {
  char *name;
  GPtrArray *values;  /* char*, the texts as given */
  char *where;        /* "FILE:LINE" or the option */
} NsSweepParam;

typedef struct {
  char *name;          /* [generator NAME] */
  NsSweepModel model;
  GPtrArray *params;   /* NsSweepParam*, in the order given */
  GPtrArray *trees;    /* char*: tree method names */
  char *where;
} NsSweepGen;

typedef struct {
  guint gen;
  char **names, **values;   /* the point's parameter values, NULL-terminated */
  char *tree;               /* "none", "bfs", ... */
  char *template;           /* generator spec without "gen:", "{seed}" for the seed */
  char *label;              /* "NAME k=v ... tree=T" */
} NsSweepPoint;

typedef struct {
  char *label;              /* "alltoall/faraj:sender-all" */
  NsCollective collective;
  NsVariant variant;
} NsSweepMeasureItem;

struct NsSweep {
  char *source;
  char *description, *output;
  GPtrArray *gens;          /* NsSweepGen* */
  GArray *seeds;            /* guint64 */
  guint metrics;            /* NS_METRICS_* */
  uint64_t msize;
  GArray *measures;         /* NsSweepMeasureItem */
  char *pattern;            /* alltoallv/allgatherv measures: the size pattern
                               (experiment_pattern_internal.h; a file resolved), NULL: none */
  char *pattern_digest;     /* a pattern file's content (part of the row keys), else NULL */
  char *model;
  GPtrArray *plots;         /* char*: "metric+metric" */
  char *x;                  /* given, or the parameter the grid varies (default_x) */
  /* a sweep over files ([sweep] files): one task per file and tree method,
   * the file's position (1-based) standing for the seed */
  GPtrArray *files;         /* char*: as rows name them, relative to the spec's directory */
  GPtrArray *file_paths;    /* char*: as opened */
  GPtrArray *file_digests;  /* char*: digests of their bytes (part of the row keys) */
  char *format;             /* [sweep] format: as -f takes it (NULL: guessed) */
  NsWarnFunc warn;          /* the readers' warnings on the files (NULL: dropped) */
  void *warn_data;
  /* the grid */
  GPtrArray *points;        /* NsSweepPoint* */
  guint n_tasks;            /* at most NS_SWEEP_MAX_TASKS */
  char *digest;
  /* measurement (the CLI's) */
  NsMeasureFunc measure;
  void *measure_data;
  char *measure_settings;
};

/* Builds the grid (points, task keys, digest) after parsing or after the
 * measurement settings change. */
void ns_sweep_compile(NsSweep *sw);

const NsSweepPoint *ns_sweep_task_point(const NsSweep *sw, guint task);
guint64 ns_sweep_task_seed(const NsSweep *sw, guint task);
/* The generator specification of a task ("waxman:7,200,4:..."), newly
 * allocated. */
char *ns_sweep_task_spec(const NsSweep *sw, guint task);
/* The file of a task of a sweep over files, as rows name it (NULL for a
 * generated topology), and as it is opened. */
const char *ns_sweep_task_file(const NsSweep *sw, guint task);
const char *ns_sweep_task_file_path(const NsSweep *sw, guint task);

/* A JSON string literal of `s` (quotes, escapes) appended to `out`. */
void ns_json_append_string(GString *out, const char *s);
/* A number as rows print it: integers plainly, reals with 10 significant
 * digits, NaN as null. */
void ns_json_append_number(GString *out, double v, gboolean integer);

/* Names of every aggregated metric of this sweep: the row metrics its
 * groups compute, then "<label>.completion_s" and "<label>.ratio" per
 * measurement. Newly allocated GPtrArray of newly allocated strings. */
GPtrArray *ns_sweep_metric_names(const NsSweep *sw);

/* Finishing (sweep_report.c): `rows[t]` is the JSON line of task t
 * (without '\n'), all present. Writes OUTDIR/rows.jsonl (header + rows in
 * task order), rows.csv, aggregate.json, aggregate.csv and the plots. */
gboolean ns_sweep_finish(const NsSweep *sw, const char *outdir, char **rows, FILE *report,
                         NsWarnFunc warn, void *warn_data, GError **error);

/* The header line of a rows file of shard I/N (with '\n'). */
char *ns_sweep_header(const NsSweep *sw, int shard, int n_shards);

#endif
