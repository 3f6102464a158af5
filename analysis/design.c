/* netsched — the design study engine (see design_internal.h): runs every row, then
 * has the cells summarised (design_cells.c) and written (design_report.c). */
#include "analysis/design_internal.h"
#include "analysis/design_study_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/output_dir_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include "sched/bound/lower_bound.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

gboolean ns_design_name_valid(const char *name)
{
  size_t n = strlen(name);
  if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
    return FALSE;
  for (size_t i = 0; i < n; i++)
    if (!g_ascii_isalnum(name[i]) && strchr("._-", name[i]) == NULL)
      return FALSE;
  return TRUE;
}

static void stored_row_free(gpointer p)
{
  NsStoredRow *r = p;
  g_free(r->label);
  g_free(r->algorithm);
  g_free(r->sync);
  g_free(r->status);
  g_free(r);
}

/* The sink of every run: a copy of the row in the study's table. */
static void keep_row(const NsCompareRow *row, void *user)
{
  GPtrArray *rows = user;
  NsStoredRow *r = g_new0(NsStoredRow, 1);
  r->label = g_strdup(row->label);
  r->algorithm = g_strdup(row->algorithm);
  r->sync = g_strdup(row->sync);
  r->status = g_strdup(row->status);
  r->msize = row->msize;
  r->ok = row->ok;
  r->contention_free = row->contention_free;
  r->valid = row->valid;
  r->completion_s = row->completion_s;
  r->bound_s = row->bound_s;
  r->mbps = row->mbps;
  r->bound_mbps = row->bound_mbps;
  r->runs = MAX(row->runs, 1);
  r->min_s = row->runs > 1 ? row->min_s : row->completion_s;
  r->max_s = row->runs > 1 ? row->max_s : row->completion_s;
  g_ptr_array_add(rows, r);
}

static char *run_dir(const NsDesignSpec *spec, int c, int d, int m)
{
  g_autofree char *leaf =
      spec->one_collective_layout
          ? g_strdup_printf("%s-%s", spec->designs[d].name, spec->models[m].name)
          : g_strdup_printf("%s-%s-%s", spec->designs[d].name, spec->models[m].name,
                            ns_collective_name(spec->collectives[c].collective));
  return g_build_filename(spec->outdir, leaf, NULL);
}

/* The experiment of run (c, d, m) into `dir` (the study's rows sink and
 * table are the caller's to set). */
static NsCompareSpec run_spec(const NsStudy *st, int c, int d, int m, const char *dir)
{
  const NsDesignSpec *sp = st->spec;
  const NsDesignCollective *dc = &sp->collectives[c];
  const NsDesign *ds = &sp->designs[d];
  return (NsCompareSpec){
    .topo = ds->topo, .name = ds->name, .collective = dc->collective,
    .variants = dc->variants, .sizes = sp->sizes,
    .params = { .root = st->roots[d * sp->n_collectives + c], .segment = dc->segment },
    .pattern = dc->pattern, .pattern_option = dc->pattern_option,
    .model = sp->models[m].name, .settings = sp->models[m].settings, .outdir = dir,
    .resume = !sp->restart, .retry_failed = sp->retry_failed, .measure = sp->measure,
    .measure_data = sp->models[m].measure_data, .warn = sp->warn, .note = sp->note,
    .warn_data = sp->warn_data,
  };
}

/* Step 1: one compare experiment per collective × design × model, their
 * rows computed by spec->jobs worker processes and written in this order
 * (ns_compare_experiments): the log and files do not depend on -j. */
typedef struct {
  const NsDesignSpec *sp;
  GArray *runs;      /* int[4]: c, d, m and the run's number among all of them */
  int total;
} Banner;

static void banner(guint index, void *user)
{
  const Banner *b = user;
  const NsDesignSpec *sp = b->sp;
  const int *r = &g_array_index(b->runs, int, 4 * index);
  if (sp->out == NULL)
    return;
  g_autofree char *dir = run_dir(sp, r[0], r[1], r[2]);
  fprintf(sp->out, "\n== [%d/%d] %s on %s, %s model -> %s\n", r[3], b->total,
          ns_collective_name(sp->collectives[r[0]].collective), sp->designs[r[1]].name,
          sp->models[r[2]].name, dir);
  fflush(sp->out);
}

static gboolean run_all(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  Banner b = { .sp = sp, .runs = g_array_new(FALSE, FALSE, sizeof(int)),
               .total = sp->n_collectives * sp->n_designs * sp->n_models };
  double rows = 0; /* the progress reporter's total: every row of every run */
  int count = 0;
  for (int c = 0; c < sp->n_collectives; c++)
    for (int d = 0; d < sp->n_designs; d++)
      for (int m = 0; m < sp->n_models; m++) {
        count++;
        if (!ns_design_runs_model(&sp->designs[d], m))
          continue;
        rows += (double)sp->collectives[c].variants->len * sp->sizes->len;
        int r[4] = { c, d, m, count };
        g_array_append_vals(b.runs, r, 4);
      }
  ns_progress_add_total(sp->progress, rows);
  guint n = b.runs->len / 4;
  NsCompareSpec *specs = g_new(NsCompareSpec, n);
  const NsCompareSpec **order = g_new(const NsCompareSpec *, n);
  char **dirs = g_new0(char *, n + 1);
  for (guint i = 0; i < n; i++) {
    const int *r = &g_array_index(b.runs, int, 4 * i);
    dirs[i] = run_dir(sp, r[0], r[1], r[2]);
    specs[i] = run_spec(st, r[0], r[1], r[2], dirs[i]);
    specs[i].table = sp->out;
    specs[i].sink = keep_row;
    specs[i].sink_data = ns_study_rows(st, r[0], r[1], r[2]);
    specs[i].progress = sp->progress;
    order[i] = &specs[i];
  }
  gboolean ok = ns_compare_experiments(order, n, sp->jobs, banner, &b, error);
  g_strfreev(dirs);
  g_free(order);
  g_free(specs);
  g_array_unref(b.runs);
  return ok;
}

