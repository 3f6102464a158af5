/* netsched — the design study's outputs: design.csv, summary.csv, the
 * plots and the report (see design_internal.h for what each holds). */
#include "analysis/configure_advice_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/design_study_internal.h"
#include "analysis/plot_internal.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/units.h"
#include <math.h>
#include <string.h>

static const char *cname(const NsStudy *st, int c)
{
  return ns_collective_name(st->spec->collectives[c].collective);
}

static uint64_t size_at(const NsStudy *st, int k) { return g_array_index(st->spec->sizes, uint64_t, k); }

/* ---- design.csv and summary.csv ---------------------------------------------- */

static void append_time(GString *row, const NsStoredRow *r)
{
  if (r != NULL && r->ok)
    ns_csv_appendf(row, "%.9f", r->completion_s);
  else
    ns_csv_append(row, "");
}

static void append_ratio(GString *row, const NsStoredRow *r, double bound)
{
  if (r != NULL && r->ok && bound > 0)
    ns_csv_appendf(row, "%.6f", r->completion_s / bound);
  else
    ns_csv_append(row, "");
}

static void design_csv_rows(NsStudy *st, GString *csv)
{
  const NsDesignSpec *sp = st->spec;
  for (int c = 0; c < sp->n_collectives; c++)
    for (int d = 0; d < sp->n_designs; d++)
      for (int m = 0; m < sp->n_models; m++) {
        GPtrArray *rows = ns_study_rows(st, c, d, m);
        for (guint i = 0; i < rows->len; i++) {
          const NsStoredRow *r = g_ptr_array_index(rows, i);
          g_autoptr(GString) row = g_string_new(NULL);
          ns_csv_append(row, sp->designs[d].name);
          ns_csv_append(row, cname(st, c));
          ns_csv_append(row, sp->models[m].name);
          ns_csv_append(row, r->label);
          ns_csv_append(row, r->algorithm);
          ns_csv_append(row, r->sync);
          ns_csv_appendf(row, "%" G_GUINT64_FORMAT, r->msize);
          ns_csv_appendf(row, "%d", r->contention_free);
          ns_csv_appendf(row, "%d", r->valid);
          append_time(row, r);
          ns_csv_append_bound(row, 9, r->bound_s); /* empty: the planner refused the row */
          append_ratio(row, r, r->bound_s);
          if (r->ok)
            ns_csv_appendf(row, "%.4f", r->mbps);
          else
            ns_csv_append(row, "");
          ns_csv_append_bound(row, 4, r->bound_mbps);
          if (r->ok) {
            ns_csv_appendf(row, "%d", r->runs);
            ns_csv_appendf(row, "%.9f", r->min_s);
            ns_csv_appendf(row, "%.9f", r->max_s);
          } else {
            for (int e = 0; e < 3; e++)
              ns_csv_append(row, "");
          }
          ns_csv_append(row, r->status);
          g_string_append_printf(csv, "%s\n", row->str);
        }
      }
}

static void append_labels(GString *row, const GPtrArray *rows)
{
  g_autoptr(GString) t = g_string_new(NULL);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    g_string_append_printf(t, "%s%s", i ? " " : "",
                           ((const NsStoredRow *)g_ptr_array_index(rows, i))->label);
  ns_csv_append(row, t->str);
}

static void summary_row(NsStudy *st, GString *csv, int c, int k, int m, int d)
{
  const NsDesignSpec *sp = st->spec;
  const NsCell *cell = ns_study_cell(st, c, k, m, d);
  const NsHardware *hw = &st->hardware[d];
  g_autoptr(GString) row = g_string_new(NULL);
  ns_csv_append(row, cname(st, c));
  ns_csv_appendf(row, "%" G_GUINT64_FORMAT, size_at(st, k));
  ns_csv_append(row, sp->models[m].name);
  ns_csv_append(row, sp->designs[d].name);
  ns_csv_appendf(row, "%.9f", cell->bound_s);
  ns_csv_append(row, cell->fastest == NULL  ? "none"
                     : cell->named          ? "named"
                     : cell->tied->len > 1  ? "tie"
                                            : "shares-links");
  ns_csv_append(row, cell->fastest != NULL && cell->named ? cell->fastest->label : "");
  append_labels(row, cell->tied);
  append_time(row, cell->fastest);
  append_ratio(row, cell->fastest, cell->bound_s);
  ns_csv_append(row, cell->best ? cell->best->label : "");
  append_time(row, cell->best);
  append_ratio(row, cell->best, cell->bound_s);
  const NsStoredRow *defaults[2] = { cell->mpich, cell->ompi };
  for (int i = 0; i < 2; i++) {
    ns_csv_append(row, defaults[i] ? defaults[i]->algorithm : "");
    append_time(row, defaults[i]);
    append_ratio(row, defaults[i], cell->bound_s);
  }
  ns_csv_append(row, cell->bottleneck);
  ns_csv_appendf(row, "%d", hw->switches);
  ns_csv_appendf(row, "%d", hw->cables);
  ns_csv_appendf(row, "%d", hw->switch_ports);
  ns_csv_appendf(row, "%d", hw->nic_ports);
  if (sp->prices != NULL)
    ns_csv_appendf(row, "%.2f", st->costs[d]);
  else
    ns_csv_append(row, "");
  g_string_append_printf(csv, "%s\n", row->str);
}

