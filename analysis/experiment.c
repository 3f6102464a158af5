/* netsched — the experiment engine of compare and scenario. See experiment.h. */
#include "analysis/experiment.h"
#include "analysis/bounds_collective.h"
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "platforms/error.h"
#include "platforms/topology_digest.h"
#include "platforms/units.h"
#include "sched/sync.h"
#include "sched/verify.h"
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* ---- names -------------------------------------------------------------- */

void ns_variants_free(GArray *v)
{
  if (v == NULL)
    return;
  for (guint i = 0; i < v->len; i++) {
    NsVariant *x = &g_array_index(v, NsVariant, i);
    g_free(x->label);
    g_free(x->algorithm);
    g_free(x->sync);
  }
  g_array_unref(v);
}

static char *known_algorithms(NsCollective c)
{
  int n;
  const NsPlanner *all = ns_planners(&n);
  GString *known = g_string_new(NULL);
  for (int i = 0; i < n; i++)
    if (all[i].collective == c)
      g_string_append_printf(known, "%s%s", known->len ? ", " : "", all[i].name);
  return g_string_free(known, FALSE);
}

GArray *ns_variants_parse(const char *text, NsCollective c, GError **error)
{
  GArray *v = g_array_new(FALSE, FALSE, sizeof(NsVariant));
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    if (*item == '\0')
      continue;
    /* The scheme may itself contain a colon (sender-partial:8). */
    char *colon = strchr(item, ':');
    g_autofree char *name = colon ? g_strndup(item, (gsize)(colon - item)) : g_strdup(item);
    const NsPlanner *p = ns_planner_find(c, name);
    if (p == NULL) {
      g_autofree char *known = known_algorithms(c);
      g_autofree char *shown = g_strescape(name, NULL);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "unknown %s algorithm '%s' (known: %s)",
                      ns_collective_name(c), shown, known);
      goto fail;
    }
    NsVariant x = { .algorithm = g_strdup(p->name) };
    if (colon != NULL) {
      NsSyncScheme scheme;
      if (!ns_sync_scheme_parse(colon + 1, &scheme, error)) {
        g_free(x.algorithm);
        goto fail;
      }
      x.sync = ns_sync_scheme_to_string(&scheme);
    }
    x.label = x.sync ? g_strdup_printf("%s:%s", x.algorithm, x.sync) : g_strdup(x.algorithm);
    for (guint k = 0; k < v->len; k++)
      if (strcmp(g_array_index(v, NsVariant, k).label, x.label) == 0) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "algorithm '%s' is listed twice",
                        x.label);
        g_free(x.label);
        g_free(x.algorithm);
        g_free(x.sync);
        goto fail;
      }
    g_array_append_val(v, x);
  }
  if (v->len == 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "no algorithm given");
    goto fail;
  }
  return v;
fail:
  ns_variants_free(v);
  return NULL;
}

static gboolean parse_size(const char *option, const char *text, uint64_t *bytes, GError **error)
{
  const char *why = NULL;
  if (ns_parse_msize(text, bytes, &why))
    return TRUE;
  g_autofree char *shown = g_strescape(text, NULL);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s '%s': %s", option, shown, why);
  return FALSE;
}

/* "8KiB..1MiB": the powers of two from A to B, at most 64 of them. */
static gboolean parse_range(const char *option, const char *text, const char *dots, GArray *sizes,
                            GError **error)
{
  g_autofree char *lo_text = g_strndup(text, (gsize)(dots - text));
  uint64_t lo, hi;
  if (!parse_size(option, lo_text, &lo, error) || !parse_size(option, dots + 2, &hi, error))
    return FALSE;
  if (hi < lo) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s %s: the range is empty", option, text);
    return FALSE;
  }
  for (uint64_t m = lo; m <= hi && sizes->len < 64; m *= 2)
    g_array_append_val(sizes, m);
  return TRUE;
}

static gboolean parse_list(const char *option, const char *text, GArray *sizes, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    uint64_t m;
    if (!parse_size(option, g_strstrip(parts[i]), &m, error))
      return FALSE;
    g_array_append_val(sizes, m);
  }
  return TRUE;
}

GArray *ns_msizes_parse(const char *option, const char *text, GError **error)
{
  GArray *sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  const char *dots = strstr(text, "..");
  gboolean ok = dots != NULL ? parse_range(option, text, dots, sizes, error)
                             : parse_list(option, text, sizes, error);
  if (!ok) {
    g_array_unref(sizes);
    return NULL;
  }
  return sizes;
}

