/* netsched — scenario files (see scenario_internal.h). */
#include "analysis/scenario_internal.h"
#include "analysis/design_internal.h"
#include "analysis/experiment_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "analysis/keyfile_internal.h"
#include "platforms/io/topology_spec.h"
#include "platforms/model/error.h"
#include "sched/ir/schedule.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The longest wall-limit: far beyond any simulation, and far below the
 * 9.2e12 s at which the limit in microseconds overflows 64 bits. */
#define MAX_WALL_LIMIT 1e9

static const char *const scenario_keys[] = {
  "description", "collective", "algorithms", "msizes", "models", "output",   "root",
  "segment",     "wall-limit", "runs",       "queue",  "tcp",    "calibration", "spanning",
  "prices",      "eager-threshold", "reduce-rate", "pattern", "cfg", NULL,
};
static const char *const collective_keys[] = { "algorithms", "root", "segment", "pattern",
                                               NULL };
static const char *const topology_keys[] = { "file",        "format", "models", "spanning",
                                             "description", "versus", "change", "prices",
                                             NULL };

void ns_scenario_free(NsScenario *s)
{
  if (s == NULL)
    return;
  for (guint i = 0; s->topologies != NULL && i < s->topologies->len; i++) {
    NsScenarioTopology *t = &g_array_index(s->topologies, NsScenarioTopology, i);
    g_free(t->name);
    g_free(t->file);
    g_free(t->format);
    g_strfreev(t->models);
    g_free(t->spanning);
    g_free(t->description);
    g_free(t->versus);
    g_free(t->change);
    g_free(t->prices);
    g_free(t->where);
    g_free(t->models_where);
  }
  for (guint i = 0; s->collectives != NULL && i < s->collectives->len; i++) {
    NsScenarioCollective *c = &g_array_index(s->collectives, NsScenarioCollective, i);
    g_free(c->name);
    g_free(c->algorithms);
    g_free(c->root);
    g_free(c->segment);
    g_free(c->pattern);
    g_free(c->pattern_where);
    g_free(c->where);
  }
  if (s->topologies != NULL)
    g_array_unref(s->topologies);
  if (s->collectives != NULL)
    g_array_unref(s->collectives);
  g_free(s->path);
  g_free(s->description);
  g_free(s->msizes);
  g_free(s->output);
  g_free(s->tcp);
  g_free(s->calibration);
  g_free(s->eager_threshold);
  g_free(s->reduce_rate);
  g_strfreev(s->cfg);
  g_free(s->prices);
  g_free(s);
}

static char *value(const NsKeyGroup *g, const char *key)
{
  const NsKeyEntry *e = ns_keygroup_find(g, key);
  return e != NULL ? g_strdup(e->value) : NULL;
}

/* A path of the file (output, prices): relative to the file's directory. */
static char *resolve(const char *dir, const char *path)
{
  return g_path_is_absolute(path) ? g_strdup(path) : g_build_filename(dir, path, NULL);
}

