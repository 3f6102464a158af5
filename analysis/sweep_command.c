/* netsched — `sweep` from its command line to its files (sweep_command.h).
 * The engine is sweep.c; this parses the options, picks the shard (also
 * from a Slurm job array) and runs the engine with the caller's executor
 * and measurement. */
#include "analysis/sweep_command_internal.h"
#include "analysis/run_options_internal.h"
#include "platforms/model/error.h"
#include <stdlib.h>
#include <string.h>

/* "I/N" with 0 <= I < N. */
static gboolean parse_shard(const char *text, int *shard, int *n, GError **error)
{
  char tail = 0;
  if (sscanf(text, "%d/%d%c", shard, n, &tail) != 2 || *n < 1 || *shard < 0 || *shard >= *n ||
      *n > 1000000) {
    g_autofree char *shown = g_strescape(text, NULL);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--shard '%s': expected I/N with 0 <= I < N",
                    shown);
    return FALSE;
  }
  return TRUE;
}

static gboolean env_int(const char *name, long *out, GError **error)
{
  const char *v = g_getenv(name);
  char *end = NULL;
  if (v == NULL)
    return FALSE;
  long x = strtol(v, &end, 10);
  if (end == v || *end != '\0' || x < 0 || x > 100000000) {
    g_autofree char *shown = g_strescape(v, NULL);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s='%s' is not a task number", name, shown);
    return FALSE;
  }
  *out = x;
  return TRUE;
}

/* A Slurm job array: shard (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) /
 * SLURM_ARRAY_TASK_STEP of SLURM_ARRAY_TASK_COUNT. FALSE with no error
 * outside an array. */
static gboolean slurm_shard(int *shard, int *n, GError **error)
{
  long id = 0, count = 0, min = 0, step = 1;
  if (!env_int("SLURM_ARRAY_TASK_ID", &id, error))
    return FALSE;
  if (!env_int("SLURM_ARRAY_TASK_COUNT", &count, error)) {
    if (error != NULL && *error == NULL)
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT");
    return FALSE;
  }
  if ((g_getenv("SLURM_ARRAY_TASK_MIN") && !env_int("SLURM_ARRAY_TASK_MIN", &min, error)) ||
      (g_getenv("SLURM_ARRAY_TASK_STEP") && !env_int("SLURM_ARRAY_TASK_STEP", &step, error)))
    return FALSE;
  if (step < 1 || id < min || (id - min) % step != 0 || (id - min) / step >= count) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "Slurm array task %ld is not one of %ld tasks from %ld by %ld", id, count,
                    min, step);
    return FALSE;
  }
  *shard = (int)((id - min) / step);
  *n = (int)count;
  return TRUE;
}

typedef struct {
  char *output, *shard, *description;
  char *seeds, *trees, *metrics, *msize, *measure, *model, *plots, *x, *files, *format;
  char *pattern;
  char **generators;
  int jobs;
  NsProgressArgs progress;
  NsOutdirArgs outdir;     /* --resume, --overwrite (--restart: deprecated) */
} Args;

static void args_clear(Args *a)
{
  char **strings[] = { &a->output, &a->shard, &a->description, &a->seeds, &a->trees,
                       &a->metrics, &a->msize, &a->measure, &a->model, &a->plots, &a->x,
                       &a->files, &a->format, &a->pattern };
  for (gsize i = 0; i < G_N_ELEMENTS(strings); i++)
    g_free(*strings[i]);
  g_strfreev(a->generators);
  ns_progress_args_clear(&a->progress);
}

/* The sweep of SPEC.ini, or of the grid options. */
static NsSweep *load(const Args *a, const char *spec, GError **error)
{
  const char *names[] = { "seeds", "trees", "metrics", "msize", "measure", "model", "plots", "x",
                          "description", "files", "format", "pattern" };
  const char *values[] = { a->seeds, a->trees, a->metrics, a->msize, a->measure, a->model,
                           a->plots, a->x, a->description, a->files, a->format, a->pattern };
  GPtrArray *settings = g_ptr_array_new_with_free_func(g_free);
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
    if (values[i] != NULL)
      g_ptr_array_add(settings, g_strdup_printf("%s=%s", names[i], values[i]));
  g_ptr_array_add(settings, NULL);
  NsSweep *sw = NULL;
  if (spec != NULL && (settings->len > 1 || a->generators != NULL))
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "give a specification file or a grid on the command line (--generator, "
                    "--seeds, ...), not both");
  else if (spec != NULL)
    sw = ns_sweep_load(spec, error);
  else if (a->generators == NULL && a->files == NULL)
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "nothing to sweep: give SPEC.ini, --generator MODEL:KEY=VALUES or --files "
                    "PATTERN");
  else
    sw = ns_sweep_new((const char *const *)settings->pdata, (const char *const *)a->generators,
                      error);
  g_ptr_array_unref(settings);
  return sw;
}