gboolean ns_study_write_tables(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  g_autoptr(GString) csv = g_string_new(
      "topology,collective,model,label,algorithm,sync,msize_bytes,contention_free,valid,"
      "completion_s,bound_s,ratio,throughput_mbps,bound_mbps,runs,completion_min_s,"
      "completion_max_s,status\n");
  design_csv_rows(st, csv);
  if (!ns_output_write_in(sp->outdir, "design.csv", csv->str, (gssize)csv->len, error))
    return FALSE;
  g_string_assign(csv, "collective,msize_bytes,model,topology,bound_s,ranking,fastest,tied,"
                       "fastest_s,fastest_ratio,best_cf,best_cf_s,best_cf_ratio,mpich,mpich_s,"
                       "mpich_ratio,ompi,ompi_s,ompi_ratio,bottleneck,switches,cables,"
                       "switch_ports,machine_ports,cost\n");
  for (int c = 0; c < sp->n_collectives; c++)
    for (guint k = 0; k < sp->sizes->len; k++)
      for (int m = 0; m < sp->n_models; m++)
        for (int d = 0; d < sp->n_designs; d++)
          if (ns_design_runs_model(&sp->designs[d], m))
            summary_row(st, csv, c, (int)k, m, d);
  return ns_output_write_in(sp->outdir, "summary.csv", csv->str, (gssize)csv->len, error);
}

/* ---- plots ---------------------------------------------------------------------- */

static void dat_value(GString *dat, const NsStoredRow *r, double scale)
{
  if (r != NULL && r->ok && isfinite(scale)) /* a ratio to a bound of 0: none ("?") */
    g_string_append_printf(dat, " %.6g", r->completion_s * scale);
  else
    g_string_append(dat, " ?");
}

/* A bar's label as a double-quoted data column: labels are registry names
 * and sync schemes, but a quote or control character would end the
 * column, so those become '?'. */
static void dat_label(GString *dat, const char *text)
{
  g_string_append(dat, " \"");
  for (const char *p = text; p != NULL && *p != '\0'; p++)
    g_string_append_c(dat, *p == '"' || (unsigned char)*p < 0x20 ? '?' : *p);
  g_string_append_c(dat, '"');
}

/* The name of the fastest bar: its label, or the tie it leads. */
static char *fastest_bar_label(const NsCell *cell)
{
  if (cell->fastest == NULL)
    return g_strdup("");
  if (cell->tied != NULL && cell->tied->len > 1)
    return g_strdup_printf("%s (tie of %u)", cell->fastest->label, cell->tied->len);
  return g_strdup(cell->fastest->label);
}

/* The five bars of a cell: bound, fastest, best contention-free, MPICH's
 * and Open MPI's defaults (the bound has no row). */
static void cell_bars(const NsCell *cell, const NsStoredRow *bars[5])
{
  bars[0] = NULL;
  bars[1] = cell->fastest;
  bars[2] = cell->best;
  bars[3] = cell->mpich;
  bars[4] = cell->ompi;
}

/* COLL-MODEL.dat: one block per message size (gnuplot `index k`), one
 * line per design: name, then bound, fastest, best, MPICH, Open MPI in ms,
 * the same as ratios to the bound, then the bars' labels (fastest, best,
 * MPICH's and Open MPI's choices). Design names are [A-Za-z0-9._-]
 * (checked), so a double-quoted column is safe. */
static GString *plot_data(NsStudy *st, int c, int m)
{
  const NsDesignSpec *sp = st->spec;
  GString *dat = g_string_new(NULL);
  g_string_append_printf(dat, "# netsched design: %s, %s model\n"
                              "# design bound_ms fastest_ms best_cf_ms mpich_ms ompi_ms "
                              "bound_ratio fastest_ratio best_cf_ratio mpich_ratio ompi_ratio "
                              "fastest_label best_cf_label mpich_label ompi_label (? = none)\n",
                         cname(st, c), sp->models[m].name);
  for (guint k = 0; k < sp->sizes->len; k++) {
    g_autofree char *size = ns_format_size(size_at(st, (int)k));
    g_string_append_printf(dat, "%s# %s\n", k ? "\n\n" : "", size);
    for (int d = 0; d < sp->n_designs; d++) {
      const NsCell *cell = ns_study_cell(st, c, (int)k, m, d);
      g_string_append_printf(dat, "\"%s\" %.6g", sp->designs[d].name, cell->bound_s * 1e3);
      const NsStoredRow *r[5];
      cell_bars(cell, r);
      for (int i = 1; i < 5; i++)
        dat_value(dat, r[i], 1e3);
      g_string_append_printf(dat, " %s", cell->bound_s > 0 ? "1" : "?");
      for (int i = 1; i < 5; i++)
        dat_value(dat, r[i], cell->bound_s > 0 ? 1 / cell->bound_s : NAN);
      g_autofree char *fastest = fastest_bar_label(cell);
      dat_label(dat, fastest);
      dat_label(dat, r[2] && r[2]->ok ? r[2]->label : "");
      dat_label(dat, r[3] && r[3]->ok ? r[3]->algorithm : "");
      dat_label(dat, r[4] && r[4]->ok ? r[4]->algorithm : "");
      g_string_append_c(dat, '\n');
    }
  }
  return dat;
}