/* ---- rows ----------------------------------------------------------------- */

static const char csv_header[] =
    "config,topology,collective,model,label,algorithm,sync,msize_bytes,contention_free,valid,"
    "completion_s,bound_s,ratio,throughput_mbps,bound_mbps,sync_messages,status\n";
enum { COL_CONFIG, COL_TOPOLOGY, COL_COLLECTIVE, COL_MODEL, COL_LABEL, COL_ALGORITHM, COL_SYNC,
       COL_MSIZE, COL_CF, COL_VALID, COL_COMPLETION, COL_BOUND, COL_RATIO, COL_MBPS,
       COL_BOUND_MBPS, COL_SYNC_MESSAGES, COL_STATUS, N_COLS };

/* What the plot needs of a row, whether run now or resumed. */
typedef struct {
  gboolean present, ok;
  double mbps, bound_mbps;
} Cell;

typedef struct {
  const NsCompareSpec *spec;
  char *config;            /* digest of everything that determines a row */
  char *topology_name;
  Cell *cells;             /* variant × size */
  int fd;                  /* compare.csv, O_APPEND */
  char *csv_path;
} Run;

static Cell *cell(Run *run, guint v, guint k) { return &run->cells[v * run->spec->sizes->len + k]; }

/* A digest of the topology's contents and every setting that changes a row. */
static char *config_digest(const NsCompareSpec *spec, GError **error)
{
  g_autofree char *topo = ns_topology_digest(spec->topo);
  if (topo == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot digest the topology");
    return NULL;
  }
  g_autofree char *text = g_strdup_printf(
      "netsched-compare/2\ntopology %s\ncollective %s\nmodel %s\nsettings %s\nroot %d\n"
      "segment %" G_GUINT64_FORMAT "\narity %d\n",
      topo, ns_collective_name(spec->collective), spec->model, spec->settings ? spec->settings : "",
      spec->params.root, spec->params.segment, spec->params.arity);
  char *full = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
  full[16] = '\0'; /* 64 bits tell configurations apart */
  return full;
}

static gboolean write_row(Run *run, const GString *row, GError **error)
{
  gsize done = 0;
  while (done < row->len) { /* one write(2) in practice; loops only if the kernel splits it */
    ssize_t w = write(run->fd, row->str + done, row->len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      ns_set_error_at(error, NS_ERROR_IO, run->csv_path, 0, "cannot write: %s", g_strerror(errno));
      return FALSE;
    }
    done += (gsize)w;
  }
  return TRUE;
}

/* Index of `label` among the variants, or -1; of `msize` among the sizes. */
static int variant_index(const NsCompareSpec *spec, const char *label)
{
  for (guint i = 0; i < spec->variants->len; i++)
    if (strcmp(g_array_index(spec->variants, NsVariant, i).label, label) == 0)
      return (int)i;
  return -1;
}

static int size_index(const NsCompareSpec *spec, uint64_t msize)
{
  for (guint k = 0; k < spec->sizes->len; k++)
    if (g_array_index(spec->sizes, uint64_t, k) == msize)
      return (int)k;
  return -1;
}

/* Resume: reads the rows already in compare.csv. A last line without its
 * line end was cut short by a crash: the file is truncated before it. */
