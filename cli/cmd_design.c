/* netsched design — candidate cluster designs side by side (analysis/design_internal.h):
 * from a scenario file, or from -T options on the command line. `scenario
 * run` is the same study read from a file. */
#include "analysis/design_internal.h"
#include "analysis/scenario_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include <string.h>
#include <unistd.h>

/* Every registered algorithm of `c`, as a variant list. */
static char *all_algorithms(NsCollective c)
{
  int n;
  const NsPlanner *all = ns_planners(&n);
  GString *t = g_string_new(NULL);
  for (int i = 0; i < n; i++)
    if (all[i].collective == c)
      g_string_append_printf(t, "%s%s", t->len ? "," : "", all[i].name);
  return g_string_free(t, FALSE);
}

/* The variants of one collective, with the MPI default selectors added
 * (what the cluster gets out of the box) when registered and not listed. */
static GArray *study_variants(const NsScenarioCollective *sc, NsCollective c, GError **error)
{
  g_autofree char *text = sc->algorithms ? g_strdup(sc->algorithms) : all_algorithms(c);
  GArray *v = ns_variants_parse(text, c, error);
  if (v == NULL) {
    g_prefix_error(error, "%s: ", sc->where);
    return NULL;
  }
  static const char *const selectors[] = { "mpich", "ompi" };
  for (int i = 0; i < 2; i++) {
    gboolean listed = FALSE;
    for (guint k = 0; k < v->len; k++)
      listed = listed || strcmp(g_array_index(v, NsVariant, k).label, selectors[i]) == 0;
    if (listed || ns_planner_find(c, selectors[i]) == NULL)
      continue;
    NsVariant x = { .label = g_strdup(selectors[i]), .algorithm = g_strdup(selectors[i]) };
    g_array_append_val(v, x);
  }
  return v;
}

/* Everything a study owns, freed in one place. */
typedef struct {
  NsDesign *designs;
  int n_designs;
  NsDesignCollective *collectives;
  int n_collectives;
  NsDesignModel *models;
  NsSimOptions *options;
  int n_models;
  GArray *sizes;
  NsPrices *prices;
  NsPrices **design_prices;  /* [design]: its own, or NULL */
} Study;

static void study_clear(Study *s)
{
  for (int d = 0; d < s->n_designs; d++) {
    ns_prices_free(s->design_prices[d]);
    ns_topology_free(s->designs[d].topo);
    g_free(s->designs[d].name);
    g_free(s->designs[d].description);
    g_free(s->designs[d].versus);
    g_free(s->designs[d].change);
  }
  for (int c = 0; c < s->n_collectives; c++) {
    ns_variants_free(s->collectives[c].variants);
    g_free(s->collectives[c].root);
  }
  for (int m = 0; m < s->n_models; m++) {
    g_free(s->models[m].name);
    g_free(s->models[m].settings);
    ns_sim_options_clear(&s->options[m]);
  }
  g_free(s->designs);
  g_free(s->design_prices);
  g_free(s->collectives);
  g_free(s->models);
  g_free(s->options);
  if (s->sizes != NULL)
    g_array_unref(s->sizes);
  ns_prices_free(s->prices);
}

/* The models of the study: the union of the designs' lists, in order. */
static gboolean study_models(Study *s, const NsScenario *sc, NsProgress *progress,
                             GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new();
  g_autoptr(GPtrArray) wheres = g_ptr_array_new(); /* the file:line that names each */
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    char **models = t->models;
    for (int m = 0; models[m] != NULL; m++) {
      gboolean seen = FALSE;
      for (guint k = 0; k < names->len; k++)
        seen = seen || strcmp(g_ptr_array_index(names, k), models[m]) == 0;
      if (!seen) {
        g_ptr_array_add(names, models[m]);
        g_ptr_array_add(wheres, t->models_where ? t->models_where : sc->path);
      }
    }
  }
  if (names->len > 64) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: more than 64 models", sc->path);
    return FALSE;
  }
  s->models = g_new0(NsDesignModel, names->len);
  s->options = g_new0(NsSimOptions, names->len);
  for (guint m = 0; m < names->len; m++) {
    NsCliSimSettings in = { .model = g_ptr_array_index(names, m), .queue = sc->queue,
                            .tcp = sc->tcp, .wall_limit = sc->wall_limit,
                            .calibration = sc->calibration, .progress = progress,
                            .runs = sc->runs };
    s->n_models++;
    if (!ns_cli_sim_options(&s->options[m], &in, error)) {
      g_prefix_error(error, "%s: ", (const char *)g_ptr_array_index(wheres, m));
      return FALSE;
    }
    NsNetModel model = s->options[m].model;
    s->models[m] = (NsDesignModel){
      .name = g_strdup(ns_net_model_name(model)), .fluid = model != NS_MODEL_PACKET,
      .settings = ns_sim_options_describe(&s->options[m]), .measure_data = &s->options[m],
    };
  }
  return TRUE;
}

