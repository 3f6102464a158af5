/* netsched design — candidate cluster designs side by side (analysis/design_internal.h):
 * from a scenario file, or from -T options on the command line. `scenario
 * run` is the same study read from a file. */
#include "analysis/design_spec_internal.h"
#include "analysis/scenario_internal.h"
#include "analysis/design_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include <string.h>
#include <unistd.h>

/* The hooks of the study (analysis/design_spec_internal.h): what a topology file
 * and a model mean on the command line. */
typedef struct {
  NsSimOptions options[64]; /* [model]: the simulator's options */
  int n_options;
  NsProgress *progress;
  char *const *cfg;         /* --cfg: after the scenario's (NULL: none) */
} StudyHooks;

static NsTopology *load_topology(const char *file, const char *format, const char *spanning,
                                 void *user, GError **error)
{
  (void)user;
  return ns_cli_load_topology(file, format, spanning, error);
}

static gboolean check_topology(const NsTopology *topo, void *user, GError **error)
{
  (void)user;
  return ns_sim_size_check(topo, error);
}

static gboolean study_model(const char *name, const NsScenario *sc, int index,
                            NsDesignModel *model, void *user, GError **error)
{
  StudyHooks *h = user;
  NsSimOptions *opt = &h->options[index];
  /* the file's SimGrid options, then the command line's: the last one wins */
  g_autoptr(GPtrArray) cfg = g_ptr_array_new();
  for (int i = 0; sc->cfg != NULL && sc->cfg[i] != NULL; i++)
    g_ptr_array_add(cfg, sc->cfg[i]);
  for (int i = 0; h->cfg != NULL && h->cfg[i] != NULL; i++)
    g_ptr_array_add(cfg, h->cfg[i]);
  g_ptr_array_add(cfg, NULL);
  NsCliSimSettings in = { .model = name, .queue = sc->queue, .tcp = sc->tcp,
                          .wall_limit = sc->wall_limit, .calibration = sc->calibration,
                          .progress = h->progress, .runs = sc->runs,
                          .eager_threshold = sc->eager_threshold,
                          .reduce_rate = sc->reduce_rate, .cfg = (char **)cfg->pdata };
  h->n_options = index + 1;
  if (!ns_cli_sim_options(opt, &in, error))
    return FALSE;
  *model = (NsDesignModel){
    .name = g_strdup(ns_net_model_name(opt->model)), .fluid = opt->model != NS_MODEL_PACKET && opt->model != NS_MODEL_NS3,
    .settings = ns_sim_options_describe(opt), .measure_data = opt,
  };
  return TRUE;
}

static const char *model_name(const char *name, void *user, GError **error)
{
  (void)user;
  NsNetModel model;
  return ns_net_model_parse(name, &model, error) ? ns_net_model_name(model) : NULL;
}

/* The result files of a study in its output directory: the cross-design
 * files and every run's compare.csv (analysis/outdir_internal.h). */
static const char *const study_results[] = { "design.csv", "summary.csv", "*/compare.csv",
                                              NULL };

/* smpi:SPEC baselines name an algorithm SMPI ships (the models are checked
 * per model, when the rows run). */
static gboolean check_variants(const GArray *variants, NsCollective c, void *user, GError **error)
{
  return ns_smpi_baselines_check(variants, c, NULL, error);
}

int ns_cli_run_study(const NsScenario *sc, const NsCliStudyArgs *args)
{
  GError *error = NULL;
  NsDesignStudy *study = NULL;
  StudyHooks hooks = { .cfg = args->cfg };
  int status = 2;
  gboolean resume = FALSE;
  NsOutdirArgs outdir = args->outdir;
  /* retrying is resuming (unless starting over) */
  outdir.resume = outdir.resume || (args->retry_failed && !outdir.overwrite);
  if (sc->description != NULL)
    printf("design study: %s\n", sc->description);
  /* Everything is loaded and every name checked before the first run. */
  int jobs;
  if (!ns_cli_jobs(args->jobs, &jobs, &error) || !ns_cli_cfg_check(args->cfg, &error))
    goto out;
  NsDesignHooks study_hooks = { .load_topology = load_topology, .check_topology = check_topology,
                                .model = study_model, .model_name = model_name,
                                .check_variants = check_variants,
                                .measure = ns_cli_measure_by_simulation, .user = &hooks };
  NsDesignSpec spec;
  if (!ns_progress_args_reporter(&args->progress, stderr, "design", "rows", &hooks.progress, &error) ||
      (study = ns_design_study_build(sc, &study_hooks, &spec, &error)) == NULL ||
      !ns_outdir_args_apply(&outdir, sc->output, study_results, &resume, &error))
    goto out;
  spec.progress = hooks.progress;
  spec.retry_failed = args->retry_failed;
  spec.restart = !resume;
  spec.jobs = jobs;
  spec.out = stdout;
  spec.warn = ns_cli_print_warning;
  spec.note = ns_cli_print_note;
  if (ns_design_study(&spec, &error))
    status = 0;
out:
  if (error != NULL)
    status = ns_cli_fail(error);
  fflush(stdout);
  ns_design_study_free(study);
  for (int m = 0; m < hooks.n_options; m++)
    ns_sim_options_clear(&hooks.options[m]);
  ns_progress_free(hooks.progress);
  return status;
}

