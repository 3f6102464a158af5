/* netsched simulate — replay a schedule on SimGrid and report timings. */
#include "analysis/bounds_collective.h"
#include "analysis/calibrate_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/link_use_internal.h"
#include "cli/cli.h"
#include "cli/cli_sim.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/io/schedule_json.h"
#include "sim/measure.h"
#include "sim/export_trace.h"
#include "sim/ns3_attributes.h"
#include "sim/ns3_net.h"
#include "sim/sim.h"
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* --runs N: the fluid models are deterministic (every run gives the same
 * time), so more than one run is refused there. */
static gboolean runs_check(const NsSimOptions *opt, int runs, GError **error)
{
  if (runs > 1 && opt->model != NS_MODEL_PACKET) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "--runs %d: the %s model is deterministic (every run gives the same time); "
                "runs vary the packet model's flow hashing",
                runs, ns_net_model_name(opt->model));
    return FALSE;
  }
  return TRUE;
}

static void print_table(const NsTopology *t, const NsSchedule *s, const NsSimOptions *opt,
                        const NsSimResult *r, uint64_t msize, const NsLinkUse *use,
                        const NsSimRuns *runs)
{
  g_autofree char *size = ns_format_size(msize);
  double fmin = G_MAXDOUBLE, fmax = 0;
  for (int m = 0; m < r->n_machines; m++) {
    fmin = MIN(fmin, r->finish[m]);
    fmax = MAX(fmax, r->finish[m]);
  }
  printf("simulation   %s/%s on %s\n", ns_collective_name(s->collective), s->algorithm,
         ns_topology_source(t));
  printf("model        %s, sync %s, msize %s%s\n", ns_net_model_name(opt->model),
         s->execution == NS_EXEC_POSTED ? "n/a (posted at once)" : r->sync, size,
         r->n_dummy_messages ? " (+dummies)" : "");
  if (!r->valid)
    printf("INVALID      the schedule does not verify (%s): the time below means nothing\n",
           r->invalid_reason);
  printf("completion   %.6f s\n", r->completion);
  if (runs != NULL) {
    const GArray *times = runs->sorted;
    printf("runs         %u (FqCoDel salts): fastest %.6f s, median %.6f s, slowest %.6f s; "
           "the details below are run 0's\n",
           times->len, g_array_index(times, double, 0), runs->median,
           g_array_index(times, double, times->len - 1));
  }
  printf("bound        %.6f s   ratio %.4f\n", r->bound, r->ratio);
  printf("throughput   %.2f Mbit/s aggregate\n", r->throughput / 1e6);
  printf("finish       machines end between %.6f and %.6f s\n", fmin, fmax);
  if (r->arrival != NULL) {
    const NsArrivalStats *a = &r->arrival_stats;
    int slowest;
    ns_arrival_unit(t, s, msize, &slowest);
    printf("arrival      %s: δ̄/T %.6f, ω/T %.6f (T %.9f s: one %s message on %s's port)\n",
           opt->arrival->canonical, a->avg_imbalance, a->max_imbalance, a->unit_s, size,
           slowest >= 0 ? s->machines[slowest] : "?");
    printf("per-node     ē %.9f s (mean of finish − arrival); first arrival to last finish "
           "%.9f s\n", a->mean_node_s, a->span_s);
  }
  printf("messages     %" G_GUINT64_FORMAT " data, %" G_GUINT64_FORMAT " sync/barrier, %"
         G_GUINT64_FORMAT " dummy\n",
         r->n_transfers, r->n_sync_messages, r->n_dummy_messages);
  printf("wall         %.3f s (%.0f messages per wall second)\n", r->wall_seconds,
         r->wall_seconds > 0 ? (double)r->n_transfers / r->wall_seconds : 0);
  if (opt->model == NS_MODEL_NS3)
    printf("packets      %" G_GUINT64_FORMAT " queued over all hops, %" G_GUINT64_FORMAT
           " dropped (%.0f per wall second)\n", r->packets, r->packet_drops,
           r->wall_seconds > 0 ? (double)r->packets / r->wall_seconds : 0);
  const NsEdgeUse *u = ns_link_use_edges(use);
  int n = MIN(ns_topology_n_edges(t), 6);
  printf("busiest links (bytes from routes, utilisation over the run):\n");
  for (int i = 0; i < n; i++) {
    g_autofree char *name = ns_topology_edge_name(t, u[i].edge);
    g_autofree char *b = ns_format_bytes(u[i].bytes);
    printf("  %-20s %12s  %5.1f %%\n", name, b, 100.0 * u[i].busy);
  }
}

