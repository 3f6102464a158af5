/* netsched — a design study built from a scenario (see design_spec.h). */
#include "analysis/design_spec_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"
#include <string.h>

struct NsDesignStudy {
  NsDesign *designs;
  int n_designs;
  NsDesignCollective *collectives;
  int n_collectives;
  NsDesignModel *models;
  int n_models;
  GArray *sizes;
  NsPrices *prices;
  NsPrices **design_prices;  /* [design]: its own, or NULL */
};

void ns_design_study_free(NsDesignStudy *s)
{
  if (s == NULL)
    return;
  for (int d = 0; d < s->n_designs; d++) {
    ns_prices_free(s->design_prices[d]);
    ns_topology_free(s->designs[d].topo);
    g_free(s->designs[d].name);
    g_free(s->designs[d].description);
    g_free(s->designs[d].versus);
    g_free(s->designs[d].change);
  }
  for (int c = 0; c < s->n_collectives; c++) {
    ns_variants_free(s->collectives[c].variants);
    g_free(s->collectives[c].root);
    g_free(s->collectives[c].pattern);
  }
  for (int m = 0; m < s->n_models; m++) {
    g_free(s->models[m].name);
    g_free(s->models[m].settings);
  }
  g_free(s->designs);
  g_free(s->design_prices);
  g_free(s->collectives);
  g_free(s->models);
  if (s->sizes != NULL)
    g_array_unref(s->sizes);
  ns_prices_free(s->prices);
  g_free(s);
}

/* Every registered algorithm of `c`, as a variant list. */
static char *all_algorithms(NsCollective c)
{
  int n;
  const NsPlanner *all = ns_planners(&n);
  GString *t = g_string_new(NULL);
  for (int i = 0; i < n; i++)
    if (all[i].collective == c)
      g_string_append_printf(t, "%s%s", t->len ? "," : "", all[i].name);
  return g_string_free(t, FALSE);
}

/* The variants of one collective, with the MPI default selectors added
 * (what the cluster gets out of the box) when registered and not listed. */
static GArray *study_variants(const NsScenarioCollective *sc, NsCollective c,
                              const NsDesignHooks *h, GError **error)
{
  g_autofree char *text = sc->algorithms ? g_strdup(sc->algorithms) : all_algorithms(c);
  GArray *v = ns_variants_parse(text, c, error);
  if (v != NULL && h->check_variants != NULL && !h->check_variants(v, c, h->user, error)) {
    ns_variants_free(v);
    v = NULL;
  }
  if (v == NULL) {
    g_prefix_error(error, "%s: ", sc->where);
    return NULL;
  }
  static const char *const selectors[] = { "mpich", "ompi" };
  for (int i = 0; i < 2; i++) {
    gboolean listed = FALSE;
    for (guint k = 0; k < v->len; k++)
      listed = listed || strcmp(g_array_index(v, NsVariant, k).label, selectors[i]) == 0;
    if (listed || ns_planner_find(c, selectors[i]) == NULL)
      continue;
    NsVariant x = { .label = g_strdup(selectors[i]), .algorithm = g_strdup(selectors[i]) };
    g_array_append_val(v, x);
  }
  return v;
}

