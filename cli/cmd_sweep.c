/* netsched sweep — batch sweeps over random topologies (docs/sweeps.md).
 *
 *   netsched sweep SPEC.ini [-o DIR] [-j N] [--shard I/N] [--restart]
 *   netsched sweep -g 'waxman:machines=100,200:ratio=5' --seeds 1..50 --trees bfs,dfs -o DIR
 *   netsched sweep merge SPEC.ini|GRID [-o DIR] [SHARD_FILE...]
 *
 * The engine is analysis/sweep.c; this file parses options, picks the
 * shard (also from a Slurm job array), and hands the engine a measurement
 * that simulates schedules with SimGrid. */
#include "analysis/sweep_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#ifndef NETSCHED_SWEEP_NO_SIM
#include "cli/cli_sim.h"
#endif
#include <string.h>

const struct NsSweepExecutor *(*ns_cli_sweep_distributor)(struct NsSweep *sw, gboolean *served,
                                                          GError **error) = NULL;

#ifndef NETSCHED_SWEEP_NO_SIM
/* Installs the simulator as the sweep's measurement. */
static gboolean install_measure(NsSweep *sw, NsSimOptions *opt, GError **error)
{
  if (!ns_net_model_parse(ns_sweep_model(sw), &opt->model, error))
    return FALSE;
  g_autofree char *settings = ns_sim_options_describe(opt);
  ns_sweep_set_measure(sw, ns_cli_measure_by_simulation, opt, settings);
  return TRUE;
}
#else
/* netsched-mpi links no simulator: SimGrid's library defines the MPI
 * functions itself (SMPI), which would shadow the real MPI's. */
typedef struct {
  int unused;
} NsSimOptions;
#define ns_sim_options_init(opt) ((void)(opt))
#define ns_sim_options_clear(opt) ((void)(opt))
static gboolean install_measure(NsSweep *sw, NsSimOptions *opt, GError **error)
{
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "netsched-mpi computes metrics only: it cannot link the simulator (SimGrid's "
                  "library defines MPI's functions itself); measure with netsched sweep "
                  "--shard I/N (or a Slurm job array) instead");
  return FALSE;
}
#endif

/* The files of a sweep over files are read as -T FILE reads them (any
 * format -T accepts, -f's spellings in the spec's `format`). */
static NsTopology *load_sweep_file(const char *path, const char *format, void *data,
                                   GError **error)
{
  (void)data;
  return ns_cli_load_topology(path, format, NULL, error);
}

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
  char **generators;
  int jobs;
  NsCliProgressArgs progress;
  NsCliOutdirArgs outdir;     /* --resume, --overwrite (--restart: deprecated) */
} Args;

static void args_clear(Args *a)
{
  char **strings[] = { &a->output, &a->shard, &a->description, &a->seeds, &a->trees,
                       &a->metrics, &a->msize, &a->measure, &a->model, &a->plots, &a->x,
                       &a->files, &a->format };
  for (gsize i = 0; i < G_N_ELEMENTS(strings); i++)
    g_free(*strings[i]);
  g_strfreev(a->generators);
  ns_cli_progress_args_clear(&a->progress);
}

/* The sweep of SPEC.ini, or of the grid options. */
static NsSweep *load(const Args *a, const char *spec, GError **error)
{
  const char *names[] = { "seeds", "trees", "metrics", "msize", "measure", "model", "plots", "x",
                          "description", "files", "format" };
  const char *values[] = { a->seeds, a->trees, a->metrics, a->msize, a->measure, a->model,
                           a->plots, a->x, a->description, a->files, a->format };
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

static int run(const Args *a, gboolean merge, int argc, char **argv)
{
  GError *error = NULL;
  /* merge: SPEC.ini (by its suffix) then shard files; a run: one SPEC */
  const char *spec = argc > 1 && (!merge || g_str_has_suffix(argv[1], ".ini")) ? argv[1] : NULL;
  int first_file = spec != NULL ? 2 : 1;
  if (!merge && argc > first_file)
    return ns_cli_usage("sweep", "unexpected argument '%s'", argv[first_file]);
  if (merge && ns_cli_sweep_distributor != NULL) {
    fprintf(stderr, "netsched: sweep merge runs without mpirun: netsched sweep merge ...\n");
    return 2;
  }
  g_autoptr(NsSweep) sw = load(a, spec, &error);
  if (sw == NULL)
    return ns_cli_fail(error);
  ns_sweep_set_loader(sw, load_sweep_file, NULL);
  const char *outdir = a->output != NULL ? a->output : ns_sweep_output(sw);
  if (outdir == NULL)
    return ns_cli_usage("sweep", "no output directory: -o DIR, or output = DIR in [sweep]");
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  int status = 2;
  NsSweepRunOptions ro = { .outdir = outdir, .jobs = a->jobs, .report = stdout,
                          .warn = ns_cli_print_warning };
  g_autofree char *own = NULL; /* this run's result file */
  if (ns_sweep_n_measures(sw) > 0 && !install_measure(sw, &opt, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (merge) {
    status = ns_sweep_merge(sw, outdir, (const char *const *)argv + first_file, stdout,
                            ns_cli_print_warning, NULL, &error)
                 ? 0 : ns_cli_fail(error);
    goto out;
  }
  if (ro.jobs <= 0)
    ro.jobs = (int)g_get_num_processors();
  if (a->shard != NULL ? !parse_shard(a->shard, &ro.shard, &ro.n_shards, &error)
                       : !slurm_shard(&ro.shard, &ro.n_shards, &error) && error != NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (!ns_cli_progress_new(&a->progress, "sweep", "rows", &ro.progress, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (ns_cli_sweep_distributor != NULL) {
    gboolean served = FALSE;
    ro.executor = ns_cli_sweep_distributor(sw, &served, &error);
    if (served) {
      status = 0;
      goto out;
    }
    if (ro.executor == NULL) {
      status = ns_cli_fail(error);
      goto out;
    }
  }
  /* Only this run's own file counts: the shards of a job array share the
   * directory (checked after the MPI ranks split: rank 0 alone writes). */
  own = ro.n_shards > 1 ? g_strdup_printf("shard-%d-of-%d.jsonl", ro.shard, ro.n_shards)
                        : g_strdup("rows.jsonl");
  const char *const results[] = { own, NULL };
  gboolean resume = FALSE;
  if (!ns_cli_outdir(&a->outdir, outdir, results, &resume, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  ro.restart = !resume;
  status = ns_sweep_run(sw, &ro, &error) ? 0 : ns_cli_fail(error);
out:
  fflush(stdout);
  ns_sim_options_clear(&opt);
  ns_progress_free(ro.progress);
  return status;
}

int ns_cmd_sweep(int argc, char **argv)
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
  ns_cli_add_outdir_options(ctx, &a.outdir, TRUE);
  ns_cli_add_progress_options(ctx, &a.progress);
  int status = 2;
  if (ns_cli_parse(ctx, &argc, &argv))
    status = run(&a, merge, argc, argv);
  args_clear(&a);
  return status;
}