/* The tallest bar of a panel (time in ms, or ratio to the bound, where
 * the bound's line at 1 counts too), so the y range can leave headroom. */
static double panel_max(NsStudy *st, int c, int k, int m, int panel)
{
  const NsDesignSpec *sp = st->spec;
  double top = panel == 1 ? 1 : 0;
  for (int d = 0; d < sp->n_designs; d++) {
    const NsCell *cell = ns_study_cell(st, c, k, m, d);
    const NsStoredRow *r[5];
    cell_bars(cell, r);
    double scale = panel == 0 ? 1e3 : cell->bound_s > 0 ? 1 / cell->bound_s : NAN;
    if (panel == 0)
      top = MAX(top, cell->bound_s * 1e3);
    for (int i = 1; i < 5; i++)
      if (r[i] != NULL && r[i]->ok && isfinite(r[i]->completion_s * scale))
        top = MAX(top, r[i]->completion_s * scale);
  }
  return top > 0 ? top : 1;
}

/* "fastest verified 1.00-1.21x the bound; best contention-free 1.11-1.48x"
 * over every design and size of the plot: what the bars show, in words. */
static char *plot_subtitle(NsStudy *st, int c, int m)
{
  const NsDesignSpec *sp = st->spec;
  const char *names[2] = { "fastest verified", "best contention-free" };
  GString *t = g_string_new(NULL);
  for (int which = 0; which < 2; which++) {
    double lo = INFINITY, hi = -INFINITY;
    for (guint k = 0; k < sp->sizes->len; k++)
      for (int d = 0; d < sp->n_designs; d++) {
        const NsCell *cell = ns_study_cell(st, c, (int)k, m, d);
        const NsStoredRow *r = which == 0 ? cell->fastest : cell->best;
        if (r != NULL && r->ok && cell->bound_s > 0) {
          lo = MIN(lo, r->completion_s / cell->bound_s);
          hi = MAX(hi, r->completion_s / cell->bound_s);
        }
      }
    g_string_append_printf(t, "%s%s ", which ? "; " : "", names[which]);
    if (!isfinite(lo))
      g_string_append(t, "none");
    else if (hi - lo < 0.005)
      g_string_append_printf(t, "%.2fx the bound", lo);
    else
      g_string_append_printf(t, "%.2f-%.2fx the bound", lo, hi);
  }
  return g_string_free(t, FALSE);
}

/* The gnuplot commands of one plot: a row of time panels over a row of
 * ratio panels, one column per message size. Bars are boxes at computed
 * x positions (a cluster of five, or four in the ratio row, per design),
 * so each can carry its own label: the algorithm it stands for, written
 * up the bar. Colours and fill patterns both differ, so the bars stay
 * distinguishable in grey. */
