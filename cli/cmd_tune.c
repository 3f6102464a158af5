/* netsched tune — STAGE-MPI's tuning by simulation (Faraj's dissertation
 * §4.1): every candidate algorithm of a collective measured across message
 * sizes by the replay (or the generated routine under smpirun), the
 * decision table, a plot and the tuned routine. The engine is
 * analysis/tune.c; this file parses options and hands it the replay's
 * measurement or sim/smpi_routine.h's. docs/tune.md. */
#include "analysis/tune_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include "sim/sim.h"
#include "sched/lower/mpi_rules.h"
#include "sim/smpi_routine.h"
#include <string.h>

/* Progress on stderr: the engine's messages start with "tune: ". */
static void print_progress(const char *message, void *data)
{
  (void)data;
  fprintf(stderr, "%s\n", message);
}

/* Sizes must increase: the search works between neighbours. */
static gboolean sizes_increase(const GArray *sizes, GError **error)
{
  for (guint k = 1; k < sizes->len; k++)
    if (g_array_index(sizes, uint64_t, k) <= g_array_index(sizes, uint64_t, k - 1)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "--sizes: the sizes must increase (%" G_GUINT64_FORMAT
                      " B comes after %" G_GUINT64_FORMAT " B)",
                      g_array_index(sizes, uint64_t, k), g_array_index(sizes, uint64_t, k - 1));
      return FALSE;
    }
  return TRUE;
}

/* "mpptest", "mpptest+barrier", "mpptest+computation[=SECONDS]". */
static gboolean parse_timing(const char *text, NsIterationGap *gap, double *compute_s)
{
  *compute_s = 0;
  if (strcmp(text, "mpptest") == 0) {
    *gap = NS_ITERATION_NOTHING;
    return TRUE;
  }
  if (strcmp(text, "mpptest+barrier") == 0) {
    *gap = NS_ITERATION_BARRIER;
    return TRUE;
  }
  const char *v = g_str_has_prefix(text, "mpptest+computation") ? text + 19 : NULL;
  if (v == NULL || (*v != '\0' && *v != '='))
    return FALSE;
  *gap = NS_ITERATION_COMPUTE;
  *compute_s = 0.001;
  if (*v == '\0')
    return TRUE;
  char *end = NULL;
  *compute_s = g_ascii_strtod(v + 1, &end);
  return end != v + 1 && *end == '\0' && *compute_s > 0 && *compute_s <= 1000;
}