static gboolean load_done(Run *run, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  GError *io = NULL;
  if (!g_file_get_contents(run->csv_path, &text, &len, &io)) {
    gboolean missing = g_error_matches(io, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    if (!missing)
      ns_set_error_at(error, NS_ERROR_IO, run->csv_path, 0, "cannot read: %s", io->message);
    g_error_free(io);
    return missing;
  }
  if (len == 0)
    return TRUE;
  if (!g_str_has_prefix(text, csv_header)) {
    ns_set_error_at(error, NS_ERROR_INPUT, run->csv_path, 1,
                    "not a compare.csv of this netsched version (its columns differ): "
                    "choose another --output, or remove it to start over");
    return FALSE;
  }
  gsize complete = len;
  while (complete > 0 && text[complete - 1] != '\n')
    complete--;
  if (complete < len) {
    fprintf(stderr, "warning: %s: the last row was cut short (interrupted run): dropped\n",
            run->csv_path);
    if (truncate(run->csv_path, (off_t)complete) != 0) {
      ns_set_error_at(error, NS_ERROR_IO, run->csv_path, 0, "cannot truncate: %s",
                      g_strerror(errno));
      return FALSE;
    }
    text[complete] = '\0';
  }
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (int i = 1; lines[i] != NULL; i++) {
    if (lines[i][0] == '\0')
      continue;
    g_auto(GStrv) f = ns_csv_split(lines[i]);
    if (f == NULL || g_strv_length(f) != N_COLS) {
      ns_set_error_at(error, NS_ERROR_INPUT, run->csv_path, i + 1,
                      "malformed row (expected %d fields): remove the row or the file", N_COLS);
      return FALSE;
    }
    if (strcmp(f[COL_CONFIG], run->config) != 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, run->csv_path, i + 1,
                      "row of another configuration (config %s, this run %s: the topology, "
                      "model, settings or planning parameters differ); resuming would mix "
                      "them: choose another --output, or remove the file to start over",
                      f[COL_CONFIG], run->config);
      return FALSE;
    }
    int v = variant_index(run->spec, f[COL_LABEL]);
    uint64_t msize = g_ascii_strtoull(f[COL_MSIZE], NULL, 10);
    int k = size_index(run->spec, msize);
    if (v < 0 || k < 0)
      continue; /* a row this run does not ask for: kept in the file, not redone */
    Cell *c = cell(run, (guint)v, (guint)k);
    c->present = TRUE;
    c->ok = strcmp(f[COL_STATUS], "ok") == 0;
    c->mbps = g_ascii_strtod(f[COL_MBPS], NULL);
    c->bound_mbps = g_ascii_strtod(f[COL_BOUND_MBPS], NULL);
  }
  return TRUE;
}

/* Plans, verifies and measures one variant × size; writes its row. */
static gboolean run_row(Run *run, guint vi, guint k, GError **error)
{
  const NsCompareSpec *spec = run->spec;
  const NsVariant *v = &g_array_index(spec->variants, NsVariant, vi);
  uint64_t msize = g_array_index(spec->sizes, uint64_t, k);
  g_autofree char *size = ns_format_size(msize);
  GError *err = NULL;
  NsPlanParams params = spec->params;
  params.msize = msize;
  g_autoptr(NsSchedule) s = ns_plan(spec->topo, spec->collective, v->algorithm, &params, &err);
  gboolean cf = FALSE;
  if (s != NULL) {
    NsVerifyReport vr = { 0 };
    if (ns_verify(spec->topo, s, NULL, &vr, &err))
      cf = vr.failures[NS_CHECK_CONTENTION] == 0;
    ns_verify_report_clear(&vr);
  }
  NsMeasure m = { 0 };
  gboolean ok = s != NULL && err == NULL &&
                spec->measure(spec->topo, s, v, msize, &m, spec->measure_data, &err);
  /* The bound does not depend on the measurement: failed rows keep it. */
  double bound = s != NULL ? ns_collective_bound(spec->topo, s, s->msize) : 0;
  double required = s != NULL ? ns_collective_required_bytes(s, s->msize) : 0;
  double bound_mbps = bound > 0 ? required * 8.0 / bound / 1e6 : 0;
  const char *sync = ok                                      ? m.sync
                     : v->sync                               ? v->sync
                     : s && s->execution == NS_EXEC_POSTED   ? "posted"
                     : s && s->sync_scheme                   ? s->sync_scheme
                                                             : "none";
  double mbps = ok ? m.throughput_bps / 1e6 : 0;
  GString *row = g_string_new(NULL);
  ns_csv_append(row, run->config);
  ns_csv_append(row, run->topology_name);
  ns_csv_append(row, ns_collective_name(spec->collective));
  ns_csv_append(row, spec->model);
  ns_csv_append(row, v->label);
  ns_csv_append(row, s ? s->algorithm : v->algorithm);
  ns_csv_append(row, sync);
  ns_csv_appendf(row, "%" G_GUINT64_FORMAT, msize);
  ns_csv_appendf(row, "%d", cf);
  ns_csv_appendf(row, "%d", ok && m.valid);
  if (ok) {
    ns_csv_appendf(row, "%.9f", m.completion_s);
    ns_csv_appendf(row, "%.9f", bound);
    ns_csv_appendf(row, "%.6f", bound > 0 ? m.completion_s / bound : 0);
    ns_csv_appendf(row, "%.4f", mbps);
  } else {
    ns_csv_append(row, "");
    ns_csv_appendf(row, "%.9f", bound);
    ns_csv_append(row, "");
    ns_csv_append(row, "");
  }
  ns_csv_appendf(row, "%.4f", bound_mbps);
  if (ok)
    ns_csv_appendf(row, "%" G_GUINT64_FORMAT, m.sync_messages);
  else
    ns_csv_append(row, "");
  ns_csv_append(row, ok ? "ok" : err ? err->message : "?");
  g_string_append_c(row, '\n');
  gboolean written = write_row(run, row, error);
  g_string_free(row, TRUE);
  if (spec->table != NULL) {
    if (ok)
      fprintf(spec->table, "%-24s %10s %12.6f %12.6f %8.4f %12.2f %5s%s\n", v->label, size,
              m.completion_s, bound, bound > 0 ? m.completion_s / bound : 0, mbps,
              cf ? "yes" : "no", m.valid ? "" : "  INVALID");
    else
      fprintf(spec->table, "%-24s %10s   n/a: %s\n", v->label, size, err ? err->message : "?");
    fflush(spec->table);
  }
  *cell(run, vi, k) = (Cell){ TRUE, ok, mbps, bound_mbps };
  g_clear_error(&err);
  return written;
}