static GString *plot_commands(NsStudy *st, int c, int m, const char *dat_name)
{
  const NsDesignSpec *sp = st->spec;
  static const char *const series[5] = { "bound", "fastest verified", "best contention-free",
                                         "MPICH default", "Open MPI default" };
  static const char *const colours[5] = { "#999999", "#e7298a", "#1b9e77", "#d95f02",
                                          "#7570b3" };
  g_autofree char *head_text = g_strdup_printf("%s across designs (%s model%s)", cname(st, c),
                                               sp->models[m].name,
                                               sp->models[m].fluid ? ", fluid" : ", packet-level");
  g_autofree char *sub_text = plot_subtitle(st, c, m);
  g_autofree char *head = ns_gnuplot_string(head_text);
  g_autofree char *sub = ns_gnuplot_string(sub_text);
  g_autofree char *dat = ns_gnuplot_string(dat_name);
  GString *gp = g_string_new(NULL);
  g_string_append_printf(gp,
                         "set datafile missing '?'\nset style fill pattern border -1\n"
                         "set boxwidth 0.9 absolute\nset grid ytics\n"
                         "set style textbox opaque noborder\n"
                         "set xtics rotate by -30 noenhanced scale 0\n"
                         "set multiplot layout 2,%u margins 0.09, 0.80, 0.14, 0.88 "
                         "spacing 0.07, 0.16 title %s.\"\\n\".%s noenhanced\n",
                         sp->sizes->len, head, sub);
  for (int panel = 0; panel < 2; panel++)
    for (guint k = 0; k < sp->sizes->len; k++) {
      g_autofree char *size = ns_format_size(size_at(st, (int)k));
      g_autofree char *t = ns_gnuplot_string(size);
      int slots = 5 - panel + 1; /* bars of a cluster and a gap */
      double top = panel_max(st, c, (int)k, m, panel);
      /* 12 % above the tallest bar: no bar touches the frame; a label
       * goes inside a bar taller than half the panel, above a shorter one. */
      g_string_append_printf(gp, "set title %s noenhanced\nset ylabel '%s'\n"
                                 "set yrange [0:%.6g]\nset xrange [-1:%d]\n",
                             t, panel == 0 ? "completion time (ms)" : "time / bound",
                             top * 1.12, sp->n_designs * slots - 1);
      /* One legend, right of the last time panel: the ratio panels use
       * the same colours and patterns. */
      g_string_append(gp, panel == 0 && k + 1 == sp->sizes->len
                              ? "set key at screen 0.995, screen 0.86 right top vertical "
                                "noenhanced\n"
                              : "unset key\n");
      g_string_append_printf(gp, "half = %.6g\nplot %s index %u using ($0*%d+%.1f):(0):xtic(1) "
                                 "with points ps 0 notitle",
                             top / 2, dat, k, slots, (slots - 2) / 2.0);
      for (int i = panel; i < 5; i++) { /* the ratio panel draws the bound as a line */
        int col = 2 + i + 5 * panel;
        g_autofree char *x = g_strdup_printf("($0*%d+%d)", slots, i - panel);
        g_string_append_printf(gp,
                               ", '' index %u using %s:%d with boxes title '%s' lc rgb '%s' "
                               "fill pattern %d border -1",
                               k, x, col, series[i], colours[i], i == 0 ? 3 : i + 3);
        if (i == 0)
          continue;
        int lab = 11 + i;
        /* A label left out sits at y = -1, below the panel's range, not at
         * NaN: gnuplot 5.4.4 (Debian 12) dies of SIGSEGV on a rotated
         * label series whose every point is undefined. */
        g_string_append_printf(gp,
                               ", '' index %u using %s:(column(%d) > half ? column(%d) : -1):%d "
                               "with labels boxed rotate by 90 right offset 0,-0.5 "
                               "font ',8' noenhanced notitle"
                               ", '' index %u using %s:(column(%d) > half ? -1 : column(%d)):%d "
                               "with labels rotate by 90 left offset 0,0.5 font ',8' "
                               "noenhanced notitle",
                               k, x, col, col, lab, k, x, col, col, lab);
      }
      if (panel == 1)
        g_string_append(gp, ", 1 with lines dashtype 2 lc 'black' title 'bound'");
      g_string_append_c(gp, '\n');
    }
  g_string_append(gp, "unset multiplot\n");
  return gp;
}

