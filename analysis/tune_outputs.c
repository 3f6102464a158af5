/* netsched — the outputs of `netsched tune` besides measurements.csv
 * (see tune_outputs_internal.h; docs/tune.md, "Outputs"). */
#include "analysis/tune_outputs_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/plot_internal.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/lower/routine_internal.h"
#include <math.h>
#include <string.h>

/* Where row i ends (exclusive); 0 for the last row: no upper end. */
static uint64_t row_end(const NsDecisionTable *t, guint i)
{
  return i + 1 < t->rows->len ? ((NsDecisionRow *)t->rows->pdata[i + 1])->from_bytes : 0;
}

static void append_time(GString *row, double t)
{
  if (t >= 0)
    ns_csv_appendf(row, "%.9g", t);
  else
    ns_csv_append(row, "");
}

gboolean ns_tune_write_decision_csv(const char *outdir, const NsDecisionTable *t, GError **error)
{
  g_autoptr(GString) csv = g_string_new(
      "from_bytes,to_bytes,algorithm,params,measured_bytes,time_s,runner_up,runner_up_params,"
      "runner_up_s,margin_percent\n");
  for (guint i = 0; i < t->rows->len; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    g_autoptr(GString) row = g_string_new(NULL);
    uint64_t end = row_end(t, i);
    ns_csv_appendf(row, "%" G_GUINT64_FORMAT, r->from_bytes);
    if (end > 0)
      ns_csv_appendf(row, "%" G_GUINT64_FORMAT, end - 1);
    else
      ns_csv_append(row, "");
    ns_csv_append(row, r->algorithm);
    ns_csv_append(row, r->params);
    ns_csv_appendf(row, "%" G_GUINT64_FORMAT, r->measured_bytes);
    append_time(row, r->time_s);
    ns_csv_append(row, r->runner_up ? r->runner_up : "");
    ns_csv_append(row, r->runner_up_params ? r->runner_up_params : "");
    append_time(row, r->runner_up_s);
    if (r->time_s > 0 && r->runner_up_s >= 0)
      ns_csv_appendf(row, "%.2f", (r->runner_up_s / r->time_s - 1) * 100);
    else
      ns_csv_append(row, "");
    g_string_append_printf(csv, "%s\n", row->str);
  }
  return ns_output_write_in(outdir, "decision.csv", csv->str, (gssize)csv->len, error);
}

/* "ring-n-barrier(barriers=4)" or the algorithm alone. */
static char *row_label(const NsDecisionRow *r)
{
  return *r->params ? g_strdup_printf("%s(%s)", r->algorithm, r->params) : g_strdup(r->algorithm);
}

/* ---- the plot ------------------------------------------------------------------ */

