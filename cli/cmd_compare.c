/* netsched compare — plan, verify and simulate algorithms x message sizes;
 * one table, one CSV (written row by row, resumable) and a gnuplot plot of
 * throughput against message size with the bound drawn in. */
#include "cli/cli.h"
#include "platforms/error.h"
#include "platforms/units.h"
#include "sched/verify.h"
#include "sim/sim.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char *label;         /* "faraj:sender-all" */
  char *algorithm;
  char *sync;          /* NULL: the algorithm's default */
} Variant;

/* "8KiB..1MiB" (powers of two) or "8KiB,64KiB,1MiB". */
static GArray *parse_msizes(const char *text, GError **error)
{
  GArray *sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  const char *dots = strstr(text, "..");
  if (dots != NULL) {
    g_autofree char *lo_text = g_strndup(text, (gsize)(dots - text));
    uint64_t lo, hi;
    if (!ns_cli_parse_size("--msizes", lo_text, &lo, error) ||
        !ns_cli_parse_size("--msizes", dots + 2, &hi, error))
      goto fail;
    if (hi < lo) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "--msizes %s: the range is empty", text);
      goto fail;
    }
    for (uint64_t m = lo; m <= hi && sizes->len < 64; m *= 2)
      g_array_append_val(sizes, m);
    return sizes;
  }
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    uint64_t m;
    if (!ns_cli_parse_size("--msizes", g_strstrip(parts[i]), &m, error))
      goto fail;
    g_array_append_val(sizes, m);
  }
  return sizes;
fail:
  g_array_unref(sizes);
  return NULL;
}

static GArray *parse_variants(const char *text)
{
  GArray *v = g_array_new(FALSE, FALSE, sizeof(Variant));
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    if (*item == '\0')
      continue;
    /* The scheme may itself contain a colon (sender-partial:8). */
    char *colon = strchr(item, ':');
    Variant x = { g_strdup(item), colon ? g_strndup(item, (gsize)(colon - item)) : g_strdup(item),
                  colon ? g_strdup(colon + 1) : NULL };
    g_array_append_val(v, x);
  }
  return v;
}

static void variants_free(GArray *v)
{
  for (guint i = 0; i < v->len; i++) {
    Variant *x = &g_array_index(v, Variant, i);
    g_free(x->label);
    g_free(x->algorithm);
    g_free(x->sync);
  }
  g_array_unref(v);
}

/* Rows already in the CSV (resume): "label,msize" keys. */
static GHashTable *done_rows(const char *csv)
{
  GHashTable *done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(csv, &text, NULL, NULL))
    return done;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (int i = 1; lines[i] != NULL; i++) {
    g_auto(GStrv) f = g_strsplit(lines[i], ",", 4);
    if (g_strv_length(f) >= 3)
      g_hash_table_add(done, g_strdup_printf("%s,%s", f[0], f[2]));
  }
  return done;
}

static const char csv_header[] =
    "label,algorithm,msize_bytes,model,sync,contention_free,completion_s,bound_s,ratio,"
    "throughput_mbps,bound_mbps,sync_messages,status\n";

/* gnuplot script: throughput against message size per label, the bound as
 * a dashed line; SVG and PNG. */
