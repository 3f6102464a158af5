/* netsched torus — Liu Gang et al.'s §V analysis: Table II and Fig. 6
 * (analysis/torus_model.h). */
#include "analysis/plot.h"
#include "analysis/torus_model.h"
#include "cli/cli.h"
#include "platforms/error.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>

/* Table II as Markdown, with each formula's value for d = 4 .. 7. */
static void write_table2(FILE *out)
{
  static const char *formula[NS_TORUS_N_ALGOS][3] = {
    { "(2^{d-1}+2)", "2^{3d-2}+2^{2d}", "(2^{d-1}+1)·2^{2d}" },
    { "3d-3", "9·2^{3d-4}+(d²-5d+3)·2^{2d-1}", "9·2^{3d-4}+(d²-5d+3)·2^{2d-1}" },
    { "(2^{d-1}+2)", "2^{3d-2}+2^{2d}", "3·2^{2d}" },
    { "(2^{d-1}+2)", "2^{3d-3}", "3·2^{2d}" },
  };
  fprintf(out, "| algorithm | startup (× t_s) | transmission (× m·t_w) | rearrangement (× m·ρ) |"
               " d=4 | d=5 | d=6 | d=7 |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
    fprintf(out, "| %s | %s | %s | %s |", ns_torus_algo_label((NsTorusAlgo)a), formula[a][0],
            formula[a][1], formula[a][2]);
    for (int d = 4; d <= 7; d++) {
      NsTorusCost c = ns_torus_model_table2((NsTorusAlgo)a, d);
      fprintf(out, " %.0f, %.0f, %.0f |", c.startups, c.transmission, c.rearrangement);
    }
    fputc('\n', out);
  }
}

/* Fig. 6: completion time against message size on 2^d × 2^d, d = 4..7,
 * Paragon parameters. fig6.dat: one block per torus (gnuplot index). */
static gboolean write_fig6(const char *dir, GError **error)
{
  g_autofree char *dat = g_build_filename(dir, "fig6.dat", NULL);
  g_autofree char *gp = g_build_filename(dir, "fig6.gp", NULL);
  FILE *f = fopen(dat, "w");
  if (f == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: %s", dat, g_strerror(errno));
    return FALSE;
  }
  fprintf(f, "# Liu Gang et al. Fig. 6 model: t_s=75us t_w=0.011us/B rho=0.014us/B\n"
             "# msize_bytes");
  for (int a = 0; a < NS_TORUS_N_ALGOS; a++)
    fprintf(f, " %s_ms", ns_torus_algo_name((NsTorusAlgo)a));
  fputc('\n', f);
  for (int d = 4; d <= 7; d++) {
    fprintf(f, "# %dx%d\n", 1 << d, 1 << d);
    for (int e = 3; e <= 16; e++) {
      double m = ldexp(1, e);
      fprintf(f, "%.0f", m);
      for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
        NsTorusCost c = ns_torus_model_table2((NsTorusAlgo)a, d);
        fprintf(f, " %.6g", 1e3 * ns_torus_time(&c, NS_PARAGON_TS, NS_PARAGON_TW, NS_PARAGON_RHO, m));
      }
      fputc('\n', f);
    }
    fprintf(f, "\n\n");
  }
  if (fclose(f) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: write failed", dat);
    return FALSE;
  }
  f = fopen(gp, "w");
  if (f == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: %s", gp, g_strerror(errno));
    return FALSE;
  }
  fprintf(f, "set terminal svg size 1000,800 noenhanced\nset output 'fig6.svg'\n"
             "set multiplot layout 2,2\nset logscale xy\nset key top left\n"
             "set xlabel 'message size (bytes)'\nset ylabel 'completion time (ms)'\n");
  for (int d = 4; d <= 7; d++) {
    g_autofree char *title = g_strdup_printf("%dx%d torus (Paragon: t_s 75us, t_w 0.011us/B, "
                                             "rho 0.014us/B)", 1 << d, 1 << d);
    g_autofree char *qt = ns_gnuplot_string(title);
    fprintf(f, "set title %s\nplot ", qt);
    for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
      g_autofree char *label = ns_gnuplot_string(ns_torus_algo_label((NsTorusAlgo)a));
      fprintf(f, "%s'fig6.dat' index %d using 1:%d with linespoints title %s", a ? ", " : "",
              d - 4, a + 2, label);
    }
    fputc('\n', f);
  }
  fprintf(f, "unset multiplot\n");
  if (fclose(f) != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: write failed", gp);
    return FALSE;
  }
  g_autofree char *why = NULL;
  if (!ns_plot_run(dir, "fig6.gp", &why))
    g_printerr("netsched: warning: no plot: %s\n", why);
  return TRUE;
}

int ns_cmd_torus(int argc, char **argv)
{
  g_autofree char *outdir = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir,
      "Also write table2.md, fig6.dat, fig6.gp and fig6.svg into DIR", "DIR" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr(GOptionContext) ctx =
      g_option_context_new("- Liu Gang et al.'s torus cost model: Table II and Fig. 6");
  g_option_context_set_summary(
      ctx, "Prints Table II (startup, transmission and rearrangement costs of complete exchange\n"
           "on 2^d x 2^d tori) with its values for d = 4..7; with -o, writes Fig. 6 (completion\n"
           "time against message size, Paragon parameters) as data, gnuplot script and SVG.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &error))
    return ns_cli_usage("torus", "%s", error->message);
  if (argc > 1)
    return ns_cli_usage("torus", "unexpected argument '%s'", argv[1]);
  write_table2(stdout);
  if (outdir != NULL) {
    if (g_mkdir_with_parents(outdir, 0755) != 0)
      return ns_cli_fail(g_error_new(NS_ERROR, NS_ERROR_IO, "%s: %s", outdir, g_strerror(errno)));
    g_autofree char *md = g_build_filename(outdir, "table2.md", NULL);
    FILE *f = fopen(md, "w");
    if (f == NULL)
      return ns_cli_fail(g_error_new(NS_ERROR, NS_ERROR_IO, "%s: %s", md, g_strerror(errno)));
    write_table2(f);
    fclose(f);
    if (!write_fig6(outdir, &error))
      return ns_cli_fail(error);
  }
  return 0;
}
