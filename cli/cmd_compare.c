/* netsched compare — algorithms × message sizes on one topology and model:
 * a table, a CSV written row by row (resumable) and a plot. The engine is
 * analysis/experiment.c; this file parses options and hands it a
 * measurement that runs the simulator. */
#include "analysis/configure_advice_internal.h"
#include "analysis/experiment_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include "sim/sim.h"
#include <string.h>
#include <unistd.h>

/* Compare's sink: the fastest verified row per size, for "what to configure". */
static void keep_winner(const NsCompareRow *row, void *user)
{
  if (row->ok && row->valid)
    ns_size_winners_add(user, row->msize, row->label, row->completion_s);
}

/* The arrival pattern fits the topology's machines (every row plans for all
 * of them): refused once, up front, rather than row by row. */
static gboolean arrival_fits(const NsSimOptions *opt, const NsTopology *t, GError **error)
{
  if (opt->arrival == NULL || ns_arrival_check(opt->arrival, ns_topology_n_machines(t), error))
    return TRUE;
  g_prefix_error(error, "--arrival: ");
  return FALSE;
}

int ns_compare_run(const NsCompareArgs *a)
{
  GError *error = NULL;
  int status = 2;
  NsCollective collective = NS_COLL_ALLTOALL;
  GArray *sizes = NULL, *variants = NULL, *winners = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autofree char *settings = NULL;
  NsSimOptions opt;
  NsProgress *progress = NULL;
  gboolean resume = FALSE;
  const char *outdir = a->outdir ? a->outdir : "compare-out";
  static const char *const results[] = { "compare.csv", NULL };
  NsCliSimSettings settings_in = { .model = a->model, .queue = a->queue, .tcp = a->tcp,
                                   .wall_limit = a->wall_limit, .calibration = a->calibration,
                                   .runs = a->runs, .arrival = a->arrival,
                                   .eager_threshold = a->eager_threshold,
                                   .reduce_rate = a->reduce_rate, .cfg = a->cfg };
  gboolean have_opt = ns_cli_sim_options(&opt, &settings_in, &error);
  int bad_ns3 = have_opt ? ns_cli_ns3_args_apply(a->ns3, "compare", &opt) : 0;
  if (bad_ns3 != 0) {
    status = bad_ns3;
    goto out;
  }
  uint64_t segment = 0;
  int jobs = 1;
  if (a->collective != NULL && !ns_collective_from_name(a->collective, &collective)) {
    g_autofree char *known = ns_collective_names(", ");
    error = g_error_new(NS_ERROR, NS_ERROR_INPUT, "unknown collective '%s' (%s)", a->collective,
                        known);
    goto fail;
  }
  /* Every name is checked before anything runs. */
  if (!have_opt || !ns_cli_jobs(a->jobs, &jobs, &error) ||
      !ns_progress_args_reporter(&a->progress, stderr, "compare", "rows", &progress, &error) ||
      (sizes = ns_msizes_parse("--msize", a->msizes ? a->msizes : "8KiB..256KiB", &error)) ==
          NULL ||
      (variants = ns_variants_parse(a->algorithms ? a->algorithms : "faraj:sender-all,ring,simple",
                                    collective, &error)) == NULL ||
      !ns_smpi_baselines_check(variants, collective, &opt, &error) ||
      (a->segment != NULL && !ns_cli_parse_size("--segment", a->segment, &segment, &error)) ||
      (t = ns_cli_load_topology(a->topology, a->format, a->spanning, &error)) == NULL ||
      !ns_sim_size_check(t, &error) || /* every row simulates: refused once, up front */
      !arrival_fits(&opt, t, &error) ||
      !ns_outdir_args_apply(&a->outdir_args, outdir, results, &resume, &error))
    goto fail;
  int root = 0;
  if (a->root != NULL && (root = ns_topology_find_machine(t, a->root)) < 0) {
    error = g_error_new(NS_ERROR, NS_ERROR_INPUT, "--root '%s' is not a machine of %s", a->root,
                        ns_topology_source(t));
    goto fail;
  }
  settings = ns_sim_options_describe(&opt);
  opt.progress = progress; /* the simulator's messages move the rows' count */
  ns_progress_add_total(progress, (double)variants->len * sizes->len);
  NsCompareSpec spec = {
    .topo = t,
    .collective = collective,
    .variants = variants,
    .sizes = sizes,
    .params = { .root = root, .segment = segment },
    .pattern = a->pattern,
    .model = ns_net_model_name(opt.model),
    .settings = settings,
    .outdir = outdir,
    .resume = resume,
    .progress = progress,
    .table = stdout,
    .measure = ns_cli_measure_by_simulation,
    .measure_data = &opt,
    .need_result = TRUE,
    .warn = ns_cli_print_warning,
    .note = ns_cli_print_note,
    .sink = keep_winner,
    .arrival_columns = opt.arrival != NULL,
    .sink_data = winners = ns_size_winners_new(),
    .jobs = jobs,
  };
  status = ns_compare_experiment(&spec, &error) ? 0 : ns_cli_fail(error);
  error = NULL;
  if (status == 0 && winners->len > 0) {
    g_autoptr(GString) advice = g_string_new(NULL);
    NsAdvice base = { .collective = collective,
                      .n_machines = ns_topology_n_machines(t),
                      .topology = ns_topology_source(t),
                      .root = a->root,
                      .segment = segment,
                      .pattern = a->pattern };
    ns_configure_advice_by_size(advice, &base, winners);
    fputs(advice->str, stdout);
  }
  goto out;
fail:
  status = ns_cli_fail(error);
out:
  fflush(stdout);
  if (sizes != NULL)
    g_array_unref(sizes);
  if (winners != NULL)
    g_array_unref(winners);
  ns_variants_free(variants);
  ns_sim_options_clear(&opt);
  ns_progress_free(progress);
  return status;
}