static gboolean study_collectives(Study *s, const NsScenario *sc, GError **error)
{
  s->collectives = g_new0(NsDesignCollective, sc->collectives->len);
  for (guint i = 0; i < sc->collectives->len; i++) {
    const NsScenarioCollective *x = &g_array_index(sc->collectives, NsScenarioCollective, i);
    NsDesignCollective *c = &s->collectives[i];
    s->n_collectives++;
    if (!ns_collective_from_name(x->name, &c->collective)) /* checked by the loader */
      return FALSE;
    c->root = g_strdup(x->root);
    if ((x->segment != NULL && !ns_cli_parse_size("segment", x->segment, &c->segment, error)) ||
        (c->variants = study_variants(x, c->collective, error)) == NULL)
      return FALSE;
  }
  return TRUE;
}

/* A design's own prices: its file's keys over the study's. */
static gboolean design_prices(Study *s, const NsScenario *sc, GError **error)
{
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    if (t->prices == NULL)
      continue;
    if ((s->design_prices[i] = ns_prices_load_over(s->prices, t->prices, error)) == NULL)
      return FALSE;
    s->designs[i].prices = s->design_prices[i];
  }
  return TRUE;
}

static gboolean study_designs(Study *s, const NsScenario *sc, GError **error)
{
  s->designs = g_new0(NsDesign, sc->topologies->len);
  s->design_prices = g_new0(NsPrices *, sc->topologies->len);
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    NsDesign *d = &s->designs[i];
    s->n_designs++;
    *d = (NsDesign){ .name = g_strdup(t->name), .description = g_strdup(t->description),
                     .versus = g_strdup(t->versus), .change = g_strdup(t->change) };
    for (int k = 0; t->models[k] != NULL; k++) {
      NsNetModel want;
      if (!ns_net_model_parse(t->models[k], &want, error)) {
        g_prefix_error(error, "%s: [topology %s]: ", t->models_where ? t->models_where : t->where,
                       t->name);
        return FALSE;
      }
      for (int m = 0; m < s->n_models; m++)
        if (s->options[m].model == want)
          d->model_mask |= G_GUINT64_CONSTANT(1) << m;
    }
    if ((d->topo = ns_cli_load_topology(t->file, t->format, t->spanning, error)) == NULL ||
        !ns_sim_size_check(d->topo, error)) { /* before the first of its runs */
      g_prefix_error(error, "%s: [topology %s]: ", t->where, t->name);
      return FALSE;
    }
  }
  return TRUE;
}

/* The result files of a study in its output directory: the cross-design
 * files and every run's compare.csv (analysis/outdir_internal.h). */
static const char *const study_results[] = { "design.csv", "summary.csv", "*/compare.csv",
                                              NULL };