void ns_cli_add_study_options(GOptionContext *ctx, NsCliStudyArgs *a)
{
  GOptionEntry entries[] = {
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &a->retry_failed,
      "Resume, and run again the rows whose last attempt failed (kept rows are never redone)",
      NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
      NS_CLI_JOBS_HELP " (--wall-limit bounds each simulation)", "N" },
    { "cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->cfg,
      NS_CLI_SMPIRUN_CFG_HELP "; after a scenario file's cfg", "NAME:VALUE" },
    { NULL },
  };
  g_option_context_add_main_entries(ctx, entries, NULL);
  ns_outdir_args_add(ctx, &a->outdir, FALSE);
  ns_progress_args_add(ctx, &a->progress);
}

void ns_cli_study_args_clear(NsCliStudyArgs *a)
{
  ns_progress_args_clear(&a->progress);
  g_clear_pointer(&a->cfg, g_strfreev);
}

/* ---- netsched design -T ... (no file) ------------------------------------------- */

typedef struct {
  GPtrArray *topologies;  /* "NAME=SPEC" or "SPEC" */
  char *collectives, *algorithms, *msizes, *models, *output, *root, *segment, *tcp,
      *calibration, *prices, *spanning, *format, *eager_threshold,
      *reduce_rate, *pattern;
  int queue, runs;
  double wall_limit;
  NsCliStudyArgs study;
} DesignArgs;

/* "NAME=SPEC", or SPEC named after its file (without extension) or, for a
 * generator, "designN". */
static gboolean split_design(const char *arg, int index, char **name, char **spec, GError **error)
{
  const char *eq = strchr(arg, '=');
  const char *colon = strchr(arg, ':');
  if (eq != NULL && (colon == NULL || eq < colon)) {
    *name = g_strndup(arg, (gsize)(eq - arg));
    *spec = g_strdup(eq + 1);
  } else {
    *spec = g_strdup(arg);
    if (g_str_has_prefix(arg, "gen:"))
      *name = g_strdup_printf("design%d", index + 1);
    else {
      g_autofree char *base = g_path_get_basename(arg);
      char *dot = strrchr(base, '.');
      if (dot != NULL && dot != base)
        *dot = '\0';
      *name = g_strdup(base);
    }
  }
  if (!ns_design_name_valid(*name)) {
    g_autofree char *shown = g_strescape(*name, NULL);
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "-T %s: design name '%s': use 1-64 letters, digits, '.', '_' or '-' "
                "(write -T NAME=SPEC)",
                arg, shown);
    return FALSE;
  }
  return TRUE;
}