static gboolean write_plot(const char *dir, const char *title, const GArray *variants,
                           const GArray *sizes, GError **error)
{
  g_autofree char *gp = g_build_filename(dir, "compare.gp", NULL);
  g_autoptr(GString) s = g_string_new(NULL);
  g_string_append_printf(s,
                         "# netsched compare: throughput against message size\n"
                         "set datafile separator ','\n"
                         "set title \"%s\" noenhanced\n"
                         "set xlabel 'message size (bytes)'\nset ylabel 'aggregate throughput (Mbit/s)'\n"
                         "set logscale x 2\nset key outside right noenhanced\nset grid\n",
                         title);
  g_string_append(s, "set xtics (");
  for (guint k = 0; k < sizes->len; k++) {
    g_autofree char *label = ns_format_size(g_array_index(sizes, uint64_t, k));
    g_string_append_printf(s, "%s\"%s\" %" G_GUINT64_FORMAT, k ? ", " : "", label,
                           g_array_index(sizes, uint64_t, k));
  }
  g_string_append(s, ")\n");
  const char *terms[][2] = { { "svg size 900,500", "compare.svg" },
                             { "png size 900,500", "compare.png" } };
  for (int t = 0; t < 2; t++) {
    g_string_append_printf(s, "set terminal %s\nset output '%s'\nplot \\\n", terms[t][0],
                           terms[t][1]);
    for (guint i = 0; i < variants->len; i++) {
      const Variant *v = &g_array_index(variants, Variant, i);
      g_string_append_printf(s,
                             "  'compare.csv' using (strcol(1) eq \"%s\" && strcol(13) eq \"ok\" ? "
                             "$3 : NaN):10 with linespoints title '%s', \\\n",
                             v->label, v->label);
    }
    /* The bound is the same for every algorithm: draw it from the first
     * (failed rows keep their bound). */
    g_string_append_printf(s,
                           "  'compare.csv' using (strcol(1) eq \"%s\" && $11 > 0 ? "
                           "$3 : NaN):11 with lines dashtype 2 lc 'black' title 'bound'\n",
                           g_array_index(variants, Variant, 0).label);
  }
  if (!g_file_set_contents(gp, s->str, -1, error))
    return FALSE;
  const char *argv[] = { "gnuplot", "compare.gp", NULL };
  int status = 0;
  g_autofree char *err = NULL;
  if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                    NULL, NULL, NULL, &err, &status, NULL) ||
      !g_spawn_check_wait_status(status, NULL)) {
    fprintf(stderr, "warning: gnuplot did not draw the plot (%s); the data and script are in %s\n",
            err && *err ? g_strstrip(err) : "is gnuplot installed?", dir);
  }
  return TRUE;
}

