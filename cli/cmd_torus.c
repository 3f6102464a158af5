/* netsched torus — Liu Gang et al.'s §V analysis: Table II and Fig. 6
 * (analysis/torus_model.h). */
#include "analysis/output_dir_internal.h"
#include "analysis/plot_internal.h"
#include "analysis/torus_model.h"
#include "cli/cli.h"
#include "platforms/model/error.h"
#include "platforms/io/output_file_internal.h"
#include <math.h>

/* Table II as Markdown, with each formula's value for d = 4 .. 7. */
static void write_table2(GString *out)
{
  static const char *formula[NS_TORUS_N_ALGOS][3] = {
    { "(2^{d-1}+2)", "2^{3d-2}+2^{2d}", "(2^{d-1}+1)·2^{2d}" },
    { "3d-3", "9·2^{3d-4}+(d²-5d+3)·2^{2d-1}", "9·2^{3d-4}+(d²-5d+3)·2^{2d-1}" },
    { "(2^{d-1}+2)", "2^{3d-2}+2^{2d}", "3·2^{2d}" },
    { "(2^{d-1}+2)", "2^{3d-3}", "3·2^{2d}" },
  };
  g_string_append(out, "| algorithm | startup (× t_s) | transmission (× m·t_w) | rearrangement (× m·ρ) |"
               " d=4 | d=5 | d=6 | d=7 |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
    g_string_append_printf(out, "| %s | %s | %s | %s |", ns_torus_algo_label((NsTorusAlgo)a), formula[a][0],
            formula[a][1], formula[a][2]);
    for (int d = 4; d <= 7; d++) {
      NsTorusCost c = ns_torus_model_table2((NsTorusAlgo)a, d);
      g_string_append_printf(out, " %.0f, %.0f, %.0f |", c.startups, c.transmission, c.rearrangement);
    }
    g_string_append_c(out, '\n');
  }
}

/* One file of DIR, written whole (a temporary file renamed over it: a
 * link planted there is replaced, never followed). */
/* Fig. 6: completion time against message size on 2^d × 2^d, d = 4..7,
 * Paragon parameters. fig6.dat: one block per torus (gnuplot index). */
static gboolean write_fig6(const char *dir, GError **error)
{
  g_autoptr(GString) f = g_string_new(NULL);
  g_string_append(f, "# Liu Gang et al. Fig. 6 model: t_s=75us t_w=0.011us/B rho=0.014us/B\n"
                     "# msize_bytes");
  for (int a = 0; a < NS_TORUS_N_ALGOS; a++)
    g_string_append_printf(f, " %s_ms", ns_torus_algo_name((NsTorusAlgo)a));
  g_string_append_c(f, '\n');
  for (int d = 4; d <= 7; d++) {
    g_string_append_printf(f, "# %dx%d\n", 1 << d, 1 << d);
    for (int e = 3; e <= 16; e++) {
      double m = ldexp(1, e);
      g_string_append_printf(f, "%.0f", m);
      for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
        NsTorusCost c = ns_torus_model_table2((NsTorusAlgo)a, d);
        g_string_append_printf(f, " %.6g", 1e3 * ns_torus_time(&c, NS_PARAGON_TS, NS_PARAGON_TW,
                                                               NS_PARAGON_RHO, m));
      }
      g_string_append_c(f, '\n');
    }
    g_string_append(f, "\n\n");
  }
  if (!ns_output_write_in(dir, "fig6.dat", f->str, (gssize)f->len, error))
    return FALSE;
  g_string_assign(f, "set terminal svg size 1000,800 noenhanced\n");
  ns_gnuplot_output(f, "fig6.svg");
  g_string_append(f, "set multiplot layout 2,2\nset logscale xy\nset key top left\n"
                     "set xlabel 'message size (bytes)'\nset ylabel 'completion time (ms)'\n");
  for (int d = 4; d <= 7; d++) {
    g_autofree char *title = g_strdup_printf("%dx%d torus (Paragon: t_s 75us, t_w 0.011us/B, "
                                             "rho 0.014us/B)", 1 << d, 1 << d);
    g_autofree char *qt = ns_gnuplot_string(title);
    g_string_append_printf(f, "set title %s\nplot ", qt);
    for (int a = 0; a < NS_TORUS_N_ALGOS; a++) {
      g_autofree char *label = ns_gnuplot_string(ns_torus_algo_label((NsTorusAlgo)a));
      g_string_append_printf(f, "%s'fig6.dat' index %d using 1:%d with linespoints title %s",
                             a ? ", " : "", d - 4, a + 2, label);
    }
    g_string_append_c(f, '\n');
  }
  g_string_append(f, "unset multiplot\n");
  if (!ns_output_write_in(dir, "fig6.gp", f->str, (gssize)f->len, error))
    return FALSE;
  g_autofree char *why = NULL;
  const char *outputs[] = { "fig6.svg", NULL };
  if (ns_plot_run(dir, "fig6.gp", outputs, &why, error))
    return TRUE;
  if (why == NULL)
    return FALSE;
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
  g_autoptr(GString) table = g_string_new(NULL);
  write_table2(table);
  fputs(table->str, stdout);
  if (outdir != NULL) {
    g_autoptr(NsOutputLock) lock = ns_output_dir_lock(outdir, NULL, &error);
    if (lock == NULL || !ns_output_write_in(outdir, "table2.md", table->str, (gssize)table->len, &error) ||
        !write_fig6(outdir, &error))
      return ns_cli_fail(error);
  }
  return 0;
}