/* The models of the study: the union of the designs' lists, in order. */
static gboolean study_models(NsDesignStudy *s, const NsScenario *sc, const NsDesignHooks *h,
                             GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new();
  g_autoptr(GPtrArray) wheres = g_ptr_array_new(); /* the file:line that names each */
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    char **models = t->models;
    for (int m = 0; models[m] != NULL; m++) {
      gboolean seen = FALSE;
      for (guint k = 0; k < names->len; k++)
        seen = seen || strcmp(g_ptr_array_index(names, k), models[m]) == 0;
      if (!seen) {
        g_ptr_array_add(names, models[m]);
        g_ptr_array_add(wheres, t->models_where ? t->models_where : sc->path);
      }
    }
  }
  if (names->len > 64) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: more than 64 models", sc->path);
    return FALSE;
  }
  s->models = g_new0(NsDesignModel, names->len);
  for (guint m = 0; m < names->len; m++) {
    s->n_models++;
    if (!h->model(g_ptr_array_index(names, m), sc, (int)m, &s->models[m], h->user, error)) {
      g_prefix_error(error, "%s: ", (const char *)g_ptr_array_index(wheres, m));
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean study_collectives(NsDesignStudy *s, const NsScenario *sc, const NsDesignHooks *h,
                                  GError **error)
{
  s->collectives = g_new0(NsDesignCollective, sc->collectives->len);
  for (guint i = 0; i < sc->collectives->len; i++) {
    const NsScenarioCollective *x = &g_array_index(sc->collectives, NsScenarioCollective, i);
    NsDesignCollective *c = &s->collectives[i];
    const char *why = NULL;
    s->n_collectives++;
    if (!ns_collective_from_name(x->name, &c->collective)) /* checked by the loader */
      return FALSE;
    /* a size pattern scales with the study's sizes, or fixes them to one */
    c->pattern = g_strdup(x->pattern);
    /* a scenario's key, or design's --pattern (the command line's scenario) */
    gboolean file = x->pattern_where != NULL || strcmp(sc->path, "command line") != 0;
    c->pattern_option = file ? "pattern" : "--pattern";
    if (!ns_pattern_axis_check(c->pattern, c->collective, s->sizes, c->pattern_option, error)) {
      if (file)
        g_prefix_error(error, "%s: ", x->pattern_where ? x->pattern_where : x->where);
      return FALSE;
    }
    c->root = g_strdup(x->root);
    if (x->segment != NULL && !ns_parse_msize(x->segment, &c->segment, &why)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "segment '%s': %s", x->segment, why);
      return FALSE;
    }
    if ((c->variants = study_variants(x, c->collective, h, error)) == NULL)
      return FALSE;
  }
  return TRUE;
}

static gboolean study_designs(NsDesignStudy *s, const NsScenario *sc, const NsDesignHooks *h,
                              GError **error)
{
  s->designs = g_new0(NsDesign, sc->topologies->len);
  s->design_prices = g_new0(NsPrices *, sc->topologies->len);
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    NsDesign *d = &s->designs[i];
    s->n_designs++;
    *d = (NsDesign){ .name = g_strdup(t->name), .description = g_strdup(t->description),
                     .versus = g_strdup(t->versus), .change = g_strdup(t->change) };
    for (int k = 0; t->models[k] != NULL; k++) {
      const char *want = h->model_name(t->models[k], h->user, error);
      if (want == NULL) {
        g_prefix_error(error, "%s: [topology %s]: ", t->models_where ? t->models_where : t->where,
                       t->name);
        return FALSE;
      }
      for (int m = 0; m < s->n_models; m++)
        if (strcmp(s->models[m].name, want) == 0)
          d->model_mask |= G_GUINT64_CONSTANT(1) << m;
    }
    if ((d->topo = h->load_topology(t->file, t->format, t->spanning, h->user, error)) == NULL ||
        (h->check_topology != NULL && !h->check_topology(d->topo, h->user, error))) {
      g_prefix_error(error, "%s: [topology %s]: ", t->where, t->name);
      return FALSE; /* checked before the first of its runs */
    }
  }
  return TRUE;
}

/* Every size pattern of the study made before the first run: a file that
 * cannot be read, a pattern of other p than a design's, a generator out of
 * range at some size. O(designs · sizes · the generator's cost). */
static gboolean study_patterns(NsDesignStudy *s, const NsScenario *sc, GError **error)
{
  for (int c = 0; c < s->n_collectives; c++) {
    const NsDesignCollective *dc = &s->collectives[c];
    const NsScenarioCollective *x = &g_array_index(sc->collectives, NsScenarioCollective, c);
    if (dc->pattern == NULL)
      continue;
    guint n_sizes = ns_pattern_axis_scaled(dc->pattern) ? s->sizes->len : 1;
    for (int d = 0; d < s->n_designs; d++)
      for (guint k = 0; k < n_sizes; k++) {
        g_autoptr(NsSizePattern) pat = ns_pattern_axis_at(
            dc->pattern, dc->pattern_option, dc->collective,
            ns_topology_n_machines(s->designs[d].topo), g_array_index(s->sizes, uint64_t, k),
            error);
        if (pat == NULL) {
          g_prefix_error(error, "[topology %s]: ", s->designs[d].name);
          if (x->pattern_where != NULL)
            g_prefix_error(error, "%s: ", x->pattern_where);
          return FALSE;
        }
      }
  }
  return TRUE;
}

/* A design's own prices: its file's keys over the study's. */
static gboolean design_prices(NsDesignStudy *s, const NsScenario *sc, GError **error)
{
  for (guint i = 0; i < sc->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(sc->topologies, NsScenarioTopology, i);
    if (t->prices == NULL)
      continue;
    if ((s->design_prices[i] = ns_prices_load_over(s->prices, t->prices, error)) == NULL)
      return FALSE;
    s->designs[i].prices = s->design_prices[i];
  }
  return TRUE;
}

NsDesignStudy *ns_design_study_build(const NsScenario *sc, const NsDesignHooks *hooks,
                                     NsDesignSpec *spec, GError **error)
{
  NsDesignStudy *s = g_new0(NsDesignStudy, 1);
  if ((s->sizes = ns_msizes_parse("msizes", sc->msizes ? sc->msizes : "8KiB..256KiB", error)) ==
          NULL ||
      !study_models(s, sc, hooks, error) || !study_collectives(s, sc, hooks, error) ||
      !study_designs(s, sc, hooks, error) || !study_patterns(s, sc, error) ||
      (sc->prices != NULL && (s->prices = ns_prices_load(sc->prices, error)) == NULL) ||
      !design_prices(s, sc, error)) {
    ns_design_study_free(s);
    return NULL;
  }
  *spec = (NsDesignSpec){
    .designs = s->designs, .n_designs = s->n_designs, .collectives = s->collectives,
    .n_collectives = s->n_collectives, .sizes = s->sizes, .models = s->models,
    .n_models = s->n_models, .measure = hooks->measure, .prices = s->prices,
    .outdir = sc->output, .one_collective_layout = s->n_collectives == 1,
  };
  return s;
}