gboolean ns_tune_write_plot(const NsTuneSpec *spec, const char *topology_name,
                            const NsDecisionTable *t, const NsTuneCurve *curves, guint n_curves,
                            gboolean *plotted, GError **error)
{
  *plotted = FALSE;
  const GArray *sizes = spec->sizes;
  g_autoptr(GString) dat = g_string_new("# netsched tune: msize_bytes time_s (each candidate "
                                        "with its tuned parameter), then the chosen envelope\n");
  g_autoptr(GString) plot = g_string_new("plot ");
  guint block = 0;
  for (guint c = 0; c < n_curves; c++) {
    g_string_append_printf(dat, "%s# %s\n", block ? "\n\n" : "", curves[c].label);
    for (guint k = 0; k < sizes->len; k++)
      if (!isnan(curves[c].time_s[k]))
        g_string_append_printf(dat, "%" G_GUINT64_FORMAT " %.9g\n",
                               g_array_index(sizes, uint64_t, k), curves[c].time_s[k]);
    g_autofree char *quoted = ns_gnuplot_string(curves[c].label);
    g_string_append_printf(plot, "%s'tune.dat' index %u using 1:2 with linespoints pt %u dt %u "
                                 "title %s",
                           block ? ", \\\n     " : "", block, 1 + block % 13, 1 + block % 5,
                           quoted);
    block++;
  }
  /* The envelope: the chosen time at every fixed size. */
  g_string_append_printf(dat, "%s# chosen\n", block ? "\n\n" : "");
  for (guint k = 0; k < sizes->len; k++) {
    uint64_t m = g_array_index(sizes, uint64_t, k);
    double best = NAN;
    for (guint c = 0; c < n_curves; c++)
      if (!isnan(curves[c].time_s[k]) && (isnan(best) || curves[c].time_s[k] < best))
        best = curves[c].time_s[k];
    if (!isnan(best))
      g_string_append_printf(dat, "%" G_GUINT64_FORMAT " %.9g\n", m, best);
  }
  g_string_append_printf(plot, "%s'tune.dat' index %u using 1:2 with lines lw 4 lc rgb "
                               "'#80000000' title 'chosen'",
                         block ? ", \\\n     " : "", block);
  g_autofree char *title_text = g_strdup_printf("tuned %s on %s (replay, %s model)",
                                                ns_collective_name(spec->collective),
                                                topology_name, spec->model);
  g_autofree char *title = ns_gnuplot_string(title_text);
  g_autoptr(GString) gp = g_string_new(NULL);
  g_string_append_printf(gp,
                         "# netsched tune: time against message size per candidate; the\n"
                         "# chosen envelope; dashed lines at the switch points.\n"
                         "set title %s noenhanced\n"
                         "set xlabel 'message size (bytes)' noenhanced\n"
                         "set ylabel 'time (s)' noenhanced\n"
                         "set logscale xy\nset format x '%%g'\nset format y '%%g'\n"
                         "set key outside right noenhanced\nset grid\n",
                         title);
  for (guint i = 1; i < t->rows->len; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    g_autofree char *label = row_label(r);
    g_autofree char *text = g_strdup_printf("%" G_GUINT64_FORMAT ": %s", r->from_bytes, label);
    g_autofree char *quoted = ns_gnuplot_string(text);
    g_string_append_printf(gp,
                           "set arrow from %" G_GUINT64_FORMAT ", graph 0 to %" G_GUINT64_FORMAT
                           ", graph 1 nohead dt 2 lc 'gray40'\n"
                           "set label %s at %" G_GUINT64_FORMAT ", graph 0.98 rotate by 90 right "
                           "font ',8' noenhanced\n",
                           r->from_bytes, r->from_bytes, quoted, r->from_bytes);
  }
  const char *terms[][2] = { { "svg size 1000,560", "tune.svg" },
                             { "pngcairo size 1000,560", "tune.png" } };
  const char *outputs[] = { terms[0][1], terms[1][1], NULL };
  for (int k = 0; k < 2; k++) {
    g_string_append_printf(gp, "set terminal %s\n", terms[k][0]);
    ns_gnuplot_output(gp, terms[k][1]);
    g_string_append_printf(gp, "%s\n", plot->str);
  }
  if (!ns_output_write_in(spec->outdir, "tune.dat", dat->str, (gssize)dat->len, error) ||
      !ns_output_write_in(spec->outdir, "tune.gp", gp->str, (gssize)gp->len, error))
    return FALSE;
  if (n_curves == 0)
    return TRUE;
  g_autofree char *why = NULL;
  *plotted = ns_plot_run(spec->outdir, "tune.gp", outputs, &why, error);
  if (why != NULL)
    ns_plot_warn_none(spec->warn, spec->warn_data, NULL, why, spec->outdir);
  return *plotted || why != NULL;
}

/* ---- the tuned routine ---------------------------------------------------------- */

/* "alltoall-ring-n-barrier-barriers-4": letters, digits and '-' only, so
 * the name is safe in a file name, a configuration line and a shell. */