/* The engine shared by `compare` and `scenario`: every algorithm x size. */
int ns_compare_run(const NsCompareArgs *a)
{
  int status = 2;
  GError *error = NULL;
  g_autoptr(NsTopology) t = NULL;
  GArray *sizes = NULL, *variants = NULL;
  GHashTable *done = NULL;
  FILE *csv = NULL;
  char *csv_path = NULL, *base = NULL, *title = NULL;
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  if (a->queue > 0)
    opt.queue_packets = a->queue;
  opt.tcp_variant = g_strdup(a->tcp);
  uint64_t segment = 0;
  sizes = parse_msizes(a->msizes ? a->msizes : "8KiB..256KiB", &error);
  if (sizes == NULL ||
      (a->segment != NULL && !ns_cli_parse_size("--segment", a->segment, &segment, &error)) ||
      (a->model != NULL && !ns_net_model_parse(a->model, &opt.model, &error))) {
    status = ns_cli_fail(error);
    goto out;
  }
  variants = parse_variants(a->algorithms ? a->algorithms : "faraj:sender-all,ring,simple");
  for (guint i = 0; i < variants->len; i++) {
    NsSyncScheme sc;
    const Variant *v = &g_array_index(variants, Variant, i);
    if (v->sync != NULL && !ns_sync_scheme_parse(v->sync, &sc, &error)) {
      status = ns_cli_fail(error);
      goto out;
    }
  }
  t = ns_cli_load_topology(a->topology, a->format, &error);
  if (t == NULL) {
    status = ns_cli_fail(error);
    goto out;
  }
  const char *dir = a->outdir ? a->outdir : "compare-out";
  const char *collective = a->collective ? a->collective : "alltoall";
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    status = ns_cli_fail(g_error_new(NS_ERROR, NS_ERROR_IO, "%s: cannot create: %s", dir,
                                     g_strerror(errno)));
    goto out;
  }
  csv_path = g_build_filename(dir, "compare.csv", NULL);
  done = a->resume ? done_rows(csv_path)
                   : g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  gboolean append = a->resume && g_file_test(csv_path, G_FILE_TEST_EXISTS);
  csv = fopen(csv_path, append ? "a" : "w");
  if (csv == NULL) {
    status = ns_cli_fail(g_error_new(NS_ERROR, NS_ERROR_IO, "%s: cannot write: %s", csv_path,
                                     g_strerror(errno)));
    goto out;
  }
  if (!append)
    fputs(csv_header, csv);
  printf("%-24s %10s %12s %12s %8s %12s %5s\n", "algorithm[:sync]", "msize", "time_s",
         "bound_s", "ratio", "Mbit/s", "cf");
  guint total = variants->len * sizes->len, run = 0;
  gboolean progress = isatty(STDERR_FILENO); /* a progress line for people only */
  for (guint i = 0; i < variants->len; i++) {
    const Variant *v = &g_array_index(variants, Variant, i);
    for (guint k = 0; k < sizes->len; k++) {
      uint64_t msize = g_array_index(sizes, uint64_t, k);
      g_autofree char *key = g_strdup_printf("%s,%" G_GUINT64_FORMAT, v->label, msize);
      g_autofree char *size = ns_format_size(msize);
      run++;
      if (g_hash_table_contains(done, key)) {
        printf("%-24s %10s   (kept from the previous run)\n", v->label, size);
        continue;
      }
      if (progress) {
        fprintf(stderr, "\r[%u/%u] %s %s ...   ", run, total, v->label, size);
        fflush(stderr);
      }
      GError *err = NULL;
      g_autoptr(NsSchedule) s = ns_cli_plan(t, collective, v->algorithm, msize, a->root, segment,
                                            0, &err);
      NsVerifyReport vr = { 0 };
      NsSimResult r = { 0 };
      gboolean cf = FALSE, ok = s != NULL;
      if (ok && ns_verify(t, s, NULL, &vr, &err))
        cf = vr.failures[NS_CHECK_CONTENTION] == 0;
      ns_verify_report_clear(&vr);
      /* Each row starts from its own scheme: none unless given. */
      opt.sync = (NsSyncScheme){ NS_SYNC_NONE, 0 };
      opt.sync_set = v->sync != NULL;
      if (v->sync != NULL)
        ns_sync_scheme_parse(v->sync, &opt.sync, NULL);
      opt.msize = s && s->collective == NS_COLL_BCAST ? 0 : msize;
      ok = ok && err == NULL && ns_simulate(t, s, &opt, &r, &err);
      if (progress)
        fprintf(stderr, "\r%*s\r", 60, "");
      g_autofree char *sync = g_strdup(ok                                          ? r.sync
                                       : v->sync                                   ? v->sync
                                       : s && s->execution == NS_EXEC_POSTED       ? "posted"
                                       : s && s->sync_scheme                       ? s->sync_scheme
                                                                                   : "none");
      if (ok) {
        printf("%-24s %10s %12.6f %12.6f %8.4f %12.2f %5s\n", v->label, size, r.completion,
               r.bound, r.ratio, r.throughput / 1e6, cf ? "yes" : "no");
        double bound_mbps = r.bound > 0 ? r.throughput * r.completion / r.bound / 1e6 : 0;
        fprintf(csv, "%s,%s,%" G_GUINT64_FORMAT ",%s,%s,%d,%.9f,%.9f,%.6f,%.4f,%.4f,%" G_GUINT64_FORMAT
                     ",ok\n",
                v->label, s->algorithm, msize, ns_net_model_name(opt.model), sync, cf, r.completion,
                r.bound, r.ratio, r.throughput / 1e6, bound_mbps, r.n_sync_messages);
      } else {
        printf("%-24s %10s   n/a: %s\n", v->label, size, err ? err->message : "?");
        g_autofree char *why = g_strdelimit(g_strdup(err ? err->message : "?"), ",\n", ';');
        /* The bound does not depend on the simulation: keep it (for the plot). */
        double bound = 0, bound_mbps = 0;
        if (s != NULL) {
          uint64_t used = opt.msize ? opt.msize : s->msize;
          bound = ns_sim_bound(t, s, used);
          if (bound > 0)
            bound_mbps = (double)ns_sim_required_bytes(s, used) * 8 / bound / 1e6;
        }
        fprintf(csv, "%s,%s,%" G_GUINT64_FORMAT ",%s,%s,0,,%.9f,,,%.4f,,%s\n", v->label,
                s ? s->algorithm : v->algorithm, msize, ns_net_model_name(opt.model), sync,
                bound, bound_mbps, why);
      }
      fflush(csv); /* nothing is lost if the run is interrupted */
      fflush(stdout);
      g_clear_error(&err);
      ns_sim_result_clear(&r);
    }
  }
  fclose(csv);
  csv = NULL;
  base = g_path_get_basename(ns_topology_source(t));
  title = g_strdup_printf("%s on %s (%s model)", collective, base, ns_net_model_name(opt.model));
  if (!write_plot(dir, title, variants, sizes, &error)) {
    status = ns_cli_fail(error);
    goto out;
  }
  printf("\nwrote %s, %s/compare.svg, %s/compare.png\n", csv_path, dir, dir);
  status = 0;