int ns_cmd_compare(int argc, char **argv)
{
  NsCliNs3Args ns3;
  ns_cli_ns3_args_init(&ns3);
  NsCompareArgs a = { .ns3 = &ns3 };
  /* One spelling per concept in every command (-c --collective, -a
   * --algorithm, -m --msize, -M --model); the plural spellings of earlier
   * versions stay as hidden aliases. Lists may be repeated. */
  NsCliSlot slots[] = {
    { "-T --topology", NS_CLI_ONCE, &a.topology },
    { "-c --collective", NS_CLI_ONCE, &a.collective },
    { "-a --algorithm --algorithms", NS_CLI_LIST, &a.algorithms },
    { "-m --msize --msizes", NS_CLI_LIST, &a.msizes },
    { "-M --model --models", NS_CLI_ONCE, &a.model },
    { NULL },
  };
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, "Topology file or gen:SPEC",
      "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a.format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "spanning", 0, 0, G_OPTION_ARG_STRING, &a.spanning, NS_CLI_SPANNING_HELP,
      "METHOD[:SEED][@ROOT]" },
    { "collective", 'c', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "Collective (default alltoall)", ns_cli_collective_choices() },
    { "algorithm", 'a', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "ALGORITHM[:SYNC] list, comma-separated or repeated (default "
      "faraj:sender-all,ring,simple); smpi:ALGO or smpi:coll-selector=NAME measures SMPI's own "
      "implementation under smpirun (--model smpi)", "LIST" },
    { "algorithms", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL,
      NULL },
    { "msize", 'm', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot,
      "Message sizes: A..B (powers of two) or a list, comma-separated or repeated (default "
      "8KiB..256KiB)", "SIZES" },
    { "msizes", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL, NULL },
    { "model", 'M', 0, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, "Network model (default ideal)",
      "ideal|tcp|smpi|packet|ns3" },
    { "models", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_CALLBACK, ns_cli_option_slot, NULL, NULL },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &a.root, "bcast, reduce: root", "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &a.segment, "bcast, reduce, allreduce: segment size", "SIZE" },
    { "pattern", 0, 0, G_OPTION_ARG_FILENAME, &a.pattern, NS_CLI_PATTERN_AXIS_HELP, "SPEC|FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.outdir,
      "Directory for compare.csv, .dat, .gp, .svg, .png (default compare-out); one holding a "
      "compare.csv needs --resume or --overwrite", "DIR" },
    { "queue", 0, 0, G_OPTION_ARG_INT, &a.queue, "packet: switch queue size in packets (default 100)",
      "N" },
    { "tcp", 0, 0, G_OPTION_ARG_STRING, &a.tcp, "packet: TCP variant (default Cubic)", "Cubic|NewReno" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &a.runs,
      "packet: simulations per row, each with another FqCoDel flow-hash salt; the row is the "
      "median, the plot's error bars span the runs (default 1)", "N" },
    { "wall-limit", 0, 0, G_OPTION_ARG_DOUBLE, &a.wall_limit,
      "Stop any one simulation after this many wall seconds (its row says so)", "S" },
    { "calibration", 0, 0, G_OPTION_ARG_STRING, &a.calibration,
      "SMPI model with a calibration's factors (netsched calibrate): a file or a bundled name "
      "(lemieux, beowulf-gige)", "FILE|NAME" },
    { "arrival", 0, 0, G_OPTION_ARG_STRING, &a.arrival,
      "Process arrival pattern (docs/arrival.md): balanced, random:AVG,MAX[,seed=S] "
      "(δ̄/T = AVG, ω/T = MAX) or file:PATH; rows gain δ̄/T, ω/T, ē and the span",
      "SPEC" },
    { "eager-threshold", 0, 0, G_OPTION_ARG_STRING, &a.eager_threshold, NS_CLI_EAGER_HELP,
      "SIZE" },
    { "reduce-rate", 0, 0, G_OPTION_ARG_STRING, &a.reduce_rate, NS_CLI_REDUCE_RATE_HELP, "RATE|0" },
    { "cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.cfg, NS_CLI_SMPIRUN_CFG_HELP, "NAME:VALUE" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, NS_CLI_JOBS_HELP, "N" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- compare algorithms by simulation");
  GOptionGroup *main_group = g_option_group_new(NULL, NULL, NULL, slots, NULL);
  g_option_group_add_entries(main_group, entries);
  g_option_context_set_main_group(ctx, main_group);
  ns_cli_ns3_args_add(ctx, &ns3);
  ns_outdir_args_add(ctx, &a.outdir_args, FALSE);
  ns_progress_args_add(ctx, &a.progress);
  g_option_context_set_summary(
      ctx, "Plans, verifies and simulates every algorithm x message size and prints one\n"
           "table (time, throughput, ratio to the bound); writes the CSV row by row (so an\n"
           "interrupted run can --resume) and plots throughput against message size.");
  g_option_context_set_description(
      ctx, "Every algorithm and sync scheme is checked against the registry before the\n"
           "first run: an unknown name is an error (exit 2), never a row. An output\n"
           "directory holding a compare.csv is refused (exit 2) unless --resume (keep its\n"
           "rows, run the rest) or --overwrite (start over) says what to do with it.\n"
           "Example:\n  netsched compare -T scenarios/topologies/faraj-c.topo \\\n"
           "    -a faraj:sender-all,faraj:barrier-all,ring,pair,simple -m 8KiB..1MiB -M packet\n");
  int status = 2;
  if (ns_cli_parse(ctx, &argc, &argv)) {
    if (argc != 1)
      status = ns_cli_usage("compare", "unexpected argument '%s'", argv[1]);
    else
      status = ns_compare_run(&a);
  }
  g_free(a.calibration);
  g_free(a.topology); g_free(a.format); g_free(a.spanning); g_free(a.collective); g_free(a.algorithms);
  g_free(a.msizes); g_free(a.model); g_free(a.outdir); g_free(a.root); g_free(a.segment);
  g_free(a.tcp);
  g_free(a.arrival);
  g_free(a.eager_threshold);
  g_free(a.reduce_rate);
  g_strfreev(a.cfg);
  g_free(a.pattern);
  ns_progress_args_clear(&a.progress);
  ns_cli_ns3_args_clear(&ns3);
  return status;
}