/* Whether OUTDIR/NAME was written (a plot gnuplot could not draw is not). */
static gboolean written(const NsDesignSpec *sp, const char *name)
{
  g_autofree char *path = g_build_filename(sp->outdir, name, NULL);
  return g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

gboolean ns_study_write_plots(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  guint width = 360 * MAX(sp->sizes->len, 2) + (guint)sp->n_designs * 60 + 200;
  for (int c = 0; c < sp->n_collectives; c++)
    for (int m = 0; m < sp->n_models; m++) {
      g_autofree char *base = g_strdup_printf("%s-%s", cname(st, c), sp->models[m].name);
      g_autofree char *dat_name = g_strdup_printf("%s.dat", base);
      g_autofree char *gp_name = g_strdup_printf("%s.gp", base);
      g_autoptr(GString) dat = plot_data(st, c, m);
      g_autoptr(GString) cmds = plot_commands(st, c, m, dat_name);
      g_autoptr(GString) gp = g_string_new("# netsched design: designs side by side; data in ");
      g_string_append_printf(gp, "%s\n", dat_name);
      const char *terms[2] = { "svg", "pngcairo" };
      g_autofree char *svg = g_strdup_printf("%s.svg", base);
      g_autofree char *png = g_strdup_printf("%s.png", base);
      const char *outputs[] = { svg, png, NULL };
      for (int t = 0; t < 2; t++) {
        g_string_append_printf(gp, "set terminal %s size %u,800\n", terms[t], width);
        ns_gnuplot_output(gp, outputs[t]);
        g_string_append(gp, cmds->str);
      }
      if (!ns_output_write_in(sp->outdir, dat_name, dat->str, (gssize)dat->len, error) ||
          !ns_output_write_in(sp->outdir, gp_name, gp->str, (gssize)gp->len, error))
        return FALSE;
      g_autofree char *why = NULL;
      if (!ns_plot_run(sp->outdir, gp_name, outputs, &why, error)) {
        if (why == NULL)
          return FALSE;
        ns_plot_warn_none(sp->warn, sp->warn_data, base, why, sp->outdir);
      }
    }
  return TRUE;
}

/* ---- the report ----------------------------------------------------------------- */

/* "1.234 s", "56.7 ms", "890 us": four significant digits. */
static char *time_text(double s)
{
  if (!(s > 0))
    return g_strdup("-");
  if (s >= 1)
    return g_strdup_printf("%.4g s", s);
  if (s >= 1e-3)
    return g_strdup_printf("%.4g ms", s * 1e3);
  return g_strdup_printf("%.4g us", s * 1e6);
}

/* "faraj:sender-all" or "tie: shift, ring" (a fluid model's), or "-". */
static char *fastest_text(const NsCell *cell)
{
  if (cell->fastest == NULL)
    return g_strdup("-");
  if (cell->named || cell->tied->len == 1)
    return g_strdup_printf("%s%s", cell->fastest->label,
                           cell->fastest->contention_free ? "" : " (shares links)");
  GString *t = g_string_new("tie: ");
  guint shown = MIN(cell->tied->len, 6);
  for (guint i = 0; i < shown; i++)
    g_string_append_printf(t, "%s%s", i ? ", " : "",
                           ((const NsStoredRow *)g_ptr_array_index(cell->tied, i))->label);
  if (cell->tied->len > shown)
    g_string_append_printf(t, " and %u more", cell->tied->len - shown);
  return g_string_free(t, FALSE);
}

static char *row_text(const NsStoredRow *r, double bound, gboolean algorithm)
{
  if (r == NULL)
    return g_strdup("-");
  const char *name = algorithm ? r->algorithm : r->label;
  if (!r->ok)
    return g_strdup_printf("%s: n/a", name);
  g_autofree char *t = time_text(r->completion_s);
  if (!(bound > 0))
    return g_strdup_printf("%s %s", name, t);
  return g_strdup_printf("%s %s (%.2fx bound)", name, t, r->completion_s / bound);
}

static void report_designs(NsStudy *st, GString *md)
{
  const NsDesignSpec *sp = st->spec;
  g_string_append(md, "| design | description | switches | cables | switch ports | machine ports |");
  g_string_append(md, sp->prices ? " cost |\n|---|---|---|---|---|---|---|\n"
                                 : "\n|---|---|---|---|---|---|\n");
  for (int d = 0; d < sp->n_designs; d++) {
    const NsHardware *hw = &st->hardware[d];
    g_string_append_printf(md, "| %s | %s | %d | %d | %d | %d |", sp->designs[d].name,
                           sp->designs[d].description ? sp->designs[d].description : "",
                           hw->switches, hw->cables, hw->switch_ports, hw->nic_ports);
    if (sp->prices)
      g_string_append_printf(md, " %.0f %s |", st->costs[d], ns_prices_currency(sp->prices));
    g_string_append_c(md, '\n');
  }
}

/* The model two designs are compared under: the first non-fluid model
 * where both completed a schedule, else the first model where both did. */
static int common_model(NsStudy *st, int c, int k, int d1, int d2)
{
  const NsDesignSpec *sp = st->spec;
  for (int pass = 0; pass < 2; pass++)
    for (int m = 0; m < sp->n_models; m++)
      if ((pass == 1 || !sp->models[m].fluid) && ns_study_cell(st, c, k, m, d1)->fastest &&
          ns_study_cell(st, c, k, m, d2)->fastest)
        return m;
  return -1;
}

static const NsStoredRow *fastest_row(NsStudy *st, int c, int k, int m, int d)
{
  return ns_study_cell(st, c, k, m, d)->fastest;
}

static double fastest_s(NsStudy *st, int c, int k, int m, int d)
{
  return fastest_row(st, c, k, m, d)->completion_s;
}

/* "18.86 ms (1.01x single's time; 5 runs: 18.2 ms to 19.4 ms)": the time,
 * its ratio to the fastest design's (none for that one) and, with several
 * runs, their spread. */
static char *ranked_text(const NsStoredRow *r, const NsStoredRow *top, const char *top_name)
{
  g_autofree char *t = time_text(r->completion_s);
  GString *s = g_string_new(t);
  const char *open = " (";
  if (r != top && top->completion_s > 0) {
    g_string_append_printf(s, "%s%.2fx %s's time", open, r->completion_s / top->completion_s,
                           top_name);
    open = "; ";
  } else if (r != top) { /* nothing moved: no ratio */
    g_string_append_printf(s, "%s%s's time n/a", open, top_name);
    open = "; ";
  }
  if (r->runs > 1) {
    g_autofree char *lo = time_text(r->min_s), *hi = time_text(r->max_s);
    g_string_append_printf(s, "%s%d runs: %s to %s", open, r->runs, lo, hi);
    open = "; ";
  }
  if (open[0] == ';')
    g_string_append_c(s, ')');
  return g_string_free(s, FALSE);
}

/* Why two rows tie under model m, for the report. */
static char *tie_reason(const NsDesignModel *model, const NsStoredRow *r)
{
  if (model->fluid)
    return g_strdup_printf("tie within %.0f %% (a fluid model's times)", NS_DESIGN_FLUID_TIE * 100);
  return g_strdup(r->runs > 1 ? "tie within run-to-run spread"
                               : "tie (equal times in one run each)");
}

/* Designs ranked under model m by their fastest verified schedule; every
 * ratio is to the fastest design's time, and the designs whose times the
 * model cannot separate from it (ns_study_rows_tie) share first place. */
static void report_ranking(NsStudy *st, GString *md, int c, int k, int m)
{
  const NsDesignSpec *sp = st->spec;
  g_autofree int *order = g_new(int, (gsize)sp->n_designs);
  int n = 0;
  for (int d = 0; d < sp->n_designs; d++)
    if (ns_design_runs_model(&sp->designs[d], m) && ns_study_cell(st, c, k, m, d)->fastest != NULL)
      order[n++] = d;
  for (int i = 1; i < n; i++) /* insertion sort: a handful of designs */
    for (int j = i; j > 0 && fastest_s(st, c, k, m, order[j]) < fastest_s(st, c, k, m, order[j - 1]);
         j--) {
      int x = order[j];
      order[j] = order[j - 1];
      order[j - 1] = x;
    }
  if (n == 0)
    return;
  const NsStoredRow *top = fastest_row(st, c, k, m, order[0]);
  const char *first = sp->designs[order[0]].name;
  int tied = 1;
  while (tied < n &&
         ns_study_rows_tie(sp->models[m].fluid, top, fastest_row(st, c, k, m, order[tied])))
    tied++;
  g_string_append_printf(md, "\nFastest under %s: ", sp->models[m].name);
  g_autofree char *why = tie_reason(&sp->models[m], top);
  if (tied > 1)
    g_string_append_printf(md, "%s between ", why);
  for (int i = 0; i < n; i++) {
    const NsStoredRow *r = fastest_row(st, c, k, m, order[i]);
    g_autofree char *tt = ranked_text(r, top, first);
    const char *name = sp->designs[order[i]].name;
    if (i == 0)
      g_string_append_printf(md, "**%s** %s", name, tt);
    else if (i < tied)
      g_string_append_printf(md, "%s**%s** %s", i + 1 == tied ? " and " : ", ", name, tt);
    else
      g_string_append_printf(md, "%s%s %s", i == tied && tied > 1 ? "; then " : "; ", name, tt);
  }
  g_string_append(md, ".\n");
}

static void report_size(NsStudy *st, GString *md, int c, int k)
{
  const NsDesignSpec *sp = st->spec;
  g_autofree char *size = ns_format_size(size_at(st, k));
  g_string_append_printf(md, "\n### %s, %s\n\n", cname(st, c), size);
  const NsDesignCollective *dc = &sp->collectives[c];
  if (dc->pattern != NULL) /* what the sizes of this table are */
    g_string_append_printf(md, "Size pattern `%s`%s; the bound is the pattern's (ports and "
                               "routed links, in bytes).\n\n",
                           dc->pattern,
                           ns_pattern_axis_scaled(dc->pattern) ? ", scaled to this size" : "");
  g_string_append(md, "| design | model | bound | fastest verified | time | x bound "
                      "| best contention-free | MPICH default | Open MPI default | bottleneck |\n"
                      "|---|---|---|---|---|---|---|---|---|---|\n");
  for (int d = 0; d < sp->n_designs; d++)
    for (int m = 0; m < sp->n_models; m++) {
      if (!ns_design_runs_model(&sp->designs[d], m))
        continue;
      const NsCell *cell = ns_study_cell(st, c, k, m, d);
      g_autofree char *bound = time_text(cell->bound_s);
      g_autofree char *fastest = fastest_text(cell);
      g_autofree char *t = cell->fastest ? time_text(cell->fastest->completion_s) : g_strdup("-");
      g_autofree char *cf = row_text(cell->best, cell->bound_s, FALSE);
      g_autofree char *mp = row_text(cell->mpich, cell->bound_s, TRUE);
      g_autofree char *om = row_text(cell->ompi, cell->bound_s, TRUE);
      g_string_append_printf(md, "| %s | %s%s | %s | %s | %s | ", sp->designs[d].name,
                             sp->models[m].name, sp->models[m].fluid ? " (fluid)" : "", bound,
                             fastest, t);
      if (cell->fastest && cell->bound_s > 0)
        g_string_append_printf(md, "%.3f", cell->fastest->completion_s / cell->bound_s);
      else
        g_string_append(md, "-");
      g_string_append_printf(md, " | %s | %s | %s | %s |\n", cf, mp, om, cell->bottleneck);
    }
  for (int m = 0; m < sp->n_models; m++)
    report_ranking(st, md, c, k, m);
}

/* "10 Gbit/s uplinks: alltoall 1MiB 9.8x faster" for every design that
 * names the design it changes one part of. */
static void report_changes(NsStudy *st, GString *md)
{
  const NsDesignSpec *sp = st->spec;
  gboolean header = FALSE;
  for (int d = 0; d < sp->n_designs; d++) {
    const NsDesign *ds = &sp->designs[d];
    if (ds->versus == NULL)
      continue;
    int v = 0;
    while (strcmp(sp->designs[v].name, ds->versus) != 0)
      v++;
    if (!header)
      g_string_append(md, "\n## What changing one part buys\n\n");
    header = TRUE;
    g_string_append_printf(md, "- **%s** vs %s (%s):", ds->name, ds->versus,
                           ds->change ? ds->change : "the change");
    for (int c = 0; c < sp->n_collectives; c++)
      for (guint k = 0; k < sp->sizes->len; k++) {
        int m = common_model(st, c, (int)k, d, v);
        g_autofree char *size = ns_format_size(size_at(st, (int)k));
        if (m < 0) {
          g_string_append_printf(md, " %s %s: no model completed both;", cname(st, c), size);
          continue;
        }
        double r = fastest_s(st, c, (int)k, m, v) / fastest_s(st, c, (int)k, m, d);
        const NsStoredRow *mine = fastest_row(st, c, (int)k, m, d);
        g_autofree char *why = tie_reason(&sp->models[m], mine);
        if (ns_study_rows_tie(sp->models[m].fluid, mine, fastest_row(st, c, (int)k, m, v)))
          g_string_append_printf(md, " %s %s the same: %s (%s);", cname(st, c), size, why,
                                 sp->models[m].name);
        else
          g_string_append_printf(md, " %s %s %.2fx %s (%s);", cname(st, c), size,
                                 r >= 1 ? r : 1 / r, r >= 1 ? "faster" : "slower",
                                 sp->models[m].name);
      }
    g_string_truncate(md, md->len - 1);
    g_string_append(md, ".\n");
  }
}

/* "1.23x the bound", or "the bound n/a" when nothing bounds it (a
 * pattern that moves no bytes: no ratio, never "infx"). */
static char *bound_ratio_text(double t, double bound)
{
  return bound > 0 ? g_strdup_printf("%.2fx the bound", t / bound) : g_strdup("the bound n/a");
}

/* One collective of a design's recommendation, at size k. */
static void recommend(NsStudy *st, GString *md, int c, int k, int d)
{
  const NsDesignSpec *sp = st->spec;
  int m = ns_study_ranking_model(st, c, k, d);
  if (m < 0) {
    g_string_append_printf(md, "\n  - %s: no schedule completed a verified run", cname(st, c));
    return;
  }
  const NsCell *cell = ns_study_cell(st, c, k, m, d);
  const NsStoredRow *f = cell->fastest;
  g_autofree char *t = time_text(f->completion_s);
  g_autofree char *ratio = bound_ratio_text(f->completion_s, cell->bound_s);
  if (cell->named)
    g_string_append_printf(md, "\n  - %s: configure `%s`%s%s%s — %s, %s (%s model)",
                           cname(st, c), f->label,
                           strcmp(f->label, f->algorithm) != 0 ? ", which chose " : "",
                           strcmp(f->label, f->algorithm) != 0 ? f->algorithm : "",
                           f->contention_free ? " (contention-free)" : " (not contention-free)",
                           t, ratio, sp->models[m].name);
  else {
    g_autofree char *tie = fastest_text(cell);
    g_string_append_printf(md, "\n  - %s: %s, %s; no algorithm named: ", cname(st, c), t,
                           ratio);
    if (!sp->models[m].fluid && f->runs <= 1)
      g_string_append_printf(md, "the %s model gives the same time to %s in its one run — "
                                 "more runs (--runs, a scenario's runs =) may separate them",
                             sp->models[m].name, tie + 5);
    else if (!sp->models[m].fluid)
      g_string_append_printf(md, "the %d runs of each overlap under the %s model (%s) — more "
                                 "runs may separate them",
                             f->runs, sp->models[m].name, tie + 5);
    else if (cell->tied->len > 1)
      g_string_append_printf(md, "the %s model (fluid) ties %s within %.0f%% — add the packet "
                                 "model to rank them",
                             sp->models[m].name, tie + 5, NS_DESIGN_FLUID_TIE * 100);
    else
      g_string_append_printf(md, "the fastest under the %s model (fluid), %s, shares links, "
                                 "and a fluid model does not price contention — add the packet "
                                 "model to rank them",
                             sp->models[m].name, f->label);
    if (cell->best == NULL)
      g_string_append(md, " (no schedule here is contention-free)");
  }
  const NsStoredRow *def[2] = { cell->mpich, cell->ompi };
  for (int i = 0; i < 2; i++)
    if (def[i] != NULL && def[i]->ok && def[i]->valid && f->completion_s > 0)
      g_string_append_printf(md, "; %s default %s: %.2fx the fastest's time",
                             i ? "Open MPI" : "MPICH",
                             def[i]->algorithm, def[i]->completion_s / f->completion_s);
    else if (def[i] != NULL && def[i]->ok && def[i]->valid) /* nothing moved: no ratio */
      g_string_append_printf(md, "; %s default %s: the fastest's time n/a",
                             i ? "Open MPI" : "MPICH", def[i]->algorithm);
  g_string_append_printf(md, "; bottleneck: %s", cell->bottleneck);
  if (sp->prices != NULL && sp->collectives[c].collective == NS_COLL_ALLTOALL && f->mbps > 0)
    g_string_append_printf(md, "; %.1f %s per Gbit/s of all-to-all throughput",
                           st->costs[d] / (f->mbps / 1e3), ns_prices_currency(sp->prices));
}

/* Per design, per collective, at the largest size. */
static void report_recommendation(NsStudy *st, GString *md)
{
  const NsDesignSpec *sp = st->spec;
  int k = (int)sp->sizes->len - 1;
  g_autofree char *size = ns_format_size(size_at(st, k));
  g_string_append_printf(md, "\n## Recommendation (at %s)\n\n", size);
  for (int d = 0; d < sp->n_designs; d++) {
    const NsDesign *ds = &sp->designs[d];
    g_string_append_printf(md, "- **%s**%s%s%s", ds->name, ds->description ? " (" : "",
                           ds->description ? ds->description : "", ds->description ? ")" : "");
    if (sp->prices != NULL)
      g_string_append_printf(md, ", %.0f %s", st->costs[d], ns_prices_currency(sp->prices));
    g_string_append_c(md, ':');
    for (int c = 0; c < sp->n_collectives; c++)
      recommend(st, md, c, k, d);
    g_string_append_c(md, '\n');
  }
}

/* What to configure to run each recommendation's fastest schedule, per
 * design and collective, at the largest size (issue #21: the report says
 * how, not only which). */
static void report_configuration(NsStudy *st, GString *md)
{
  const NsDesignSpec *sp = st->spec;
  int k = (int)sp->sizes->len - 1;
  g_autofree char *size = ns_format_size(size_at(st, k));
  g_autoptr(GArray) items = g_array_new(FALSE, TRUE, sizeof(NsAdvice));
  g_autoptr(GPtrArray) contexts = g_ptr_array_new_with_free_func(g_free);
  for (int d = 0; d < sp->n_designs; d++)
    for (int c = 0; c < sp->n_collectives; c++) {
      int m = ns_study_ranking_model(st, c, k, d);
      if (m < 0)
        continue;
      const NsStoredRow *f = ns_study_cell(st, c, k, m, d)->fastest;
      const NsDesign *ds = &sp->designs[d];
      char *context = g_strdup_printf("**%s**, %s at %s", ds->name, cname(st, c), size);
      g_ptr_array_add(contexts, context);
      NsAdvice a = {
        .label = f->label,
        .context = context,
        .collective = sp->collectives[c].collective,
        .n_machines = ns_topology_n_machines(ds->topo),
        .topology = ns_topology_source(ds->topo),
        .root = sp->collectives[c].root,
        .segment = sp->collectives[c].segment,
        .prefix = ds->name,
        .pattern = sp->collectives[c].pattern,
        .msize = size_at(st, k),
      };
      g_array_append_val(items, a);
    }
  ns_configure_advice_append(md, (const NsAdvice *)(void *)items->data, items->len);
}

/* Links to the plots of collective c that exist: the SVG and PNG gnuplot
 * drew, else the data and script it could not draw from. */
static void report_plots(NsStudy *st, GString *md, int c)
{
  const NsDesignSpec *sp = st->spec;
  g_string_append(md, "\nPlots:");
  for (int m = 0; m < sp->n_models; m++) {
    static const char *const ext[] = { "svg", "png", "dat", "gp" };
    gboolean drawn = FALSE;
    for (int e = 0; e < 4; e++) {
      g_autofree char *name = g_strdup_printf("%s-%s.%s", cname(st, c), sp->models[m].name, ext[e]);
      if (e == 2 && drawn)
        break;
      if (!written(sp, name))
        continue;
      drawn = drawn || e < 2;
      g_string_append_printf(md, " [%s](%s)", name, name);
    }
    if (!drawn)
      g_string_append(md, " (not drawn: see the warning)");
    g_string_append(md, m + 1 < sp->n_models ? ";" : ".\n");
  }
}

gboolean ns_study_write_report(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  g_autoptr(GString) md = g_string_new("# netsched design study\n\n");
  report_designs(st, md);
  g_string_append(md, "\nModels: ");
  for (int m = 0; m < sp->n_models; m++)
    g_string_append_printf(md, "%s%s (%s)", m ? ", " : "", sp->models[m].name,
                           sp->models[m].fluid ? "fluid" : "packet-level");
  g_string_append_printf(
      md, ". A fluid model shares links perfectly, so every schedule whose link loads fit — "
          "contention-free or not — meets the bound: it names the fastest schedule only when "
          "it is ahead of all others by more than %.0f%%. The packet model ranks by simulated "
          "contention (queues, losses, retransmissions) and always names one. Verified = "
          "proved complete by the verifier and simulated to the end; contention-free = no "
          "two transfers of a phase share a directed link.\n",
      NS_DESIGN_FLUID_TIE * 100);
  for (int c = 0; c < sp->n_collectives; c++) {
    g_string_append_printf(md, "\n## %s\n", cname(st, c));
    for (guint k = 0; k < sp->sizes->len; k++)
      report_size(st, md, c, (int)k);
    report_plots(st, md, c);
  }
  report_changes(st, md);
  report_recommendation(st, md);
  report_configuration(st, md);
  if (sp->out != NULL) {
    fprintf(sp->out, "\n%s", md->str);
    fflush(sp->out);
  }
  return ns_output_write_in(sp->outdir, "report.md", md->str, (gssize)md->len, error);
}