out:
  fflush(stdout);
  if (csv != NULL)
    fclose(csv);
  if (sizes != NULL)
    g_array_unref(sizes);
  if (variants != NULL)
    variants_free(variants);
  if (done != NULL)
    g_hash_table_unref(done);
  ns_sim_options_clear(&opt);
  g_free(csv_path);
  g_free(base);
  g_free(title);
  return status;
}

int ns_cmd_compare(int argc, char **argv)
{
  NsCompareArgs a = { 0 };
  GOptionEntry entries[] = {
    { "topology", 'T', 0, G_OPTION_ARG_FILENAME, &a.topology, "Topology file or gen:SPEC", "T" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &a.format, "Topology format (default: guessed)",
      "native|slurm|graphml" },
    { "collective", 'c', 0, G_OPTION_ARG_STRING, &a.collective, "Collective (default alltoall)",
      "NAME" },
    { "algorithms", 'a', 0, G_OPTION_ARG_STRING, &a.algorithms,
      "Comma-separated ALGORITHM[:SYNC] list (default faraj:sender-all,ring,simple)", "LIST" },
    { "msizes", 'm', 0, G_OPTION_ARG_STRING, &a.msizes,
      "Message sizes: A..B (powers of two) or a list (default 8KiB..256KiB)", "SIZES" },
    { "model", 'M', 0, G_OPTION_ARG_STRING, &a.model, "Network model (default ideal)",
      "ideal|tcp|smpi|packet" },
    { "root", 'r', 0, G_OPTION_ARG_STRING, &a.root, "bcast root", "MACHINE" },
    { "segment", 's', 0, G_OPTION_ARG_STRING, &a.segment, "bcast segment size", "SIZE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.outdir,
      "Directory for compare.csv, compare.gp, compare.svg, compare.png (default compare-out)",
      "DIR" },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &a.resume,
      "Keep the rows already in DIR/compare.csv and run only the missing ones", NULL },
    { "queue", 0, 0, G_OPTION_ARG_INT, &a.queue, "packet: switch queue size in packets (default 100)",
      "N" },
    { "tcp", 0, 0, G_OPTION_ARG_STRING, &a.tcp, "packet: TCP variant (default Cubic)", "Cubic|NewReno" },
    { NULL },
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new("- compare algorithms by simulation");
  g_option_context_set_summary(
      ctx, "Plans, verifies and simulates every algorithm x message size and prints one\n"
           "table (time, throughput, ratio to the bound); writes the CSV row by row (so an\n"
           "interrupted run can --resume) and plots throughput against message size.");
  g_option_context_set_description(
      ctx, "Example:\n  netsched compare -T scenarios/topologies/faraj-c.topo \\\n"
           "    -a faraj:sender-all,faraj:barrier-all,ring,pair,simple -m 8KiB..1MiB -M packet\n");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int status = 2;
  if (ns_cli_parse(ctx, &argc, &argv)) {
    if (argc != 1)
      status = ns_cli_usage("compare", "unexpected argument '%s'", argv[1]);
    else
      status = ns_compare_run(&a);
  }
  g_free(a.topology); g_free(a.format); g_free(a.collective); g_free(a.algorithms);
  g_free(a.msizes); g_free(a.model); g_free(a.outdir); g_free(a.root); g_free(a.segment);
  g_free(a.tcp);
  return status;
}