/* The command line as a scenario, so both paths run one engine. */
static NsScenario *scenario_from_args(const DesignArgs *a, GError **error)
{
  g_autoptr(NsScenario) sc = g_new0(NsScenario, 1);
  sc->path = g_strdup("command line");
  sc->msizes = g_strdup(a->msizes);
  sc->output = g_strdup(a->output ? a->output : "design-out");
  sc->tcp = g_strdup(a->tcp);
  sc->calibration = g_strdup(a->calibration);
  sc->eager_threshold = g_strdup(a->eager_threshold);
  sc->reduce_rate = g_strdup(a->reduce_rate);
  sc->prices = g_strdup(a->prices);
  sc->queue = a->queue;
  sc->runs = a->runs;
  sc->wall_limit = a->wall_limit;
  sc->collectives = g_array_new(FALSE, TRUE, sizeof(NsScenarioCollective));
  sc->topologies = g_array_new(FALSE, TRUE, sizeof(NsScenarioTopology));
  g_auto(GStrv) colls = g_strsplit(a->collectives ? a->collectives : "alltoall", ",", -1);
  gboolean any_vector = FALSE;
  for (int i = 0; colls[i] != NULL; i++) {
    NsCollective c;
    char *name = g_strstrip(colls[i]);
    if (!ns_collective_from_name(name, &c)) {
      g_autofree char *known = ns_collective_names(", ");
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "--collective: unknown collective '%s' (%s)",
                  name, known);
      return NULL;
    }
    NsScenarioCollective x = { .name = g_strdup(name), .root = g_strdup(a->root),
                               .segment = g_strdup(a->segment), .where = g_strdup("--algorithm") };
    if (a->algorithms != NULL && g_strv_length(colls) > 1) {
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                  "--algorithm applies to one collective; for several, write a scenario file "
                  "with [collective NAME] groups (docs/scenarios.md)");
      g_free(x.name); g_free(x.root); g_free(x.segment); g_free(x.where);
      return NULL;
    }
    x.algorithms = g_strdup(a->algorithms);
    /* --pattern: the size pattern of the collectives that take one */
    x.pattern = ns_collective_is_vector(c) ? g_strdup(a->pattern) : NULL;
    any_vector = any_vector || ns_collective_is_vector(c);
    g_array_append_val(sc->collectives, x);
  }
  if (a->pattern != NULL && !any_vector) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "--pattern: only alltoallv and allgatherv take a size pattern (-c %s)",
                a->collectives ? a->collectives : "alltoall");
    return NULL;
  }
  if (a->topologies->len == 0) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "give a scenario file or at least one -T");
    return NULL;
  }
  for (guint i = 0; i < a->topologies->len; i++) {
    NsScenarioTopology t = { .format = g_strdup(a->format), .spanning = g_strdup(a->spanning),
                             .where = g_strdup_printf("-T %s", (char *)g_ptr_array_index(a->topologies, i)) };
    t.models = g_strsplit(a->models ? a->models : "ideal", ",", -1);
    for (int m = 0; t.models[m] != NULL; m++)
      g_strstrip(t.models[m]);
    gboolean ok = split_design(g_ptr_array_index(a->topologies, i), (int)i, &t.name, &t.file, error);
    g_array_append_val(sc->topologies, t); /* freed with the scenario either way */
    if (!ok)
      return NULL;
  }
  return g_steal_pointer(&sc);
}

static void design_args_clear(DesignArgs *a)
{
  g_ptr_array_unref(a->topologies);
  g_free(a->collectives); g_free(a->algorithms); g_free(a->msizes); g_free(a->models);
  g_free(a->output); g_free(a->root); g_free(a->segment); g_free(a->tcp);
  g_free(a->calibration); g_free(a->eager_threshold); g_free(a->reduce_rate); g_free(a->prices); g_free(a->spanning); g_free(a->format);
  g_free(a->pattern);
  ns_cli_study_args_clear(&a->study);
}