static char **model_list(const char *text)
{
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  GPtrArray *out = g_ptr_array_new();
  for (int i = 0; parts[i] != NULL; i++)
    if (*g_strstrip(parts[i]) != '\0')
      g_ptr_array_add(out, g_strdup(parts[i]));
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

gboolean ns_simgrid_option_valid(const char *option)
{
  const char *colon = strchr(option, ':');
  return colon != NULL && colon != option;
}

/* The `cfg` key: SimGrid options separated by blanks (SimGrid's own
 * separator inside one --cfg; its values hold ';' and ':'), each checked. */
static gboolean read_cfg(NsScenario *s, const NsKeyGroup *g, GError **error)
{
  const NsKeyEntry *e = ns_keygroup_find(g, "cfg");
  if (e == NULL)
    return TRUE;
  g_auto(GStrv) words = g_strsplit_set(e->value, " \t", -1);
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func(g_free);
  for (int i = 0; words[i] != NULL; i++) {
    if (words[i][0] == '\0')
      continue;
    if (!ns_simgrid_option_valid(words[i])) {
      g_autofree char *shown = g_strescape(words[i], NULL);
      return ns_keyfile_fail(error, e->where, "cfg '%s': expected NAME:VALUE", shown);
    }
    g_ptr_array_add(options, g_strdup(words[i]));
  }
  g_ptr_array_add(options, NULL);
  s->cfg = (char **)g_ptr_array_free(g_steal_pointer(&options), FALSE);
  return TRUE;
}

/* An integer key in [lo, hi]. */
static gboolean int_key(const NsKeyGroup *g, const char *key, long lo, long hi, const char *what,
                        int *out, GError **error)
{
  const NsKeyEntry *e = ns_keygroup_find(g, key);
  if (e == NULL)
    return TRUE;
  char *end = NULL;
  long v = strtol(e->value, &end, 10);
  if (end == e->value || *end != '\0' || v < lo || v > hi)
    return ns_keyfile_fail(error, e->where, "%s '%s': expected %s from %ld to %ld", key, e->value,
                           what, lo, hi);
  *out = (int)v;
  return TRUE;
}

/* The group's `pattern` into x->pattern (a file resolved against the
 * scenario's directory, a generator as written) and x->pattern_where. */
static void read_pattern(const NsKeyGroup *g, const char *dir, NsScenarioCollective *x)
{
  const NsKeyEntry *e = ns_keygroup_find(g, "pattern");
  if (e == NULL)
    return;
  x->pattern = ns_size_pattern_is_spec(e->value) || ns_pattern_axis_scaled(e->value)
                   ? g_strdup(e->value)
                   : resolve(dir, e->value);
  x->pattern_where = g_strdup(e->where);
}

/* Fills the head group's fields; `single` receives the one-collective
 * form ([scenario] collective/algorithms), NULL when absent. */
static gboolean read_scenario(NsScenario *s, const NsKeyGroup *g, const char *dir, char **models,
                              char **spanning, char **root, char **segment,
                              NsScenarioCollective *pattern, NsScenarioCollective *single,
                              GError **error)
{
  if (!ns_keygroup_check_keys(g, scenario_keys, error))
    return FALSE;
  s->description = value(g, "description");
  s->msizes = value(g, "msizes");
  s->tcp = value(g, "tcp");
  s->calibration = value(g, "calibration");
  s->eager_threshold = value(g, "eager-threshold");
  s->reduce_rate = value(g, "reduce-rate");
  *models = value(g, "models");
  *spanning = value(g, "spanning");
  *root = value(g, "root");
  *segment = value(g, "segment");
  read_pattern(g, dir, pattern);
  g_autofree char *output = value(g, "output");
  if (output == NULL)
    return ns_keyfile_fail(error, g->where, "[scenario] needs 'output'");
  s->output = resolve(dir, output);
  g_autofree char *prices = value(g, "prices");
  if (prices != NULL)
    s->prices = resolve(dir, prices);
  const NsKeyEntry *collective = ns_keygroup_find(g, "collective");
  const NsKeyEntry *algorithms = ns_keygroup_find(g, "algorithms");
  if (collective != NULL || algorithms != NULL)
    *single = (NsScenarioCollective){
      .name = g_strdup(collective ? collective->value : "alltoall"),
      .algorithms = g_strdup(algorithms ? algorithms->value : NULL),
      .where = g_strdup(collective ? collective->where : algorithms->where),
    };
  const NsKeyEntry *e;
  if ((e = ns_keygroup_find(g, "msizes")) != NULL) {
    /* Checked here, where the line is known (the study parses it again). */
    GArray *sizes = ns_msizes_parse("msizes", e->value, error);
    if (sizes == NULL) {
      g_prefix_error(error, "%s: ", e->where);
      return FALSE;
    }
    g_array_unref(sizes);
  }
  if ((e = ns_keygroup_find(g, "wall-limit")) != NULL) {
    char *end = NULL;
    errno = 0;
    s->wall_limit = g_ascii_strtod(e->value, &end);
    if (end == e->value || *end != '\0' || errno == ERANGE || !isfinite(s->wall_limit) ||
        !(s->wall_limit > 0) || s->wall_limit > MAX_WALL_LIMIT)
      return ns_keyfile_fail(error, e->where,
                             "wall-limit '%s': expected seconds > 0 and at most 1e9", e->value);
  }
  return int_key(g, "queue", 1, 1000000, "packets", &s->queue, error) &&
         int_key(g, "runs", 1, 1000, "simulations", &s->runs, error) && read_cfg(s, g, error);
}

static gboolean read_collective(NsScenario *s, const NsKeyGroup *g, const char *root,
                                const char *segment, const NsScenarioCollective *pattern,
                                const char *dir, GError **error)
{
  if (!ns_keygroup_check_keys(g, collective_keys, error))
    return FALSE;
  const char *name = g->name + strlen("collective ");
  NsCollective c;
  if (!ns_collective_from_name(name, &c)) {
    g_autofree char *shown = g_strescape(name, NULL);
    g_autofree char *known = ns_collective_names(", ");
    return ns_keyfile_fail(error, g->where, "unknown collective '%s' in [%s] (%s)", shown, g->name,
                           known);
  }
  for (guint i = 0; i < s->collectives->len; i++)
    if (strcmp(g_array_index(s->collectives, NsScenarioCollective, i).name, name) == 0)
      return ns_keyfile_fail(error, g->where, "[%s] is given twice", g->name);
  g_autofree char *own_root = value(g, "root"), *own_segment = value(g, "segment");
  NsScenarioCollective x = {
    .name = g_strdup(name), .algorithms = value(g, "algorithms"),
    .root = g_strdup(own_root ? own_root : root),
    .segment = g_strdup(own_segment ? own_segment : segment), .where = g_strdup(g->where),
  };
  read_pattern(g, dir, &x);
  if (x.pattern == NULL && pattern->pattern != NULL && ns_collective_is_vector(c)) {
    /* [scenario]'s pattern is the default of the collectives that take one */
    x.pattern = g_strdup(pattern->pattern);
    x.pattern_where = g_strdup(pattern->pattern_where);
  }
  g_array_append_val(s->collectives, x);
  return TRUE;
}

/* Does the scenario study alltoallv or allgatherv? */
static gboolean any_vector(const NsScenario *s)
{
  for (guint i = 0; i < s->collectives->len; i++) {
    NsCollective c;
    if (ns_collective_from_name(g_array_index(s->collectives, NsScenarioCollective, i).name, &c) &&
        ns_collective_is_vector(c))
      return TRUE;
  }
  return FALSE;
}

static gboolean read_topology(NsScenario *s, const NsKeyGroup *g, const char *dir,
                              const char *models, const char *models_where,
                              const char *spanning, GError **error)
{
  if (!ns_keygroup_check_keys(g, topology_keys, error))
    return FALSE;
  const char *name = g->name + strlen("topology ");
  if (!ns_design_name_valid(name)) {
    g_autofree char *shown = g_strescape(name, NULL);
    return ns_keyfile_fail(error, g->where,
                           "topology name '%s': use 1-64 letters, digits, '.', '_' or '-' (it "
                           "names output directories)",
                           shown);
  }
  for (guint i = 0; i < s->topologies->len; i++)
    if (strcmp(g_array_index(s->topologies, NsScenarioTopology, i).name, name) == 0)
      return ns_keyfile_fail(error, g->where, "[%s] is given twice", g->name);
  g_autofree char *file = value(g, "file");
  if (file == NULL)
    return ns_keyfile_fail(error, g->where, "[%s] needs 'file'", g->name);
  g_autofree char *own_models = value(g, "models"), *own_spanning = value(g, "spanning");
  const NsKeyEntry *prices = ns_keygroup_find(g, "prices");
  if (prices != NULL && s->prices == NULL)
    return ns_keyfile_fail(error, prices->where,
                           "prices in [%s] override the study's: give [scenario] prices too",
                           g->name);
  const NsKeyEntry *own_models_entry = ns_keygroup_find(g, "models");
  NsScenarioTopology t = {
    .prices = prices != NULL ? resolve(dir, prices->value) : NULL,
    .name = g_strdup(name), .file = ns_topology_spec_resolve(file, dir), .format = value(g, "format"),
    .models = model_list(own_models ? own_models : models ? models : "ideal"),
    .spanning = g_strdup(own_spanning ? own_spanning : spanning),
    .description = value(g, "description"), .versus = value(g, "versus"),
    .change = value(g, "change"), .where = g_strdup(g->where),
    .models_where = g_strdup(own_models_entry ? own_models_entry->where
                             : models ? models_where : g->where),
  };
  g_array_append_val(s->topologies, t);
  return TRUE;
}

/* `versus` names another topology of the file. */
static gboolean check_versus(const NsScenario *s, GError **error)
{
  for (guint i = 0; i < s->topologies->len; i++) {
    const NsScenarioTopology *t = &g_array_index(s->topologies, NsScenarioTopology, i);
    gboolean found = t->versus == NULL;
    for (guint j = 0; !found && j < s->topologies->len; j++)
      found = j != i &&
              strcmp(g_array_index(s->topologies, NsScenarioTopology, j).name, t->versus) == 0;
    if (!found)
      return ns_keyfile_fail(error, t->where, "[topology %s]: versus '%s' is not another "
                             "[topology NAME] of this file", t->name, t->versus);
  }
  return TRUE;
}

NsScenario *ns_scenario_load(const char *path, GError **error)
{
  g_autoptr(GPtrArray) groups = ns_keyfile_scan(path, error);
  if (groups == NULL)
    return NULL;
  g_autoptr(NsScenario) s = g_new0(NsScenario, 1);
  s->path = g_strdup(path);
  s->topologies = g_array_new(FALSE, TRUE, sizeof(NsScenarioTopology));
  s->collectives = g_array_new(FALSE, TRUE, sizeof(NsScenarioCollective));
  g_autofree char *dir = g_path_get_dirname(path);
  g_autofree char *models = NULL, *spanning = NULL, *root = NULL, *segment = NULL;
  NsScenarioCollective single = { 0 }, pattern = { 0 }; /* [scenario]'s pattern */
  const NsKeyGroup *head = NULL;
  for (guint i = 0; i < groups->len; i++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, i);
    if (strcmp(g->name, "scenario") == 0) {
      head = g;
      if (!read_scenario(s, g, dir, &models, &spanning, &root, &segment, &pattern, &single,
                         error))
        goto fail;
    } else if ((!g_str_has_prefix(g->name, "topology ") || g->name[9] == '\0') &&
               (!g_str_has_prefix(g->name, "collective ") || g->name[11] == '\0')) {
      g_autofree char *shown = g_strescape(g->name, NULL);
      ns_keyfile_fail(error, g->where,
                      "unknown group [%s] (known: [scenario], [collective NAME], [topology NAME])",
                      shown);
      goto fail;
    }
  }
  if (head == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "no [scenario] group");
    goto fail;
  }
  const NsKeyEntry *head_models = ns_keygroup_find(head, "models");
  const char *head_models_where = head_models != NULL ? head_models->where : head->where;
  for (guint i = 0; i < groups->len; i++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, i);
    if (g_str_has_prefix(g->name, "topology ")
            ? !read_topology(s, g, dir, models, head_models_where, spanning, error)
            : g_str_has_prefix(g->name, "collective ") &&
                  !read_collective(s, g, root, segment, &pattern, dir, error))
      goto fail;
  }
  if (single.name != NULL) {
    if (s->collectives->len > 0) {
      ns_keyfile_fail(error, single.where, "[scenario] 'collective'/'algorithms' and "
                                           "[collective NAME] groups exclude each other");
      goto fail;
    }
    NsCollective c;
    if (!ns_collective_from_name(single.name, &c)) {
      g_autofree char *shown = g_strescape(single.name, NULL);
      g_autofree char *known = ns_collective_names(", ");
      ns_keyfile_fail(error, single.where, "unknown collective '%s' (%s)", shown, known);
      goto fail;
    }
    single.root = g_steal_pointer(&root);
    single.segment = g_steal_pointer(&segment);
    single.pattern = g_steal_pointer(&pattern.pattern);
    single.pattern_where = g_steal_pointer(&pattern.pattern_where);
    g_array_append_val(s->collectives, single);
    single = (NsScenarioCollective){ 0 };
  }
  if (s->collectives->len == 0) {
    ns_keyfile_fail(error, head->where,
                    "no collective: give [scenario] 'collective' and 'algorithms', or "
                    "[collective NAME] groups");
    goto fail;
  }
  if (s->topologies->len == 0) {
    ns_keyfile_fail(error, head->where, "no [topology NAME] group");
    goto fail;
  }
  if (!check_versus(s, error))
    goto fail;
  if (pattern.pattern != NULL && !any_vector(s)) { /* never ignored */
    ns_keyfile_fail(error, pattern.pattern_where,
                    "pattern: no alltoallv or allgatherv collective takes a size pattern");
    goto fail;
  }
  g_free(pattern.pattern);
  g_free(pattern.pattern_where);
  return g_steal_pointer(&s);
fail:
  g_free(pattern.pattern);
  g_free(pattern.pattern_where);
  g_free(single.name);
  g_free(single.algorithms);
  g_free(single.where);
  return NULL;
}