static char *table_file(NsCollective c, const NsDecisionRow *r)
{
  g_autofree char *base = *r->params ? g_strdup_printf("%s-%s-%s", ns_collective_name(c),
                                                       r->algorithm, r->params)
                                     : g_strdup_printf("%s-%s", ns_collective_name(c),
                                                       r->algorithm);
  for (char *p = base; *p != '\0'; p++)
    if (!g_ascii_isalnum(*p) && *p != '-')
      *p = '-';
  return g_strdup_printf("%s.nsr", base);
}

/* The routine of a row, planned at its measured size. */
static NsRoutine *row_routine(const NsTuneSpec *spec, const NsDecisionRow *r, GError **error)
{
  NsPlanParams pp = { .msize = MAX(r->measured_bytes, 1), .root = spec->root };
  g_autofree char *sync = NULL;
  if (!ns_tune_params_apply(r->params, ns_topology_n_machines(spec->topo), &pp, &sync, error))
    return NULL;
  g_autoptr(NsSchedule) s = ns_plan(spec->topo, spec->collective, r->algorithm, &pp, error);
  if (s == NULL)
    return NULL;
  NsRoutineOptions ro;
  ns_routine_options_init(&ro);
  ro.eager_threshold = spec->eager_threshold;
  NsSyncScheme scheme;
  if (sync != NULL) {
    if (!ns_sync_scheme_parse(sync, &scheme, error))
      return NULL;
    ro.scheme = &scheme;
  }
  NsRoutine *routine = ns_routine_build(spec->topo, s, &ro, error);
  if (routine == NULL)
    g_prefix_error(error, "%s: ", r->algorithm);
  return routine;
}

static char *readme_text(const NsTuneSpec *spec, const NsDecisionTable *t, const char *c_file)
{
  const char *coll = ns_collective_name(spec->collective);
  int p = ns_topology_n_machines(spec->topo);
  GString *s = g_string_new(NULL);
  g_string_append_printf(s,
                         "netsched tune: %s on %d machines of %s\n\n"
                         "Made by: %s\n\n"
                         "Decision (sizes in bytes per %s; decision.csv has the times):\n",
                         coll, p, t->topology, spec->command ? spec->command : "netsched tune",
                         spec->collective == NS_COLL_BCAST ? "broadcast (the whole message)"
                         : spec->collective == NS_COLL_ALLTOALL ? "destination"
                                                                : "rank");
  for (guint i = 0; i < t->rows->len; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    g_autofree char *label = row_label(r);
    uint64_t end = row_end(t, i);
    if (end > 0)
      g_string_append_printf(s, "  %" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT "  %s\n",
                             r->from_bytes, end - 1, label);
    else
      g_string_append_printf(s, "  %" G_GUINT64_FORMAT " ..  %s\n", r->from_bytes, label);
  }
  g_string_append_printf(
      s,
      "\nFiles:\n"
      "  measurements.csv   every candidate x size measured (resume: --resume)\n"
      "  decision.json      the decision table (docs/tune.md, \"Decision file\")\n"
      "  decision.csv       from, to, algorithm, params, time, runner-up, margin %%\n"
      "  tune.svg, tune.png time against size per candidate, the envelope, switch points\n"
      "  %s-*.nsr   the chosen routines' tables\n"
      "  netsched-mpi.conf  libnetsched-mpi's configuration dispatching them by size\n"
      "  %s      one C file: every table and netsched_tuned_%s()\n\n"
      "1. Preload libnetsched-mpi (docs/mpi-library.md), which then runs the tables\n"
      "   for MPI_%c%s:\n\n"
      "   mpirun -np %d --hostfile hosts \\\n"
      "     -x LD_PRELOAD=/opt/netsched/lib/libnetsched-mpi.so \\\n"
      "     -x NETSCHED_MPI_CONFIG=$PWD/netsched-mpi.conf -x NETSCHED_MPI_VERBOSE=1 ./app\n\n"
      "2. Or build the tuned routine into the application and call it instead of\n"
      "   MPI_%c%s:\n\n"
      "   mpicc -O2 -c %s\n"
      "   mpicc -O2 app.c %.*s.o -o app\n"
      "   mpirun -np %d --hostfile hosts ./app\n\n"
      "Rank r plays machine r of the topology (in its file's order); the host file\n"
      "must list the hosts in that order, one rank per host (or use the _mapped\n"
      "entry points / NETSCHED_MPI_RANKMAP).\n",
      coll, c_file, coll, g_ascii_toupper(coll[0]), coll + 1, p, g_ascii_toupper(coll[0]),
      coll + 1, c_file, (int)(strlen(c_file) - 2), c_file, p);
  return g_string_free(s, FALSE);
}

