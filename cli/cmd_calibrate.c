/* netsched calibrate — fit a point-to-point timing table for SimGrid's SMPI
 * network model (analysis/calibrate_internal.h), write the calibration, and check
 * the fit by simulating one message of every table size. */
#include "analysis/calibrate_internal.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sim/measure.h"
#include <math.h>
#include <string.h>

/* The route between two machines: hops, summed latency, bottleneck. */
static NsCalRoute pair_route(const NsTopology *t, int a, int b)
{
  int *edges = g_new(int, ns_topology_max_route_len(t));
  int n = ns_topology_route_machines(t, a, b, edges);
  NsCalRoute r = { n, 0, G_MAXDOUBLE };
  for (int i = 0; i < n; i++) {
    const NsLink *l = ns_topology_link(t, ns_edge_link(edges[i]));
    r.latency += l->latency;
    r.bandwidth = MIN(r.bandwidth, l->bandwidth);
  }
  g_free(edges);
  return r;
}

/* --pair A,B (default: the first two machines) -> machine indices. */
static gboolean parse_pair(const NsTopology *t, const char *text, int *a, int *b, GError **error)
{
  if (text == NULL) {
    *a = 0;
    *b = 1;
    return TRUE;
  }
  g_auto(GStrv) two = g_strsplit(text, ",", -1);
  if (g_strv_length(two) != 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--pair '%s': expected two machines A,B",
                    text);
    return FALSE;
  }
  int *out[2] = { a, b };
  for (int i = 0; i < 2; i++)
    if ((*out[i] = ns_topology_find_machine(t, g_strstrip(two[i]))) < 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--pair: '%s' is not a machine of %s",
                      two[i], ns_topology_source(t));
      return FALSE;
    }
  if (*a == *b) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--pair '%s': two different machines", text);
    return FALSE;
  }
  return TRUE;
}

/* Simulated one-way time of one message of `size` bytes from a to b. */
static gboolean simulate_one(const NsTopology *t, int a, int b, uint64_t size,
                             const NsCalibration *c, double *time, GError **error)
{
  const char *names[] = { ns_topology_machine_name(t, a), ns_topology_machine_name(t, b), NULL };
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_BCAST, "point-to-point", 2, names, size);
  s->root = 0;
  s->n_segments = 1;
  ns_schedule_add(s, 0, 1, 0);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  ns_sim_options_calibrate(&opt, c);
  NsSimResult r;
  gboolean ok = ns_simulate(t, s, &opt, &r, error);
  if (ok) {
    *time = r.completion;
    ns_sim_result_clear(&r);
  }
  ns_sim_options_clear(&opt);
  return ok;
}

/* The default topology: two machines on one switch whose links carry the
 * linear fit (rounded as the presets are). */
static char *default_topology(const GArray *table, GError **error)
{
  double lat, bw;
  if (!ns_cal_linear_fit((const NsCalPoint *)(const void *)table->data, table->len, &lat, &bw,
                         NULL, error))
    return NULL;
  g_autofree char *b = ns_format_bandwidth(ns_cal_round(bw));
  g_autofree char *l = ns_format_time(ns_cal_round(lat / 2));
  return g_strdup_printf("gen:star:2:bandwidth=%s:latency=%s", b, l);
}

static void print_report(FILE *out, const NsCalibration *c, const char *table_path)
{
  const NsCalPoint *first = &g_array_index(c->table, NsCalPoint, 0);
  const NsCalPoint *last = &g_array_index(c->table, NsCalPoint, c->table->len - 1);
  g_autofree char *s0 = ns_format_size(first->size), *s1 = ns_format_size(last->size);
  g_autofree char *rb = ns_format_bandwidth(c->route.bandwidth);
  g_autofree char *lb = ns_format_bandwidth(ns_cal_round(c->bandwidth));
  fprintf(out, "table        %s: %u sizes, %s to %s\n", table_path, c->table->len, s0, s1);
  fprintf(out, "pair         %s -> %s on %s: %d link%s, latency %.4g us, bandwidth %s\n",
          c->pair[0], c->pair[1], c->topology, c->route.hops, c->route.hops == 1 ? "" : "s",
          c->route.latency * 1e6, rb);
  fprintf(out, "linear fit   %.4g us + size / %s (per link %.4g us): off by up to %.1f %%\n",
          c->latency * c->route.hops * 1e6, lb, c->latency * 1e6, 100 * c->linear_max_error);
  fprintf(out, "lat-factor   %s\nbw-factor    %s\n", c->lat_factor, c->bw_factor);
  if (c->reduce_rate > 0) {
    g_autofree char *rate = ns_format_bandwidth(c->reduce_rate * 8);
    fprintf(out, "reduce-rate  %s (%.4g bytes/s): reductions combine at it\n", rate, c->reduce_rate);
  }
}