int ns_cli_run_study(const NsScenario *sc, const NsCliStudyArgs *args)
{
  GError *error = NULL;
  Study s = { 0 };
  int status = 2;
  NsProgress *progress = NULL;
  gboolean resume = FALSE;
  NsCliOutdirArgs outdir = args->outdir;
  /* retrying is resuming (unless starting over) */
  outdir.resume = outdir.resume || (args->retry_failed && !outdir.overwrite);
  if (sc->description != NULL)
    printf("design study: %s\n", sc->description);
  /* Everything is loaded and every name checked before the first run. */
  if (args->jobs < 0 || args->jobs > 4096) {
    error = g_error_new(NS_ERROR, NS_ERROR_INPUT, "-j %d: expected 1 to 4096 jobs", args->jobs);
    goto out;
  }
  if (!ns_cli_progress_new(&args->progress, "design", "rows", &progress, &error) ||
      (s.sizes = ns_msizes_parse("msizes", sc->msizes ? sc->msizes : "8KiB..256KiB", &error)) ==
          NULL ||
      !study_models(&s, sc, progress, &error) || !study_collectives(&s, sc, &error) ||
      !study_designs(&s, sc, &error) ||
      (sc->prices != NULL && (s.prices = ns_prices_load(sc->prices, &error)) == NULL) ||
      !design_prices(&s, sc, &error) ||
      !ns_cli_outdir(&outdir, sc->output, study_results, &resume, &error))
    goto out;
  NsDesignSpec spec = {
    .designs = s.designs, .n_designs = s.n_designs, .collectives = s.collectives,
    .n_collectives = s.n_collectives, .sizes = s.sizes, .models = s.models,
    .n_models = s.n_models, .measure = ns_cli_measure_by_simulation, .prices = s.prices,
    .outdir = sc->output, .one_collective_layout = s.n_collectives == 1, .progress = progress,
    .retry_failed = args->retry_failed, .restart = !resume, .jobs = args->jobs, .out = stdout,
    .warn = ns_cli_print_warning, .note = ns_cli_print_note,
  };
  if (ns_design_study(&spec, &error))
    status = 0;
out:
  if (error != NULL)
    status = ns_cli_fail(error);
  fflush(stdout);
  study_clear(&s);
  ns_progress_free(progress);
  return status;
}

void ns_cli_add_study_options(GOptionContext *ctx, NsCliStudyArgs *a)
{
  GOptionEntry entries[] = {
    { "retry-failed", 0, 0, G_OPTION_ARG_NONE, &a->retry_failed,
      "Resume, and run again the rows whose last attempt failed (kept rows are never redone)",
      NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
      "Runs (collective x design x model) at once, in worker processes as sweep -j (default 1: "
      "--wall-limit and memory are meant for one simulation at a time)", "N" },
    { NULL },
  };
  g_option_context_add_main_entries(ctx, entries, NULL);
  ns_cli_add_outdir_options(ctx, &a->outdir, FALSE);
  ns_cli_add_progress_options(ctx, &a->progress);
}

/* ---- netsched design -T ... (no file) ------------------------------------------- */

typedef struct {
  GPtrArray *topologies;  /* "NAME=SPEC" or "SPEC" */
  char *collectives, *algorithms, *msizes, *models, *output, *root, *segment, *tcp,
      *calibration, *prices, *spanning, *format;
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
  sc->prices = g_strdup(a->prices);
  sc->queue = a->queue;
  sc->runs = a->runs;
  sc->wall_limit = a->wall_limit;
  sc->collectives = g_array_new(FALSE, TRUE, sizeof(NsScenarioCollective));
  sc->topologies = g_array_new(FALSE, TRUE, sizeof(NsScenarioTopology));
  g_auto(GStrv) colls = g_strsplit(a->collectives ? a->collectives : "alltoall", ",", -1);
  for (int i = 0; colls[i] != NULL; i++) {
    NsCollective c;
    char *name = g_strstrip(colls[i]);
    if (!ns_collective_from_name(name, &c)) {
      g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                  "--collective: unknown collective '%s' (alltoall, allgather, bcast)", name);
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
    g_array_append_val(sc->collectives, x);
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
  g_free(a->calibration); g_free(a->prices); g_free(a->spanning); g_free(a->format);
  ns_cli_progress_args_clear(&a->study.progress);
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
      "Collectives, comma-separated or repeated (default alltoall)", "alltoall,allgather,bcast" },
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
    { "root", 'r', 0, G_OPTION_ARG_STRING, &a.root, "bcast root (a machine of every design)",
      "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &a.segment, "bcast segment size", "SIZE" },
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
                           a.calibration || a.prices || a.spanning || a.format || a.queue || a.runs ||
                           a.wall_limit > 0))
      status = ns_cli_usage("design", "with a scenario file, set the study in the file "
                                      "(only --retry-failed, --resume, --overwrite, -j and "
                                      "--progress go with it)");
    else {
      g_autoptr(NsScenario) sc = argc == 2 ? ns_scenario_load(argv[1], &error)
                                           : scenario_from_args(&a, &error);
      status = sc != NULL ? ns_cli_run_study(sc, &a.study) : ns_cli_fail(error);
    }
  }
  design_args_clear(&a);
  return status;
}
