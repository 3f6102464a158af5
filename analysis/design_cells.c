/* netsched — the design study's cells (see design_study_internal.h): per
 * collective × size × model × design, the bound and bottleneck, the
 * fastest verified schedule, the best contention-free one, the MPI
 * selectors' rows, what the model cannot tell apart from the fastest, and
 * which model ranks a design. Between the runs (design.c) and the tables,
 * plots and report (design_report.c). */
#include "analysis/design_study_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "platforms/model/units.h"
#include "sched/bound/lower_bound.h"
#include "sched/bound/pattern_bound.h"
#include <string.h>

GPtrArray *ns_study_rows(NsStudy *st, int c, int d, int m)
{
  return st->rows[((gsize)c * (gsize)st->spec->n_designs + (gsize)d) * (gsize)st->spec->n_models +
                  (gsize)m];
}

NsCell *ns_study_cell(NsStudy *st, int c, int k, int m, int d)
{
  const NsDesignSpec *sp = st->spec;
  return &st->cells[(((gsize)c * sp->sizes->len + (gsize)k) * (gsize)sp->n_models + (gsize)m) *
                        (gsize)sp->n_designs +
                    (gsize)d];
}

static gboolean is_selector(const char *label, const char *name)
{
  return strcmp(label, name) == 0;
}

gboolean ns_study_rows_tie(gboolean fluid, const NsStoredRow *a, const NsStoredRow *b)
{
  if (a == b)
    return TRUE;
  if (fluid) {
    double lo = MIN(a->completion_s, b->completion_s), hi = MAX(a->completion_s, b->completion_s);
    return hi <= lo * (1 + NS_DESIGN_FLUID_TIE);
  }
  return a->min_s <= b->max_s && b->min_s <= a->max_s;
}

/* Step 2 for one cell: the rows of (collective, size, model, design). */
static void summarise_cell(NsStudy *st, int c, int k, int m, int d)
{
  const NsDesignSpec *sp = st->spec;
  uint64_t msize = g_array_index(sp->sizes, uint64_t, k);
  NsCell *cell = ns_study_cell(st, c, k, m, d);
  GPtrArray *rows = ns_study_rows(st, c, d, m);
  for (guint i = 0; i < rows->len; i++) {
    const NsStoredRow *r = g_ptr_array_index(rows, i);
    if (r->msize != msize)
      continue;
    if (is_selector(r->label, "mpich"))
      cell->mpich = r;
    else if (is_selector(r->label, "ompi"))
      cell->ompi = r;
    if (!r->ok || !r->valid)
      continue;
    if (cell->fastest == NULL || r->completion_s < cell->fastest->completion_s)
      cell->fastest = r;
    if (r->contention_free && (cell->best == NULL || r->completion_s < cell->best->completion_s))
      cell->best = r;
  }
  if (cell->fastest == NULL)
    return;
  /* What the model cannot separate from the fastest: under a fluid model,
   * every verified schedule within NS_DESIGN_FLUID_TIE; under the packet
   * model, every one whose fastest run is not slower than the fastest
   * schedule's slowest run (with one run each: only equal times). */
  const NsStoredRow *f = cell->fastest;
  gboolean fluid = sp->models[m].fluid;
  cell->tied = g_ptr_array_new();
  for (guint i = 0; i < rows->len; i++) {
    const NsStoredRow *r = g_ptr_array_index(rows, i);
    if (r->msize != msize || !r->ok || !r->valid)
      continue;
    if (ns_study_rows_tie(fluid, f, r))
      g_ptr_array_add(cell->tied, (gpointer)r);
  }
  /* A fluid model never prices contention: it names only a contention-free
   * schedule that is clearly ahead. The packet model names the fastest
   * when its runs are apart from every other's. */
  cell->named = cell->tied->len == 1 && (!fluid || f->contention_free);
}

/* The bound of a v-collective's cell: its size pattern's (ports and routed
 * links in bytes, sched/bound/pattern_bound.h), the one its rows carry. A
 * pattern that cannot be made (checked before the first run: not
 * expected) has no bound: 0, "n/a (why)". */
static void pattern_bound(const NsDesignSpec *sp, int c, int d, uint64_t msize, double *bound_s,
                          char **bottleneck)
{
  const NsDesignCollective *dc = &sp->collectives[c];
  const NsTopology *topo = sp->designs[d].topo;
  GError *error = NULL;
  NsPatternBound b;
  g_autoptr(NsSizePattern) pat = ns_pattern_axis_at(dc->pattern, dc->pattern_option,
                                                    dc->collective, ns_topology_n_machines(topo),
                                                    msize, &error);
  if (pat == NULL || !ns_pattern_bound(topo, pat, &b, &error)) {
    *bottleneck = g_strdup_printf("n/a (%s)", error->message);
    g_error_free(error);
    return;
  }
  *bound_s = b.seconds;
  g_autofree char *what = ns_pattern_bound_describe(topo, &b);
  if (b.machine < 0 && b.edge < 0) {
    *bottleneck = g_steal_pointer(&what);
    return;
  }
  g_autofree char *bytes = ns_format_bytes((double)b.bytes);
  g_autofree char *bw = ns_format_bandwidth(b.bandwidth);
  *bottleneck = g_strdup_printf("%s (%s at %s)", what, bytes, bw);
}

/* Step 2: bound, bottleneck and best of every cell. */
void ns_study_summarise(NsStudy *st)
{
  const NsDesignSpec *sp = st->spec;
  for (int c = 0; c < sp->n_collectives; c++)
    for (guint k = 0; k < sp->sizes->len; k++)
      for (int d = 0; d < sp->n_designs; d++) {
        NsLowerBound lb;
        uint64_t msize = g_array_index(sp->sizes, uint64_t, k);
        const NsTopology *topo = sp->designs[d].topo;
        double bound_s = 0;
        g_autofree char *bottleneck = NULL;
        if (sp->collectives[c].pattern != NULL) {
          pattern_bound(sp, c, d, msize, &bound_s, &bottleneck);
        } else {
          ns_lower_bound_routed(topo, sp->collectives[c].collective, msize,
                                st->roots[d * sp->n_collectives + c], 1, &lb);
          bound_s = lb.seconds;
          bottleneck = ns_lower_bound_describe(topo, &lb);
        }
        for (int m = 0; m < sp->n_models; m++) {
          NsCell *cell = ns_study_cell(st, c, (int)k, m, d);
          cell->bound_s = bound_s;
          cell->bottleneck = g_strdup(bottleneck);
          summarise_cell(st, c, (int)k, m, d);
        }
      }
}

/* Which model ranks a collective × size × design: the first non-fluid
 * model with a completed schedule, else the first fluid model that names
 * one, else the first with a tie. -1 when no schedule completed. */
int ns_study_ranking_model(NsStudy *st, int c, int k, int d)
{
  const NsDesignSpec *sp = st->spec;
  for (int pass = 0; pass < 3; pass++)
    for (int m = 0; m < sp->n_models; m++) {
      const NsCell *cell = ns_study_cell(st, c, k, m, d);
      if (cell->fastest == NULL || !ns_design_runs_model(&sp->designs[d], m))
        continue;
      if ((pass == 0 && !sp->models[m].fluid) || (pass == 1 && cell->named) || pass == 2)
        return m;
    }
  return -1;
}