/* ---- the plot --------------------------------------------------------------- */

/* compare.dat: one block per variant with results ("msize mbps"), then the
 * bound ("msize bound_mbps"); blocks are separated by two blank lines, so
 * the script addresses them by index and holds no data. */
static gboolean write_plot(Run *run, GError **error)
{
  const NsCompareSpec *spec = run->spec;
  g_autoptr(GString) dat = g_string_new("# netsched compare: msize_bytes throughput_mbps\n");
  g_autoptr(GString) gp = g_string_new(NULL);
  g_autofree char *title_text = g_strdup_printf("%s on %s (%s model)",
                                                ns_collective_name(spec->collective),
                                                run->topology_name, spec->model);
  g_autofree char *title = ns_gnuplot_string(title_text);
  g_string_append_printf(gp,
                         "# netsched compare: throughput against message size.\n"
                         "# Data in compare.dat, one block per algorithm (see its comments).\n"
                         "set title %s noenhanced\n"
                         "set xlabel 'message size' noenhanced\n"
                         "set ylabel 'aggregate throughput (Mbit/s)' noenhanced\n"
                         "set logscale x 2\nset yrange [0:*]\nset offsets graph 0.04, graph 0.04, 0, 0\n"
                         "set key outside right noenhanced\nset grid\nset xtics (",
                         title);
  for (guint k = 0; k < spec->sizes->len; k++) {
    g_autofree char *label = ns_format_size(g_array_index(spec->sizes, uint64_t, k));
    g_autofree char *quoted = ns_gnuplot_string(label);
    g_string_append_printf(gp, "%s%s %" G_GUINT64_FORMAT, k ? ", " : "", quoted,
                           g_array_index(spec->sizes, uint64_t, k));
  }
  g_string_append(gp, ")\n");
  g_autoptr(GString) plot = g_string_new("plot ");
  int block = 0;
  for (guint v = 0; v < spec->variants->len; v++) {
    gboolean any = FALSE;
    for (guint k = 0; k < spec->sizes->len; k++)
      any = any || cell(run, v, k)->ok;
    if (!any)
      continue;
    const char *label = g_array_index(spec->variants, NsVariant, v).label;
    g_string_append_printf(dat, "%s# %s\n", block ? "\n\n" : "", label);
    for (guint k = 0; k < spec->sizes->len; k++)
      if (cell(run, v, k)->ok)
        g_string_append_printf(dat, "%" G_GUINT64_FORMAT " %.4f\n",
                               g_array_index(spec->sizes, uint64_t, k), cell(run, v, k)->mbps);
    g_autofree char *quoted = ns_gnuplot_string(label);
    g_string_append_printf(plot, "%s'compare.dat' index %d using 1:2 with linespoints pt %d "
                                 "title %s",
                           block ? ", \\\n     " : "", block, 1 + block % 13, quoted);
    block++;
  }
  gboolean have_bound = FALSE;
  for (guint k = 0; k < spec->sizes->len; k++) {
    double b = 0;
    for (guint v = 0; v < spec->variants->len && b <= 0; v++)
      b = cell(run, v, k)->present ? cell(run, v, k)->bound_mbps : 0;
    if (b <= 0)
      continue;
    if (!have_bound)
      g_string_append_printf(dat, "%s# bound\n", block ? "\n\n" : "");
    have_bound = TRUE;
    g_string_append_printf(dat, "%" G_GUINT64_FORMAT " %.4f\n",
                           g_array_index(spec->sizes, uint64_t, k), b);
  }
  if (have_bound)
    g_string_append_printf(plot, "%s'compare.dat' index %d using 1:2 with lines dashtype 2 "
                                 "lc 'black' title 'bound'",
                           block ? ", \\\n     " : "", block);
  if (block == 0 && !have_bound)
    return TRUE; /* nothing to draw */
  const char *terms[][2] = { { "svg size 900,500", "compare.svg" },
                             { "pngcairo size 900,500", "compare.png" } };
  for (int t = 0; t < 2; t++)
    g_string_append_printf(gp, "set terminal %s\nset output '%s'\n%s\n", terms[t][0], terms[t][1],
                           plot->str);
  g_autofree char *dat_path = g_build_filename(spec->outdir, "compare.dat", NULL);
  g_autofree char *gp_path = g_build_filename(spec->outdir, "compare.gp", NULL);
  if (!g_file_set_contents(dat_path, dat->str, -1, error) ||
      !g_file_set_contents(gp_path, gp->str, -1, error))
    return FALSE;
  g_autofree char *why = NULL;
  if (!ns_plot_run(spec->outdir, "compare.gp", &why))
    fprintf(stderr, "warning: no plot (%s); the data and script are in %s\n", why, spec->outdir);
  return TRUE;
}