gboolean ns_tune_write_routines(const NsTuneSpec *spec, const NsDecisionTable *t, GError **error)
{
  const char *coll = ns_collective_name(spec->collective);
  guint n = t->rows->len;
  GPtrArray *routines = g_ptr_array_new_with_free_func((GDestroyNotify)ns_routine_free);
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  g_autofree guint *which = g_new(guint, n);
  g_autofree uint64_t *from = g_new(uint64_t, n);
  g_autoptr(GString) conf = g_string_new(NULL);
  g_autofree char *c_file = NULL, *source = NULL, *readme = NULL;
  gboolean ok = FALSE;
  g_string_append_printf(conf,
                         "# netsched-mpi.conf: the tuned %s (netsched tune; docs/tune.md)\n"
                         "# schedule COLLECTIVE RANGE FILE, RANGE in bytes per %s\n",
                         coll, spec->collective == NS_COLL_BCAST ? "message" : "block");
  for (guint i = 0; i < n; i++) {
    const NsDecisionRow *r = t->rows->pdata[i];
    g_autofree char *file = table_file(spec->collective, r);
    guint k = 0;
    while (k < files->len && strcmp(files->pdata[k], file) != 0)
      k++;
    if (k == files->len) { /* a routine not written yet */
      NsRoutine *routine = row_routine(spec, r, error);
      if (routine == NULL ||
          !ns_output_write_in(spec->outdir, file, (const char *)routine->table->data,
                              (gssize)routine->table->len, error)) {
        if (routine != NULL)
          ns_routine_free(routine);
        goto out;
      }
      g_ptr_array_add(routines, routine);
      g_ptr_array_add(files, g_strdup(file));
      char *name = g_strdup_printf("t%u_%s", k, r->algorithm);
      for (char *c = name; *c != '\0'; c++)
        if (!g_ascii_isalnum(*c))
          *c = '_';
      g_ptr_array_add(names, name);
    }
    which[i] = k;
    from[i] = r->from_bytes;
    uint64_t end = row_end(t, i);
    if (end > 0)
      g_string_append_printf(conf, "schedule %s %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " %s\n",
                             coll, r->from_bytes, end - 1, file);
    else
      g_string_append_printf(conf, "schedule %s %" G_GUINT64_FORMAT "- %s\n", coll,
                             r->from_bytes, file);
  }
  c_file = g_strdup_printf("tuned_%s.c", coll);
  source = ns_routine_c_tuned_source(
      (const NsRoutine *const *)routines->pdata, (const char *const *)names->pdata, which, from,
      n, spec->command ? spec->command : "netsched tune");
  readme = readme_text(spec, t, c_file);
  ok = ns_output_write_in(spec->outdir, "netsched-mpi.conf", conf->str, (gssize)conf->len,
                          error) &&
       ns_output_write_in(spec->outdir, c_file, source, -1, error) &&
       ns_output_write_in(spec->outdir, "README", readme, -1, error);
out:
  g_ptr_array_unref(routines);
  g_ptr_array_unref(files);
  g_ptr_array_unref(names);
  return ok;
}