static gboolean install_measure(NsSweep *sw, const NsSweepCommandHooks *h, GError **error)
{
  if (ns_sweep_n_measures(sw) == 0)
    return TRUE;
  if (h->install_measure != NULL)
    return h->install_measure(sw, h->measure_data, error);
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "this program computes metrics only: it cannot measure (measure = ...)");
  return FALSE;
}

static gboolean usage(NsSweepFailure *failure, GError **error, const char *fmt, const char *arg)
{
  *failure = NS_SWEEP_USAGE;
  g_set_error(error, NS_ERROR, NS_ERROR_INPUT, fmt, arg);
  return FALSE;
}

/* The shard of --shard or of a Slurm job array (else 0/1). */
static gboolean shard_of(const Args *a, NsSweepRunOptions *ro, GError **error)
{
  if (a->shard != NULL)
    return parse_shard(a->shard, &ro->shard, &ro->n_shards, error);
  return slurm_shard(&ro->shard, &ro->n_shards, error) || error == NULL || *error == NULL;
}

/* The run in this process, into its own result file: the shards of a job
 * array share the directory (checked after the executor's processes
 * split: one writes). */
static gboolean run_here(const NsSweep *sw, const Args *a, NsSweepRunOptions *ro,
                         const NsSweepCommandHooks *h, GError **error)
{
  g_autofree char *own = ro->n_shards > 1
                             ? g_strdup_printf("shard-%d-of-%d.jsonl", ro->shard, ro->n_shards)
                             : g_strdup("rows.jsonl");
  const char *const results[] = { own, NULL };
  gboolean resume = FALSE;
  if (a->outdir.restart && h->note != NULL)
    h->note("--restart is deprecated: it is --overwrite now", h->warn_data);
  if (!ns_outdir_args_apply(&a->outdir, ro->outdir, results, &resume, error))
    return FALSE;
  ro->restart = !resume;
  return ns_sweep_run(sw, ro, error);
}

/* A run (or this process's part in another's: the executor serves), or a
 * merge of shards. FALSE with the error. */
static gboolean run(const Args *a, gboolean merge, int argc, char **argv,
                    const NsSweepCommandHooks *h, NsSweepFailure *failure, GError **error)
{
  /* merge: SPEC.ini (by its suffix) then shard files; a run: one SPEC */
  const char *spec = argc > 1 && (!merge || g_str_has_suffix(argv[1], ".ini")) ? argv[1] : NULL;
  int first_file = spec != NULL ? 2 : 1;
  if (!merge && argc > first_file)
    return usage(failure, error, "unexpected argument '%s'", argv[first_file]);
  g_autoptr(NsSweep) sw = load(a, spec, error);
  if (sw == NULL)
    return FALSE;
  ns_sweep_set_warn(sw, h->warn, h->warn_data);
  const char *outdir = a->output != NULL ? a->output : ns_sweep_output(sw);
  if (outdir == NULL)
    return usage(failure, error, "%s", "no output directory: -o DIR, or output = DIR in [sweep]");
  if (!install_measure(sw, h, error))
    return FALSE;
  if (merge)
    return ns_sweep_merge(sw, outdir, (const char *const *)argv + first_file, h->report,
                          h->warn, h->warn_data, error);
  NsSweepRunOptions ro = { .outdir = outdir, .jobs = a->jobs, .report = h->report,
                           .warn = h->warn, .warn_data = h->warn_data,
                           .executor = h->executor };
  if (ro.jobs <= 0)
    ro.jobs = (int)g_get_num_processors();
  if (!shard_of(a, &ro, error) ||
      !ns_progress_args_reporter(&a->progress, h->progress, "sweep", "rows", &ro.progress, error))
    return FALSE;
  gboolean ok = h->executor != NULL && h->executor->serves != NULL &&
                h->executor->serves(sw, h->executor->self);
  if (!ok)
    ok = run_here(sw, a, &ro, h, error);
  ns_progress_free(ro.progress);
  return ok;
}