int ns_cmd_tune(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *collective_name = NULL, *algorithms = NULL;
  char *sizes_text = NULL, *model = NULL, *root_name = NULL, *outdir_arg = NULL;
  char *measure = NULL, *timing = NULL, *library_name = NULL, *library_candidates = NULL;
  char *pattern = NULL;
  char *reduce_rate = NULL;
  char **cfg = NULL;
  NsMpiLibrary library = NS_MPI_OMPI;
  int runs = 0, iterations = 1;
  double wall_limit = 0;
  NsOutdirArgs outdir_args = { 0 };
  g_autofree char *cmd = ns_cli_command_line(argc, argv);
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_STRING, &topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &collective_name,
      "Collective (default alltoall)", ns_cli_collective_choices() },
    { "algorithm", 'a', 0, G_OPTION_ARG_STRING, &algorithms,
      "Candidates, comma-separated (default: every algorithm of the collective but the MPI "
      "libraries' selectors mpich, ompi, ompi-legacy)", "LIST" },
    { "for", 0, 0, G_OPTION_ARG_STRING, &library_name,
      "Tune among one MPI library's own algorithms (Open MPI 4.1's coll/tuned, MPICH 4.0's) "
      "and write its settings file too: ompi-rules.conf or mpich-csel.json", "ompi|mpich" },
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &pattern,
      "alltoallv, allgatherv: the size pattern, a generator scaled to each message size measured "
      "(uniform, random:SKEW,SEED, nas-is:SEED; docs/pattern-format.md)", "SPEC" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_text,
      "Fixed message sizes, increasing: a list or A..B (default the dissertation's 1 B, 64 B, "
      "512 B, 1 KiB ... 256 KiB)", "SIZES" },
    { "model", 'M', 0, G_OPTION_ARG_STRING, &model, "Network model of the replay (default ideal)",
      "ideal|tcp|smpi|packet" },
    { "measure", 0, 0, G_OPTION_ARG_STRING, &measure,
      "How candidates are measured: replay (netsched's replay, the default) or smpirun (the "
      "generated routine run under smpirun on SMPI's network model; needs smpicc)",
      "replay|smpirun" },
    { "timing", 0, 0, G_OPTION_ARG_STRING, &timing,
      "Timing mechanism (Figure 4.3): back-to-back invocations, a barrier before each, or a "
      "computation of SECONDS (default 0.001) before each (default mpptest)",
      "mpptest|mpptest+barrier|mpptest+computation[=SECONDS]" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations,
      "Invocations per measurement, 1 to 1000; the time is per invocation (default 1)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "packet: simulations per measurement (median)",
      "N" },
    { "wall-limit", 0, 0, G_OPTION_ARG_DOUBLE, &wall_limit,
      "Stop any one simulation after this many wall seconds; the tuning then stops with the "
      "error (resume with a larger limit, or leave the candidate out with -a)", "S" },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &root_name, "bcast root (default the first machine)",
      "MACHINE" },
    { "reduce-rate", 0, 0, G_OPTION_ARG_STRING, &reduce_rate, NS_CLI_REDUCE_RATE_HELP, "RATE|0" },
    { "cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cfg, NS_CLI_SMPIRUN_CFG_HELP, "NAME:VALUE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir_arg,
      "Directory for the outputs (default tune-out); one holding a measurements.csv needs "
      "--resume or --overwrite", "DIR" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- tune a collective by simulation");
  g_option_context_add_main_entries(ctx, entries, NULL);
  ns_outdir_args_add(ctx, &outdir_args, FALSE);
  g_option_context_set_summary(
      ctx,
      "STAGE-MPI (Faraj's dissertation §4.1): measures every candidate algorithm of a\n"
      "collective at fixed message sizes by the replay (or, with --measure smpirun, its\n"
      "generated routine under smpirun), tunes the parameters of those\n"
      "that have one (barrier counts of ring/pair-n-barrier, segment sizes of the\n"
      "pipelined broadcasts) by a linear search, chooses the best per size and finds\n"
      "the sizes where the best changes by a binary search. Writes the decision table\n"
      "(decision.json, decision.csv), every measurement (measurements.csv, resumable),\n"
      "a plot (tune.svg, tune.png) and the tuned routine: a table per chosen\n"
      "algorithm, netsched-mpi.conf for libnetsched-mpi, tuned_COLL.c defining\n"
      "netsched_tuned_COLL(), and a README with the commands.");
  g_option_context_set_description(
      ctx, "Sizes are netsched's msize: bytes per destination (alltoall), per rank\n"
           "(allgather), the whole message (bcast). Progress on stderr.\n"
           "Example:\n"
           "  netsched tune -T scenarios/topologies/faraj-a.topo -c alltoall -M smpi -o a2a\n"
           "  mpicc -O2 -c a2a/tuned_alltoall.c   # netsched_tuned_alltoall(send, recv, n, comm)\n");
  int status = 2;
  GError *error = NULL;
  GArray *sizes = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autofree char *settings = NULL, *timing_name = NULL, *sim_settings = NULL;
  NsSimOptions opt;
  gboolean resume = FALSE;
  NsCollective collective = NS_COLL_ALLTOALL;
  NsTuneResult *result = NULL;
  static const char *const results[] = { "measurements.csv", NULL };
  gboolean have_opt = FALSE, opt_set = FALSE, have_runner = FALSE;
  NsSmpiRoutineRunner runner;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  /* the routine under smpirun runs on SMPI's network model */
  gboolean smpirun_asked = measure != NULL && strcmp(measure, "smpirun") == 0;
  if (smpirun_asked && model != NULL && strcmp(model, "smpi") != 0) {
    status = ns_cli_usage("tune", "--measure smpirun runs on SMPI's network model: -M smpi "
                                  "(the default with it), not '%s'", model);
    goto out;
  }
  NsCliSimSettings sim_in = { .model = smpirun_asked ? "smpi" : model,
                              .wall_limit = wall_limit, .runs = runs,
                              .reduce_rate = reduce_rate, .cfg = cfg };
  have_opt = ns_cli_sim_options(&opt, &sim_in, &error);
  opt_set = TRUE;
  const char *outdir = outdir_arg ? outdir_arg : "tune-out";
  if (argc != 1) {
    status = ns_cli_usage("tune", "unexpected argument '%s'", argv[1]);
    goto out;
  }
  if (measure != NULL && !smpirun_asked && strcmp(measure, "replay") != 0) {
    status = ns_cli_usage("tune", "--measure takes replay or smpirun, not '%s'", measure);
    goto out;
  }
  /* checked before anything runs: a missing tool is not a candidate's fault */
  static const char *const smpi_tools[] = { "smpicc", "smpirun" };
  for (gsize i = 0; smpirun_asked && i < G_N_ELEMENTS(smpi_tools); i++) {
    g_autofree char *found = g_find_program_in_path(smpi_tools[i]);
    if (found == NULL) {
      status = ns_cli_usage("tune", "--measure smpirun needs %s in PATH (Debian's "
                                    "libsimgrid-dev)", smpi_tools[i]);
      goto out;
    }
  }
  if (iterations < 1 || iterations > 1000) {
    status = ns_cli_usage("tune", "--iterations takes 1 to 1000, not %d", iterations);
    goto out;
  }
  NsIterationGap gap = NS_ITERATION_NOTHING;
  double compute_s = 0;
  if (timing != NULL && !parse_timing(timing, &gap, &compute_s)) {
    status = ns_cli_usage("tune", "--timing takes mpptest, mpptest+barrier or "
                                  "mpptest+computation[=SECONDS] (0 < SECONDS <= 1000), not '%s'",
                          timing);
    goto out;
  }
  if (collective_name != NULL && !ns_collective_from_name(collective_name, &collective)) {
    g_autofree char *known = ns_collective_names(", ");
    status = ns_cli_usage("tune", "unknown collective '%s' (%s)", collective_name, known);
    goto out;
  }
  if (!have_opt ||
      (sizes = ns_msizes_parse("--sizes", sizes_text ? sizes_text : NS_TUNE_DEFAULT_SIZES,
                               &error)) == NULL ||
      !sizes_increase(sizes, &error) ||
      (t = ns_cli_load_topology(topology, format, NULL, &error)) == NULL ||
      !ns_sim_size_check(t, &error) ||
      !ns_outdir_args_apply(&outdir_args, outdir, results, &resume, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (library_name != NULL) {
    if (!ns_cli_library_parse(library_name, &library)) {
      status = ns_cli_usage("tune", "--for takes ompi or mpich, not '%s'", library_name);
      goto out;
    }
    if (algorithms != NULL) {
      status = ns_cli_usage("tune", "--for chooses the candidates: give -a or --for, not both");
      goto out;
    }
    library_candidates = ns_cli_library_candidates(library, collective, ns_topology_n_machines(t));
    if (library_candidates == NULL) {
      status = ns_cli_usage("tune", "%s has no %s algorithm for %d machines in netsched's map",
                            ns_mpi_library_name(library), ns_collective_name(collective),
                            ns_topology_n_machines(t));
      goto out;
    }
  }
  int root = 0;
  if (root_name != NULL && (root = ns_topology_find_machine(t, root_name)) < 0) {
    status = ns_cli_usage("tune", "--root '%s' is not a machine of %s", root_name,
                          ns_topology_source(t));
    goto out;
  }
  opt.iterations = iterations;
  opt.iteration_gap = gap;
  opt.iteration_compute_s = compute_s;
  timing_name =
      gap == NS_ITERATION_COMPUTE ? g_strdup_printf("mpptest+computation=%g", compute_s)
                                  : g_strdup(gap == NS_ITERATION_BARRIER ? "mpptest+barrier"
                                                                         : "mpptest");
  sim_settings = ns_sim_options_describe(&opt);
  /* the timing is part of what a row means: in the resume digest */
  settings = gap == NS_ITERATION_NOTHING && iterations == 1
                 ? g_strdup(sim_settings)
                 : g_strdup_printf("%s;timing=%s;iterations=%d", sim_settings, timing_name,
                                   iterations);
  NsTuneSpec spec = {
    .topo = t, .collective = collective, .algorithms = library_candidates ? library_candidates : algorithms, .sizes = sizes,
    .root = root, .model = ns_net_model_name(opt.model), .settings = settings,
    .timing = timing_name, .iterations = iterations, .outdir = outdir, .resume = resume,
    .measure = ns_cli_measure_by_simulation, .measure_data = &opt,
    .note = print_progress, .warn = ns_cli_print_warning,
    .command = cmd, .eager_threshold = opt.eager_threshold, .pattern = pattern,
  };
  if (smpirun_asked) { /* the driver is compiled at the first measurement, in OUTDIR */
    ns_smpi_routine_runner_init(&runner, &opt, outdir);
    have_runner = TRUE;
    spec.measure_name = "smpirun";
    spec.measure = ns_smpi_routine_measure;
    spec.measure_data = &runner;
  }
  result = ns_tune_run(&spec, &error);
  if (result == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  printf("%-12s %-12s %s\n", "from_bytes", "to_bytes", "algorithm");
  for (guint i = 0; i < result->table->rows->len; i++) {
    const NsDecisionRow *r = result->table->rows->pdata[i];
    const NsDecisionRow *next =
        i + 1 < result->table->rows->len ? result->table->rows->pdata[i + 1] : NULL;
    char to[32] = "";
    if (next != NULL)
      g_snprintf(to, sizeof to, "%" G_GUINT64_FORMAT, next->from_bytes - 1);
    printf("%-12" G_GUINT64_FORMAT " %-12s %s%s%s%s\n", r->from_bytes, to, r->algorithm,
           *r->params ? "(" : "", r->params, *r->params ? ")" : "");
  }
  /* only the files written: a reduction's or a v-collective's tuning has
   * no routine table (analysis/tune.c) */
  printf("%u measurements, %u kept from measurements.csv; wrote %s/decision.json, "
         "decision.csv%s%s%s\n",
         result->measured, result->reused, outdir, result->routines ? ", tuned_" : "",
         result->routines ? ns_collective_name(collective) : "",
         result->routines ? ".c, netsched-mpi.conf, README" : "");
  status = 0;
  if (library_name != NULL && !ns_rules_collective_written(collective)) {
    fflush(stdout);
    char *why = g_strdup_printf(
        "tune: no %s written: netsched writes %s's selection files for alltoall, allgather "
        "and bcast; decision.csv names the %s algorithm per size (docs/mpi-rules.md)",
        ns_cli_library_file(library), ns_mpi_library_name(library),
        ns_collective_name(collective));
    ns_cli_print_warning(why, NULL);
    g_free(why);
  } else if (library_name != NULL) {
    g_autofree char *path = g_build_filename(outdir, ns_cli_library_file(library), NULL);
    const NsDecisionTable *table = result->table;
    fflush(stdout);
    status = ns_cli_write_rules(library, &table, 1, path);
  }
out:
  fflush(stdout);
  if (sizes != NULL)
    g_array_unref(sizes);
  if (have_runner)
    ns_smpi_routine_runner_clear(&runner);
  if (opt_set)
    ns_sim_options_clear(&opt);
  g_clear_error(&error);
  ns_tune_result_free(result);
  g_free(topology); g_free(format); g_free(collective_name); g_free(algorithms);
  g_free(sizes_text); g_free(model); g_free(root_name); g_free(outdir_arg); g_free(measure);
  g_free(timing); g_free(library_name); g_free(library_candidates); g_free(reduce_rate);
  g_free(pattern);
  g_strfreev(cfg);
  return status;
}