int ns_cmd_calibrate(int argc, char **argv)
{
  char *topology = NULL, *format = NULL, *pair = NULL, *output = NULL, *description = NULL,
       *reduce_rate = NULL;
  double tolerance = 5;
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &topology,
      "Topology to simulate on (default: two machines on one switch, links from the linear "
      "fit)", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Topology format (default: guessed)",
      "native|slurm|graphml|simgrid[:OPT]" },
    { "pair", 'p', 0, G_OPTION_ARG_STRING, &pair,
      "The machines the table was measured between (default: the first two)", "A,B" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the calibration (a key file) to FILE ('-': stdout, the report goes to stderr)",
      "FILE" },
    { "description", 'd', 0, G_OPTION_ARG_STRING, &description,
      "Description stored in the calibration", "TEXT" },
    { "tolerance", 0, 0, G_OPTION_ARG_DOUBLE, &tolerance,
      "Largest simulated error per size, in percent (default 5)", "PERCENT" },
    { "reduce-rate", 0, 0, G_OPTION_ARG_STRING, &reduce_rate,
      "Record the machines' reduction rate (bytes/s with its unit, e.g. 36GBps: "
      "scripts/measure-reduce-rate.sh measures MPI_Reduce_local); simulations under this "
      "calibration combine at it", "RATE" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("TABLE - fit a point-to-point timing table for the simulator");
  g_option_context_set_summary(
      ctx, "Fits one-way point-to-point times (a ping-pong's half round trip) between two\n"
           "machines: a plain linear fit (latency + size / bandwidth) and SimGrid SMPI\n"
           "piece-wise latency and bandwidth factors that reproduce every table size.\n"
           "Writes the calibration, then simulates one message of every size between the\n"
           "pair with it and prints table, simulated time and error per size.");
  g_option_context_set_description(
      ctx, "TABLE: one SIZE,TIME per line, units required ('4KiB,0.029ms'; K = 1000,\n"
           "Ki = 1024), '#' comments, an optional header line; sizes increasing.\n"
           "Exit status: 0 every size within the tolerance, 1 a size is not, 2 bad input.\n"
           "Use: netsched simulate --calibration FILE (bundled: lemieux, beowulf-gige).\n"
           "Example:\n  netsched calibrate scenarios/calibrations/lemieux.csv "
           "-T gen:quadrics:16 -o lemieux.ini\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  GError *error = NULL;
  FILE *report = stdout;
  g_autoptr(GArray) table = NULL;
  g_autoptr(NsTopology) t = NULL;
  g_autoptr(NsCalibration) c = NULL;
  g_autofree char *spec = NULL, *ws = NULL;
  int a = 0, b = 1;
  if (!ns_cli_parse(ctx, &argc, &argv))
    goto out;
  if (argc != 2) {
    status = ns_cli_usage("calibrate", "give one TABLE file");
    goto out;
  }
  if (!(tolerance > 0) || !isfinite(tolerance)) {
    status = ns_cli_usage("calibrate", "--tolerance must be a positive percentage");
    goto out;
  }
  double rate_bits = 0;
  const char *why = NULL;
  if (reduce_rate != NULL && !ns_parse_bandwidth(reduce_rate, &rate_bits, &why)) {
    status = ns_cli_usage("calibrate", "--reduce-rate '%s': %s", reduce_rate, why);
    goto out;
  }
  if (output != NULL && strcmp(output, "-") == 0)
    report = stderr;
  if ((table = ns_cal_table_read(argv[1], &error)) == NULL ||
      (spec = topology ? g_strdup(topology) : default_topology(table, &error)) == NULL ||
      (t = ns_cli_load_topology(spec, format, NULL, &error)) == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  if (ns_topology_n_machines(t) < 2) {
    status = ns_cli_usage("calibrate", "the topology needs two machines");
    goto out;
  }
  if (!parse_pair(t, pair, &a, &b, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  NsCalRoute route = pair_route(t, a, b);
  if ((c = ns_calibration_fit(table, &route, &error)) == NULL) {
    g_prefix_error(&error, "%s: ", argv[1]);
    status = ns_cli_fail(error);
    goto out;
  }
  c->description = g_strdup(description ? description : "");
  c->topology = g_strdup(spec);
  c->pair[0] = g_strdup(ns_topology_machine_name(t, a));
  c->pair[1] = g_strdup(ns_topology_machine_name(t, b));
  c->source = g_strdup(argv[1]);
  c->reduce_rate = rate_bits / 8;
  print_report(report, c, argv[1]);
  if (output != NULL) {
    FILE *f = ns_cli_open_output(output, &error);
    g_autofree char *data = ns_calibration_to_data(c);
    if (f == NULL || fputs(data, f) < 0 || !ns_cli_close_output(f, output, &error)) {
      status = ns_cli_fail(error);
      goto out;
    }
    if (report != stderr)
      fprintf(report, "written      %s\n", output);
  }
  /* The check: one simulated message per table size. */
  fprintf(report, "%10s %12s %12s %12s %9s %9s\n", "size", "table", "analytic", "simulated",
          "error", "linear");
  double worst = 0;
  uint64_t worst_size = 0;
  double lat = c->latency * c->route.hops, bw = c->bandwidth;
  for (guint i = 0; i < c->table->len; i++) {
    const NsCalPoint *p = &g_array_index(c->table, NsCalPoint, i);
    double sim = 0;
    if (!simulate_one(t, a, b, p->size, c, &sim, &error)) {
      status = ns_cli_fail(error);
      goto out;
    }
    double err = (sim - p->time) / p->time;
    double linear = (lat + (double)p->size * 8 / bw - p->time) / p->time;
    if (fabs(err) >= worst) {
      worst = fabs(err);
      worst_size = p->size;
    }
    g_autofree char *size = ns_format_size(p->size);
    fprintf(report, "%10s %10.3fus %10.3fus %10.3fus %+7.2f %% %+7.1f %%\n", size, p->time * 1e6,
            ns_calibration_time(c, p->size) * 1e6, sim * 1e6, 100 * err, 100 * linear);
  }
  ws = ns_format_size(worst_size);
  if (100 * worst <= tolerance) {
    fprintf(report, "verdict      PASS: every size within %g %% by simulation (largest %.3f %% at "
            "%s)\n", tolerance, 100 * worst, ws);
    status = 0;
  } else {
    fprintf(report, "verdict      FAIL: %s is off by %.2f %% by simulation (tolerance %g %%)\n",
            ws, 100 * worst, tolerance);
    status = 1;
  }
out:
  fflush(stdout);
  g_free(topology); g_free(format); g_free(pair); g_free(output); g_free(description);
  g_free(reduce_rate);
  return status;
}