/* Resolves every design's bcast root. */
static gboolean resolve_roots(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  st->roots = g_new0(int, (gsize)sp->n_designs * (gsize)sp->n_collectives);
  for (int d = 0; d < sp->n_designs; d++)
    for (int c = 0; c < sp->n_collectives; c++) {
      const char *root = sp->collectives[c].root;
      if (root == NULL)
        continue;
      int r = ns_topology_find_machine(sp->designs[d].topo, root);
      if (r < 0) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "the %s root '%s' is not a machine of design %s",
                        ns_collective_name(sp->collectives[c].collective), root,
                        sp->designs[d].name);
        return FALSE;
      }
      st->roots[d * sp->n_collectives + c] = r;
    }
  return TRUE;
}

static gboolean check_designs(const NsDesignSpec *sp, GError **error)
{
  for (int d = 0; d < sp->n_designs; d++) {
    const NsDesign *ds = &sp->designs[d];
    if (!ns_design_name_valid(ds->name)) {
      g_autofree char *shown = g_strescape(ds->name, NULL);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "design name '%s': use 1-64 letters, digits, '.', '_' or '-' "
                      "(it names directories and plot labels)",
                      shown);
      return FALSE;
    }
    for (int e = 0; e < d; e++)
      if (strcmp(sp->designs[e].name, ds->name) == 0) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "design '%s' is given twice", ds->name);
        return FALSE;
      }
    /* Every design's size before the first run, not after hours of others. */
    for (int c = 0; c < sp->n_collectives; c++)
      if (!ns_collective_size_check(sp->collectives[c].collective,
                                    ns_topology_n_machines(ds->topo), error)) {
        g_prefix_error(error, "design %s: ", ds->name);
        return FALSE;
      }
    if (ds->versus == NULL)
      continue;
    gboolean found = FALSE;
    for (int e = 0; e < sp->n_designs; e++)
      found = found || (e != d && strcmp(sp->designs[e].name, ds->versus) == 0);
    if (!found) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "design %s: versus '%s' is not another design of the study", ds->name,
                      ds->versus);
      return FALSE;
    }
  }
  return TRUE;
}

static void study_clear(NsStudy *st)
{
  const NsDesignSpec *sp = st->spec;
  gsize n_rows = (gsize)sp->n_collectives * (gsize)sp->n_designs * (gsize)sp->n_models;
  for (gsize i = 0; st->rows != NULL && i < n_rows; i++)
    g_ptr_array_unref(st->rows[i]);
  gsize n_cells = n_rows * sp->sizes->len;
  for (gsize i = 0; st->cells != NULL && i < n_cells; i++) {
    g_free(st->cells[i].bottleneck);
    if (st->cells[i].tied != NULL)
      g_ptr_array_unref(st->cells[i].tied);
  }
  g_free(st->rows);
  g_free(st->cells);
  g_free(st->roots);
  g_free(st->costs);
  g_free(st->hardware);
}

/* Hardware counts and, with prices, the cost of every design. */
static gboolean count_hardware(NsStudy *st, GError **error)
{
  const NsDesignSpec *sp = st->spec;
  st->hardware = g_new0(NsHardware, (gsize)sp->n_designs);
  st->costs = g_new0(double, (gsize)sp->n_designs);
  for (int d = 0; d < sp->n_designs; d++) {
    ns_design_hardware(sp->designs[d].topo, &st->hardware[d]);
    const NsPrices *prices = sp->designs[d].prices ? sp->designs[d].prices : sp->prices;
    if (sp->prices != NULL && !ns_design_cost(prices, sp->designs[d].topo, &st->costs[d], error)) {
      g_prefix_error(error, "design %s: ", sp->designs[d].name);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean ns_design_study(const NsDesignSpec *spec, GError **error)
{
  NsStudy st = { .spec = spec };
  NsOutputLock *lock = NULL; /* the study's directory; each run locks its own */
  gboolean ok = FALSE;
  gsize n_rows = (gsize)spec->n_collectives * (gsize)spec->n_designs * (gsize)spec->n_models;
  if (!check_designs(spec, error) || !resolve_roots(&st, error) || !count_hardware(&st, error))
    goto out;
  if ((lock = ns_output_dir_lock(spec->outdir, NULL, error)) == NULL)
    goto out;
  st.rows = g_new0(GPtrArray *, n_rows);
  for (gsize i = 0; i < n_rows; i++)
    st.rows[i] = g_ptr_array_new_with_free_func(stored_row_free);
  st.cells = g_new0(NsCell, n_rows * spec->sizes->len);
  if (!run_all(&st, error))
    goto out;
  ns_study_summarise(&st);
  ok = ns_study_write_tables(&st, error) && ns_study_write_plots(&st, error) &&
       ns_study_write_report(&st, error);
out:
  study_clear(&st);
  ns_output_dir_unlock(lock);
  return ok;
}