int ns_cmd_design(int argc, char **argv)
{
  DesignArgs a = { .topologies = g_ptr_array_new_with_free_func(g_free) };
  /* The spellings of compare (-c --collective, -a --algorithm, -m --msize,
   * -M --model), each a list here; the plurals of earlier versions stay as
   * hidden aliases. Lists may be repeated. */
  NsCliSlot slots[] = {
    { "-T --topology", NS_CLI_ARRAY, a.topologies },
    { "-c --collective --collectives", NS_CLI_LIST, &a.collectives },
    { "-a --algorithm --algorithms", NS_CLI_LIST, &a.algorithms },
    { "-m --msize --msizes", NS_CLI_LIST, &a.msizes },
    { "-M --model --models", NS_CLI_LIST, &a.models },
    { NULL },
  };
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "A design: [NAME=]FILE or [NAME=]gen:SPEC (repeat for each design)", "[NAME=]T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a.format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &a.spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "collective", 'c', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "Collectives, comma-separated or repeated (default alltoall)", ns_cli_collective_choices() },
    { "collectives", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL,
      NULL },
    { "algorithm", 'a', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "ALGORITHM[:SYNC] list of the one collective (default: every registered one; the MPI "
      "selectors mpich and ompi are always added)", "LIST" },
    { "algorithms", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL,
      NULL },
    { "msize", 'm', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "Message sizes: A..B (powers of two) or a list, comma-separated or repeated (default "
      "8KiB..256KiB)", "SIZES" },
    { "msizes", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL, NULL },
    { "model", 'M', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "Network models, comma-separated or repeated (default ideal; packet ranks "
      "contention-free schedules)", "ideal,tcp,smpi,packet" },
    { "models", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL, NULL },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &a.root, "bcast, reduce: root (a machine of every design)",
      "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &a.segment, "bcast, reduce, allreduce: segment size", "SIZE" },
    { "pattern", 0, 0, G_OPTION_ARG_FILENAME, &a.pattern, NS_CLI_PATTERN_AXIS_HELP, "SPEC|FILE" },
    { "prices", 0, 0, G_OPTION_ARG_FILENAME, &a.prices,
      "Price file (switches by ports in use, ports and cables by speed; docs/scenarios.md): "
      "adds cost and cost per Gbit/s", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
      "Directory for the runs, design.csv, summary.csv, plots and report.md "
      "(default design-out); one holding results needs --resume or --overwrite", "DIR" },
    { "queue", 0, 0, G_OPTION_ARG_INT, &a.queue, "packet: switch queue size in packets", "N" },
    { "tcp", 0, 0, G_OPTION_ARG_STRING, &a.tcp, "packet: TCP variant", "Cubic|NewReno" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &a.runs,
      "packet: simulations per row (other FqCoDel flow-hash salts): median, fastest, slowest; "
      "the packet model names a best only when its runs do not overlap the others'", "N" },
    { "wall-limit", 0, 0, G_OPTION_ARG_DOUBLE, &a.wall_limit,
      "Stop any one simulation after this many wall seconds (its row says so)", "S" },
    { "calibration", 0, 0, G_OPTION_ARG_STRING, &a.calibration,
      "smpi model with a calibration's factors", "FILE|NAME" },
    { "eager-threshold", 0, 0, G_OPTION_ARG_STRING, &a.eager_threshold, NS_CLI_EAGER_HELP,
      "SIZE" },
    { "reduce-rate", 0, 0, G_OPTION_ARG_STRING, &a.reduce_rate, NS_CLI_REDUCE_RATE_HELP, "RATE|0" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("[SCENARIO.ini] - compare candidate cluster designs");
  GOptionGroup *main_group = g_option_group_new(NULL, NULL, NULL, slots, NULL);
  g_option_group_add_entries(main_group, entries);
  g_option_context_set_main_group(ctx, main_group);
  ns_cli_add_study_options(ctx, &a.study);
  g_option_context_set_summary(
      ctx, "Plans, verifies and simulates every design x collective x message size x\n"
           "algorithm x model, and writes across designs: design.csv (every row),\n"
           "summary.csv (bound, best verified contention-free schedule, MPI defaults,\n"
           "bottleneck, switches, cables, cost), one plot per collective and model, and\n"
           "report.md: per design the time, the ratio to the bound, the bottleneck, the\n"
           "algorithm to configure and what changing one part buys.");
  g_option_context_set_description(
      ctx, "A fluid model (ideal, tcp, smpi) cannot tell contention-free schedules apart:\n"
           "it names a best one only when it is ahead by more than 1%; add the packet model\n"
           "(switch trees) to rank them. An output directory holding results of an earlier\n"
           "study is refused (exit 2) unless --resume (pick up where it stopped) or\n"
           "--overwrite (start over) says what to do. The scenario file format is in\n"
           "docs/scenarios.md.\n"
           "Examples:\n"
           "  netsched design -T single=gen:star:64:bandwidth=1Gbps \\\n"
           "    -T torus=gen:torus:8x8:bandwidth=1Gbps -c alltoall,bcast -m 64KiB,1MiB\n"
           "  netsched design scenarios/design-64.ini\n");
  int status = 2;
  if (ns_cli_parse(ctx, &argc, &argv)) {
    GError *error = NULL;
    if (argc > 2)
      status = ns_cli_usage("design", "unexpected argument '%s'", argv[2]);
    else if (argc == 2 && (a.topologies->len > 0 || a.collectives || a.algorithms || a.msizes ||
                           a.models || a.output || a.root || a.segment || a.tcp ||
                           a.calibration || a.eager_threshold || a.reduce_rate || a.prices || a.spanning ||
                           a.pattern ||
                           a.format || a.queue || a.runs ||
                           a.wall_limit > 0))
      status = ns_cli_usage("design", "with a scenario file, set the study in the file "
                                      "(only --retry-failed, --resume, --overwrite, -j, "
                                      "--progress and --cfg go with it)");
    else {
      g_autoptr(NsScenario) sc = argc == 2 ? ns_scenario_load(argv[1], &error)
                                           : scenario_from_args(&a, &error);
      status = sc != NULL ? ns_cli_run_study(sc, &a.study) : ns_cli_fail(error);
    }
  }
  design_args_clear(&a);
  return status;
}