int ns_sweep_command(int argc, char **argv, const NsSweepCommandHooks *hooks,
                     NsSweepFailure *failure, GError **error)
{
  Args a = { .jobs = 0 };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
      "Output directory (default: the spec's output)", "DIR" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "Worker processes (default: the cores)", "N" },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &a.shard,
      "Compute shard I of N (tasks t with t mod N = I); default from SLURM_ARRAY_TASK_ID and "
      "SLURM_ARRAY_TASK_COUNT", "I/N" },
    { "generator", 'g', 0, G_OPTION_ARG_STRING_ARRAY, &a.generators,
      "A generator and its grid, MODEL[:KEY=V1,V2...]... (repeatable)", "SPEC" },
    { "seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds, "Seeds: A..B and lists", "SEEDS" },
    { "trees", 0, 0, G_OPTION_ARG_STRING, &a.trees,
      "Spanning trees of graph generators: none, bfs, dfs, kruskal, uniform", "LIST" },
    { "metrics", 0, 0, G_OPTION_ARG_STRING, &a.metrics,
      "Metric groups: all, paths, alltoall, allgather, bcast", "LIST" },
    { "msize", 'm', 0, G_OPTION_ARG_STRING, &a.msize, "Message size of the bounds (64KiB)",
      "SIZE" },
    { "measure", 0, 0, G_OPTION_ARG_STRING, &a.measure,
      "Simulate these schedules on every topology: COLLECTIVE/ALGORITHM[:SYNC],...", "LIST" },
    { "model", 'M', 0, G_OPTION_ARG_STRING, &a.model, "Simulation model of --measure (ideal)",
      "MODEL" },
    { "plots", 0, 0, G_OPTION_ARG_STRING, &a.plots,
      "Plots: METRIC[+METRIC...],... against --x", "LIST" },
    { "x", 0, 0, G_OPTION_ARG_STRING, &a.x,
      "The plots' x axis (default: machines when it varies, else the parameter the grid "
      "varies)", "NAME" },
    { "description", 0, 0, G_OPTION_ARG_STRING, &a.description, "Title of the plots", "TEXT" },
    { "files", 0, 0, G_OPTION_ARG_STRING, &a.files,
      "Sweep topology files instead of generators: files and DIR/PATTERN (* and ?, quoted "
      "from the shell), one task per file", "LIST" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a.format,
      "Format of --files (default: guessed from each file, as -T)", "native|slurm|graphml" },
    { "pattern", 0, 0, G_OPTION_ARG_FILENAME, &a.pattern,
      "alltoallv, allgatherv measures: the size pattern, scaled to --msize on each topology "
      "(uniform, random:SKEW,SEED, nas-is:SEED), or a file or whole generator spec "
      "(docs/pattern-format.md, \"Patterns in experiments\")", "SPEC|FILE" },
    { NULL },
  };
  gboolean merge = argc > 1 && strcmp(argv[1], "merge") == 0;
  if (merge) {
    argc--;
    argv++;
  }
  g_autoptr(GOptionContext) ctx = g_option_context_new(
      merge ? "merge [SPEC.ini] [SHARD_FILE...] - join the shards of a sweep"
            : "[SPEC.ini] - sweep random topologies: rows, statistics, plots");
  g_option_context_set_summary(
      ctx, "Generates random topologies (GT-ITM Waxman and transit-stub graphs with their\n"
           "spanning trees, random Kruskal switch trees, any gen: spec) over a grid of\n"
           "parameters x seeds, and writes one row of metrics per topology (JSON Lines and\n"
           "CSV): path lengths, the all-to-all bottleneck and bound, LR1/LR2/LR3 rings,\n"
           "Algorithm 4/5 tree heights, optionally simulated completion times; then\n"
           "mean, sd, 95% confidence interval and percentiles per grid point, and plots.\n"
           "Rows are written as they complete: an interrupted sweep resumes with --resume.");
  g_option_context_set_description(
      ctx, "Examples:\n"
           "  netsched sweep scenarios/sweeps/fig3-25.ini\n"
           "  netsched sweep -g 'waxman:machines=100,200:ratio=5' --seeds 1..50 \\\n"
           "      --trees bfs,dfs,kruskal --plots lr1_max_path -o out/\n"
           "  netsched sweep --files 'zoo/*.graphml' --plots path_mean -o zoo-out/\n"
           "  netsched sweep SPEC.ini --shard 2/4      (and: netsched sweep merge SPEC.ini)\n"
           "  mpirun -np 8 netsched-mpi sweep SPEC.ini\n"
           "The specification format and the row schema are in docs/sweeps.md.\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  ns_outdir_args_add(ctx, &a.outdir, TRUE);
  ns_progress_args_add(ctx, &a.progress);
  *failure = NS_SWEEP_FAILED;
  gboolean ok = FALSE;
  if (!g_option_context_parse(ctx, &argc, &argv, error))
    *failure = NS_SWEEP_BAD_OPTION;
  else
    ok = run(&a, merge, argc, argv, hooks, failure, error);
  if (hooks->report != NULL)
    fflush(hooks->report);
  args_clear(&a);
  return ok ? 0 : ns_error_exit_status(error != NULL ? *error : NULL);
}