static void print_json(const NsTopology *t, const NsSchedule *s, const NsSimOptions *opt,
                       const NsSimResult *r, uint64_t msize, const NsLinkUse *use,
                       gboolean transfers, const NsSimRuns *runs)
{
  g_autoptr(JsonBuilder) b = json_builder_new();
  json_builder_begin_object(b);
#define MEMBER(name, kind, value) \
  do { json_builder_set_member_name(b, name); json_builder_add_##kind##_value(b, value); } while (0)
  MEMBER("format", string, "netsched-simulation");
  MEMBER("version", int, 1);
  MEMBER("topology", string, ns_topology_source(t));
  MEMBER("collective", string, ns_collective_name(s->collective));
  MEMBER("algorithm", string, s->algorithm);
  MEMBER("model", string, ns_net_model_name(opt->model));
  MEMBER("sync", string, r->sync);
  MEMBER("msize_bytes", int, (gint64)msize);
  MEMBER("machines", int, r->n_machines);
  MEMBER("valid", boolean, r->valid);
  MEMBER("completion_s", double, r->completion);
  MEMBER("bound_s", double, r->bound);
  MEMBER("ratio", double, r->ratio);
  MEMBER("throughput_bps", double, r->throughput);
  MEMBER("data_messages", int, (gint64)r->n_transfers);
  MEMBER("sync_messages", int, (gint64)r->n_sync_messages);
  MEMBER("dummy_messages", int, (gint64)r->n_dummy_messages);
  MEMBER("wall_s", double, r->wall_seconds);
  if (opt->model == NS_MODEL_NS3) { /* packets queued over all hops, and dropped */
    MEMBER("packets", int, (gint64)r->packets);
    MEMBER("packet_drops", int, (gint64)r->packet_drops);
    MEMBER("packets_per_wall_s", double,
           r->wall_seconds > 0 ? (double)r->packets / r->wall_seconds : 0);
  }
  if (runs != NULL) { /* sorted completion times of every run; the rest is run 0's */
    json_builder_set_member_name(b, "runs");
    json_builder_begin_object(b);
    const GArray *times = runs->sorted;
    MEMBER("n", int, times->len);
    MEMBER("min_s", double, g_array_index(times, double, 0));
    MEMBER("median_s", double, runs->median);
    MEMBER("max_s", double, g_array_index(times, double, times->len - 1));
    json_builder_set_member_name(b, "completion_s");
    json_builder_begin_array(b);
    for (guint k = 0; k < times->len; k++)
      json_builder_add_double_value(b, g_array_index(times, double, k));
    json_builder_end_array(b);
    json_builder_end_object(b);
  }
  json_builder_set_member_name(b, "finish_s");
  json_builder_begin_object(b);
  for (int m = 0; m < r->n_machines; m++)
    MEMBER(s->machines[m], double, r->finish[m]);
  json_builder_end_object(b);
  if (r->arrival != NULL) { /* the process arrival pattern (docs/arrival.md) */
    const NsArrivalStats *a = &r->arrival_stats;
    json_builder_set_member_name(b, "arrival");
    json_builder_begin_object(b);
    MEMBER("pattern", string, opt->arrival->canonical);
    MEMBER("unit_s", double, a->unit_s);
    MEMBER("avg_imbalance_factor", double, a->avg_imbalance);
    MEMBER("max_imbalance_factor", double, a->max_imbalance);
    MEMBER("per_node_time_s", double, a->mean_node_s);
    MEMBER("span_s", double, a->span_s);
    json_builder_set_member_name(b, "arrival_s");
    json_builder_begin_object(b);
    for (int m = 0; m < r->n_machines; m++)
      MEMBER(s->machines[m], double, r->arrival[m]);
    json_builder_end_object(b);
    json_builder_end_object(b);
  }
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  const NsEdgeUse *u = ns_link_use_edges(use);
  for (int i = 0; i < ns_topology_n_edges(t); i++) {
    if (u[i].bytes == 0)
      break;
    g_autofree char *name = ns_topology_edge_name(t, u[i].edge);
    json_builder_begin_object(b);
    MEMBER("edge", string, name);
    MEMBER("bytes", double, u[i].bytes);
    MEMBER("utilisation", double, u[i].busy);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  if (transfers) {
    json_builder_set_member_name(b, "transfers");
    json_builder_begin_array(b);
    for (uint64_t k = 0; k < r->n_transfers; k++) {
      json_builder_begin_array(b);
      json_builder_add_double_value(b, r->start[k]);
      json_builder_add_double_value(b, r->end[k]);
      json_builder_end_array(b);
    }
    json_builder_end_array(b);
  }
#undef MEMBER
  json_builder_end_object(b);
  ns_cli_print_json(b);
}

/* CSV: one line per transfer (phase, src, dst, bytes, start, end);
 * machine names quoted per RFC 4180. */
static gboolean write_transfers_csv(const NsSchedule *s, const NsSimResult *r, uint64_t msize,
                                    const char *path, GError **error)
{
  FILE *f = ns_cli_open_output(path, error);
  if (f == NULL)
    return FALSE;
  fprintf(f, "transfer,phase,src,dst,bytes,start_s,end_s\n");
  GString *row = g_string_new(NULL);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    for (uint64_t k = first; k < first + n; k++) {
      const NsTransfer *tr = ns_schedule_transfer(s, k);
      g_string_truncate(row, 0);
      ns_csv_appendf(row, "%" G_GUINT64_FORMAT, k);
      ns_csv_appendf(row, "%u", ph);
      ns_csv_append(row, s->machines[tr->src]);
      ns_csv_append(row, s->machines[tr->dst]);
      ns_csv_appendf(row, "%.0f", (double)ns_schedule_transfer_bytes_at(s, tr, msize));
      ns_csv_appendf(row, "%.9f", r->start[k]);
      ns_csv_appendf(row, "%.9f", r->end[k]);
      fprintf(f, "%s\n", row->str);
    }
  }
  g_string_free(row, TRUE);
  return ns_cli_close_output(f, path, error);
}

/* CSV: utilisation of the busiest edges over time (50 bins). */
static gboolean write_timeline_csv(const NsTopology *t, const NsSimResult *r,
                                   const NsLinkUse *use, const char *path, GError **error)
{
  const int bins = 50, top = 4;
  FILE *f = ns_cli_open_output(path, error);
  if (f == NULL)
    return FALSE;
  const NsEdgeUse *u = ns_link_use_edges(use);
  int n = MIN(top, ns_topology_n_edges(t));
  int edges[4];
  double *busy = g_new(double, (gsize)bins * MAX(n, 1));
  GString *header = g_string_new("time_s");
  for (int i = 0; i < n; i++) {
    g_autofree char *name = ns_topology_edge_name(t, u[i].edge);
    ns_csv_append(header, name);
    edges[i] = u[i].edge;
  }
  ns_link_use_timeline(use, edges, n, r->start, r->end, bins, busy);
  fprintf(f, "%s\n", header->str);
  g_string_free(header, TRUE);
  for (int k = 0; k < bins; k++) {
    fprintf(f, "%.9f", (k + 0.5) * r->completion / bins);
    for (int i = 0; i < n; i++)
      fprintf(f, ",%.4f", busy[(gsize)i * bins + k]);
    fputc('\n', f);
  }
  g_free(busy);
  return ns_cli_close_output(f, path, error);
}

int ns_cmd_simulate(int argc, char **argv)
{
  NsPlanOptions po = { 0 };
  char *model = NULL, *sync = NULL;
  char *tcp = NULL, *trace = NULL, *transfers_csv = NULL, *timeline_csv = NULL;
  char *ti_trace = NULL, *goal = NULL;
  FILE *trace_out = NULL, *goal_out = NULL;
  char *store_forward = NULL, *calibration = NULL, *arrival = NULL, *eager_threshold = NULL, *reduce_rate = NULL;
  char **cfg = NULL, **ns3 = NULL;
  gboolean json = FALSE, json_transfers = FALSE, hardware_barrier = FALSE, allow_invalid = FALSE;
  gboolean list_ns3 = FALSE;
  int queue = 100, segment_size = 1000, runs = 1, jobs_given = 0, jobs = 1;
  NsCliNs3Args ns3_args;
  ns_cli_ns3_args_init(&ns3_args);
  double wall_limit = 0;
  NsSimRuns run_times = { 0 };
  GOptionEntry entries[] = {
    { "model", 'M', 0, G_OPTION_ARG_STRING, &model, "Network model (default ideal)",
      "ideal|tcp|smpi|packet|ns3" },
    { "sync", 'S', 0, G_OPTION_ARG_STRING, &sync,
      "Synchronisation scheme of phased schedules (default: the algorithm's, else none)",
      "SCHEME" },
    { "calibration", 0, 0, G_OPTION_ARG_STRING, &calibration,
      "SMPI model with a calibration's factors (netsched calibrate): a file or a bundled name "
      "(lemieux, beowulf-gige)", "FILE|NAME" },
    { "hardware-barrier", 0, 0, G_OPTION_ARG_NONE, &hardware_barrier,
      "Barriers as dedicated hardware (PAPERS, Faraj-Yuan §5): no messages", NULL },
    { "queue", 0, 0, G_OPTION_ARG_INT, &queue, "packet: switch queue size in packets (default 100)",
      "N" },
    { "tcp", 0, 0, G_OPTION_ARG_STRING, &tcp, "packet: TCP variant (default Cubic)", "Cubic|NewReno" },
    { "segment-size", 0, 0, G_OPTION_ARG_INT, &segment_size,
      "packet: TCP segment size in bytes (default 1000)", "BYTES" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs_given,
      "--runs: simulations at once, in worker processes; the output is the same for every N "
      "(default: the cores)", "N" },
    { "cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cfg, "Any SimGrid option (repeatable)",
      "NAME:VALUE" },
    { "ns3", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ns3,
      "packet: any ns-3 attribute default (repeatable), e.g. ns3::TcpSocket::InitialCwnd=10",
      "ATTR=VALUE" },
    { "list-ns3", 0, 0, G_OPTION_ARG_NONE, &list_ns3,
      "List the ns-3 attributes --ns3 accepts, with their kinds and ranges, and exit", NULL },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace, "Write a Paje trace (for ViTE)", "FILE" },
    { "ti-trace", 0, 0, G_OPTION_ARG_FILENAME, &ti_trace,
      "Write what was replayed as a SimGrid time-independent trace into DIR (trace.txt, "
      "rank-R.txt, platform.xml with the schedule's routes, hostfile), and print the smpirun "
      "command that replays it with this run's model and --cfg", "DIR" },
    { "goal", 0, 0, G_OPTION_ARG_FILENAME, &goal,
      "Write what was replayed as a GOAL schedule (LogGOPSim, htsim)", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the measurements as JSON", NULL },
    { "json-transfers", 0, 0, G_OPTION_ARG_NONE, &json_transfers,
      "With --json: include every transfer's start and end", NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &transfers_csv,
      "Write per-transfer start/end times as CSV", "FILE" },
    { "timeline", 0, 0, G_OPTION_ARG_FILENAME, &timeline_csv,
      "Write the busiest links' utilisation over time as CSV", "FILE" },
    { "wall-limit", 0, 0, G_OPTION_ARG_DOUBLE, &wall_limit,
      "Kill the simulation after this many wall seconds (at most " G_STRINGIFY(NS_SIM_MAX_WALL_LIMIT) "; 0: never)", "S" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs,
      "packet: simulate N times, each with another FqCoDel flow-hash salt (run 0: ns-3's "
      "default); prints the fastest, median and slowest completion (default 1)", "N" },
    { "store-forward", 0, 0, G_OPTION_ARG_STRING, &store_forward,
      "Fluid models: each store-and-forward switch delays a message by one packet of SIZE "
      "(default: none, cut-through latencies)", "SIZE" },
    { "arrival", 0, 0, G_OPTION_ARG_STRING, &arrival,
      "Process arrival pattern (docs/arrival.md): balanced, random:AVG,MAX[,seed=S] "
      "(δ̄/T = AVG, ω/T = MAX) or file:PATH (NAME SECONDS lines); reports δ̄/T, ω/T, ē and "
      "the span", "SPEC" },
    { "reduce-rate", 0, 0, G_OPTION_ARG_STRING, &reduce_rate, NS_CLI_REDUCE_RATE_HELP, "RATE|0" },
    { "eager-threshold", 0, 0, G_OPTION_ARG_STRING, &eager_threshold, NS_CLI_EAGER_HELP,
      "SIZE" },
    { "allow-invalid", 0, 0, G_OPTION_ARG_NONE, &allow_invalid,
      "Replay a schedule that fails verification (data flow, completeness, sync); the result "
      "is marked INVALID", NULL },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("[SCHEDULE.json] - simulate on SimGrid");
  g_option_context_set_summary(
      ctx, "Replays a schedule on SimGrid (one actor per machine) and reports the\n"
           "completion time against the bound, throughput, per-machine finish times and\n"
           "link loads. Models: ideal (fluid, no correction factors), tcp (SimGrid LV08),\n"
           "smpi (SMPI factors), packet (ns-3 store-and-forward with TCP, SimGrid's binding),\n"
           "ns3 (ns-3 driven by netsched: its routes, persistent TCP connections).");
  g_autofree char *desc = g_strdup_printf(
      "Sync schemes: %s.\n"
      "Fluid models share bandwidth max-min without loss, so everything-at-once already\n"
      "reaches the bound there; contention penalties appear only with --model packet.\n"
      "Example:\n  netsched simulate -T scenarios/topologies/faraj-c.topo -a faraj -S sender-all "
      "-m 64KiB\n",
      ns_sync_scheme_names());
  g_option_context_set_description(ctx, desc);
  ns_cli_add_plan_options(ctx, &po);
  g_option_context_add_main_entries(ctx, entries, NULL);
  ns_cli_ns3_args_add(ctx, &ns3_args);
  NsProgressArgs progress_args = { 0 };
  ns_progress_args_add(ctx, &progress_args);
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsSchedule) s = NULL;
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  NsSimResult r = { 0 };
  g_autoptr(NsLinkUse) use = NULL;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (list_ns3) {
    g_autofree char *names = ns_ns3_attribute_names();
    fputs(names, stdout);
    status = 0;
    goto out;
  }
  if ((po.algorithm == NULL && argc != 2) || (po.algorithm != NULL && argc != 1)) {
    status = ns_cli_usage("simulate", "give one SCHEDULE file, or --algorithm to plan one");
    goto out;
  }
  uint64_t msize, segment;
  if (!ns_cli_plan_sizes(&po, &msize, &segment, &error) ||
      (model != NULL && !ns_net_model_parse(model, &opt.model, &error)) ||
      (sync != NULL && !ns_sync_scheme_parse(sync, &opt.sync, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (calibration != NULL) {
    g_autoptr(NsCalibration) cal = ns_calibration_load(calibration, &error);
    if (cal == NULL) {
      status = ns_cli_fail(error);
      goto out;
    }
    if (model != NULL && opt.model != NS_MODEL_SMPI) {
      status = ns_cli_usage("simulate", "--calibration simulates with the smpi model, not %s",
                            model);
      goto out;
    }
    ns_sim_options_calibrate(&opt, cal);
  }
  if (store_forward != NULL &&
      !ns_cli_parse_size("--store-forward", store_forward, &opt.store_forward_packet, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (eager_threshold != NULL &&
      !ns_cli_eager_threshold(eager_threshold, &opt.eager_threshold, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (reduce_rate != NULL && !ns_cli_reduce_rate(reduce_rate, &opt.reduce_rate, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (arrival != NULL && (opt.arrival = ns_cli_arrival(arrival, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (trace != NULL && !ns_cli_check_writable(trace, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (!ns_cli_jobs(jobs_given, &jobs, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (runs < 1 || runs > 1000) {
    status = ns_cli_usage("simulate", "--runs takes 1 to 1000");
    goto out;
  }
  if (!(wall_limit >= 0 && wall_limit <= NS_SIM_MAX_WALL_LIMIT)) {
    status = ns_cli_usage("simulate", "--wall-limit must be a number of seconds from 0 (none) "
                                      "to " G_STRINGIFY(NS_SIM_MAX_WALL_LIMIT) ", not %g",
                          wall_limit);
    goto out;
  }
  if (queue < 1 || segment_size < 64) {
    status = ns_cli_usage("simulate", "--queue must be >= 1 and --segment-size >= 64");
    goto out;
  }
  int bad_ns3 = ns_cli_ns3_args_apply(&ns3_args, "simulate", &opt);
  if (bad_ns3 != 0) {
    status = bad_ns3;
    goto out;
  }
  /* ns-3 itself knows more variants than SimGrid's binding (ns3::Tcp<NAME>,
   * checked by netsched-ns3). */
  if (opt.model != NS_MODEL_NS3 && tcp != NULL && strcmp(tcp, "Cubic") != 0 &&
      strcmp(tcp, "NewReno") != 0) {
    status = ns_cli_usage("simulate", "--tcp takes Cubic or NewReno (ns-3's Reno and Tahoe abort "
                                      "in SimGrid 3.32)");
    goto out;
  }
  /* --msize resizes the chunks of a schedule read from a file; a schedule
   * planned here already has them (for bcast: the segment size). */
  opt.msize = po.algorithm != NULL || po.msize == NULL ? 0 : msize;
  opt.sync_set = sync != NULL;
  opt.hardware_barrier = hardware_barrier;
  opt.queue_packets = queue;
  opt.segment_size = segment_size;
  opt.tcp_variant = g_strdup(tcp);
  opt.wall_limit = wall_limit;
  opt.allow_invalid = allow_invalid;
  if (!ns_progress_args_reporter(&progress_args, stderr, "simulate", runs > 1 ? "runs" : NULL,
                                 &opt.progress, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  for (int i = 0; cfg != NULL && cfg[i] != NULL; i++)
    g_ptr_array_add(opt.cfg, g_strdup(cfg[i]));
  for (int i = 0; ns3 != NULL && ns3[i] != NULL; i++)
    g_ptr_array_add(opt.ns3, g_strdup(ns3[i]));
  if (opt.ns3->len > 0 && !ns_ns3_attributes_check(opt.ns3, opt.segment_size, &error)) {
    status = ns_cli_fail(error); /* before the topology is even read */
    goto out;
  }
  if (!ns_cli_topology_and_schedule(&po, argv[1], &t, &s, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (opt.arrival != NULL && !ns_arrival_check(opt.arrival, s->n_machines, &error)) {
    g_prefix_error(&error, "--arrival: ");
    status = ns_cli_fail(error);
    goto out;
  }
  if (opt.msize != 0 && opt.msize != s->msize) {
    /* Resizing is allowed (the same phases at another size), but it is not
     * what the planner made: size-dependent choices (mpich, ompi, segment
     * counts) were taken for the schedule's own size. */
    g_autofree char *want = ns_format_size(opt.msize), *have = ns_format_size(s->msize);
    fprintf(stderr,
            "warning: simulating %s chunks, but %s was planned with %s chunks (%s); a "
            "size-dependent algorithm would have planned differently — plan again with -m %s "
            "to simulate what it would do\n",
            want, argv[1], have, s->algorithm, want);
  }
  /* The trace: written whole or not at all (a device such as /dev/full
   * directly), its write errors a message of ours, never SimGrid's. */
  if (trace != NULL && (trace_out = ns_cli_open_output(trace, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  opt.trace = trace_out;
  opt.trace_name = trace;
  /* The exports of what the (first) run replayed. */
  if (goal != NULL && (goal_out = ns_cli_open_output(goal, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsSimExport export_to = { .ti_trace_dir = ti_trace, .goal = goal_out, .goal_name = goal };
  if (ti_trace != NULL || goal != NULL)
    opt.export_to = &export_to;
  ns_progress_add_total(opt.progress, MAX(runs, 1));
  ns_progress_item(opt.progress, 1, "%s", runs > 1 ? "run 1" : s->algorithm);
  gboolean simulated = ns_simulate(t, s, &opt, &r, &error);
  ns_progress_item_done(opt.progress);
  opt.trace = NULL; /* one trace: the first run's */
  opt.export_to = NULL;
  if (simulated && trace_out != NULL) {
    FILE *f = g_steal_pointer(&trace_out);
    simulated = ns_cli_close_output(f, trace, &error);
  }
  if (simulated && goal_out != NULL) {
    FILE *f = g_steal_pointer(&goal_out);
    simulated = ns_cli_close_output(f, goal, &error);
  }
  if (!simulated || !runs_check(&opt, runs, &error) ||
      (runs > 1 && !ns_sim_more_runs(t, s, &opt, runs, jobs, TRUE, &r, &run_times, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  uint64_t used = opt.msize ? opt.msize : s->msize;
  if ((use = ns_link_use_new(t, s, r.routes, used, r.completion, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (json)
    print_json(t, s, &opt, &r, used, use, json_transfers, runs > 1 ? &run_times : NULL);
  else
    print_table(t, s, &opt, &r, used, use, runs > 1 ? &run_times : NULL);
  if ((transfers_csv != NULL && !write_transfers_csv(s, &r, used, transfers_csv, &error)) ||
      (timeline_csv != NULL && !write_timeline_csv(t, &r, use, timeline_csv, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (ti_trace != NULL) { /* the command with this replay's settings, never a generic one */
    g_autofree char *replay = ns_sim_ti_trace_command(ti_trace, &opt);
    if (replay != NULL)
      fprintf(stderr, "note: smpirun replays the trace with this run's settings: %s\n", replay);
    else
      fprintf(stderr, "note: smpirun replays the trace on SimGrid's fluid models only (-M "
                      "ideal, tcp or smpi), not on the %s model\n",
              ns_net_model_name(opt.model));
  }
  status = 0;
out:
  if (trace_out != NULL)
    ns_cli_abort_output(trace_out);
  if (goal_out != NULL)
    ns_cli_abort_output(goal_out);
  ns_sim_result_clear(&r);
  ns_sim_runs_clear(&run_times);
  ns_progress_free(opt.progress);
  opt.progress = NULL;
  ns_sim_options_clear(&opt);
  ns_progress_args_clear(&progress_args);
  ns_cli_plan_options_clear(&po);
  g_free(model); g_free(sync); g_free(tcp); ns_cli_ns3_args_clear(&ns3_args);
  g_free(trace); g_free(ti_trace); g_free(goal); g_free(transfers_csv); g_free(timeline_csv); g_free(store_forward);
  g_free(calibration);
  g_free(arrival);
  g_free(eager_threshold);
  g_free(reduce_rate);
  g_strfreev(cfg);
  g_strfreev(ns3);
  return status;
}