/* ---- the run ------------------------------------------------------------------ */

gboolean ns_compare_experiment(const NsCompareSpec *spec, GError **error)
{
  Run run = { .spec = spec, .fd = -1 };
  gboolean ok = FALSE;
  run.config = config_digest(spec, error);
  if (run.config == NULL)
    return FALSE;
  run.topology_name = g_path_get_basename(ns_topology_source(spec->topo));
  run.cells = g_new0(Cell, (gsize)spec->variants->len * spec->sizes->len);
  run.csv_path = g_build_filename(spec->outdir, "compare.csv", NULL);
  if (g_mkdir_with_parents(spec->outdir, 0755) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, spec->outdir, 0, "cannot create: %s", g_strerror(errno));
    goto out;
  }
  if (spec->resume && !load_done(&run, error))
    goto out;
  run.fd = g_open(run.csv_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (spec->resume ? 0 : O_TRUNC),
                  0644);
  if (run.fd < 0) {
    ns_set_error_at(error, NS_ERROR_IO, run.csv_path, 0, "cannot write: %s", g_strerror(errno));
    goto out;
  }
  if (lseek(run.fd, 0, SEEK_END) == 0) {
    g_autoptr(GString) header = g_string_new(csv_header);
    if (!write_row(&run, header, error))
      goto out;
  }
  if (spec->table != NULL)
    fprintf(spec->table, "%-24s %10s %12s %12s %8s %12s %5s\n", "algorithm[:sync]", "msize",
            "time_s", "bound_s", "ratio", "Mbit/s", "cf");
  guint total = spec->variants->len * spec->sizes->len, count = 0;
  for (guint v = 0; v < spec->variants->len; v++)
    for (guint k = 0; k < spec->sizes->len; k++) {
      count++;
      const char *label = g_array_index(spec->variants, NsVariant, v).label;
      g_autofree char *size = ns_format_size(g_array_index(spec->sizes, uint64_t, k));
      if (cell(&run, v, k)->present) {
        if (spec->table != NULL)
          fprintf(spec->table, "%-24s %10s   (kept from the previous run)\n", label, size);
        continue;
      }
      if (spec->progress) {
        fprintf(stderr, "\r[%u/%u] %s %s ...   ", count, total, label, size);
        fflush(stderr);
      }
      gboolean written = run_row(&run, v, k, error);
      if (spec->progress)
        fprintf(stderr, "\r%*s\r", 60, "");
      if (!written)
        goto out;
    }
  ok = write_plot(&run, error);
  if (ok && spec->table != NULL)
    fprintf(spec->table, "\nwrote %s, %s/compare.svg, %s/compare.png\n", run.csv_path,
            spec->outdir, spec->outdir);
out:
  if (run.fd >= 0)
    close(run.fd);
  g_free(run.config);
  g_free(run.topology_name);
  g_free(run.cells);
  g_free(run.csv_path);
  return ok;
}
