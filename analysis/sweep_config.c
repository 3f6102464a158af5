/* netsched — sweep specifications and the grid. See sweep_internal.h and
 * docs/sweeps.md for the format.
 *
 * A key file is read twice: a scan of its lines records where every
 * group and key is (GKeyFile keeps no line numbers) and refuses what
 * GKeyFile would silently accept — a group or key given twice, an empty
 * value, a key outside any group; GKeyFile then supplies the values (its
 * escapes and syntax). The command line builds the same entries, so both
 * go through one validation. */
#include "analysis/experiment_pattern_internal.h"
#include "analysis/keyfile_internal.h"
#include "analysis/rowfile_internal.h"
#include "analysis/sweep_engine_internal.h"
#include "platforms/model/error.h"
#include "platforms/gen/gtitm.h"
#include "platforms/io/read_options.h"
#include "platforms/io/topology_io.h"
#include "platforms/model/units.h"
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

/* ---- values -------------------------------------------------------------------- */

typedef enum { T_INT, T_REAL, T_PROB, T_ENUM, T_ATTACH, T_BANDWIDTH, T_TIME, T_SPEC } ValueType;

typedef struct {
  const char *key;
  ValueType type;
  double min;          /* T_INT, T_REAL: smallest allowed (T_REAL: exclusive when 0) */
  const char *choices; /* T_ENUM: "a|b" */
} KeyInfo;

static const KeyInfo waxman_keys[] = {
  { "switches", T_INT, 2, NULL }, { "machines", T_INT, 2, NULL }, { "ratio", T_REAL, 0, NULL },
  { "degree", T_REAL, 0, NULL }, { "alpha", T_PROB, 0, NULL }, { "beta", T_REAL, 0, NULL },
  { "connect", T_ENUM, 0, "patch|reject" }, { "attach", T_ATTACH, 0, NULL },
  { "bandwidth", T_BANDWIDTH, 0, NULL }, { "uplink", T_BANDWIDTH, 0, NULL },
  { "latency", T_TIME, 0, NULL }, { NULL, 0, 0, NULL },
};
static const KeyInfo transit_stub_keys[] = {
  { "transit_domains", T_INT, 1, NULL }, { "transit_nodes", T_INT, 1, NULL },
  { "stubs", T_INT, 0, NULL }, { "stub_nodes", T_INT, 1, NULL }, { "p_top", T_PROB, 0, NULL },
  { "p_transit", T_PROB, 0, NULL }, { "p_stub", T_PROB, 0, NULL },
  { "extra_ts", T_INT, 0, NULL }, { "extra_ss", T_INT, 0, NULL },
  { "hosts", T_ENUM, 0, "stub|all" }, { "machines", T_INT, 2, NULL },
  { "ratio", T_REAL, 0, NULL }, { "attach", T_ATTACH, 0, NULL },
  { "bandwidth", T_BANDWIDTH, 0, NULL }, { "uplink", T_BANDWIDTH, 0, NULL },
  { "latency", T_TIME, 0, NULL }, { NULL, 0, 0, NULL },
};
static const KeyInfo kruskal_keys[] = {
  { "switches", T_INT, 1, NULL }, { "machines", T_INT, 2, NULL }, { "ratio", T_REAL, 0, NULL },
  { "attach", T_ATTACH, 0, NULL }, { "bandwidth", T_BANDWIDTH, 0, NULL },
  { "uplink", T_BANDWIDTH, 0, NULL }, { "latency", T_TIME, 0, NULL }, { NULL, 0, 0, NULL },
};
static const KeyInfo spec_keys[] = { { "spec", T_SPEC, 0, NULL }, { NULL, 0, 0, NULL } };
static const KeyInfo files_keys[] = { { NULL, 0, 0, NULL } };

static const char *const model_names[] = {
  [NS_SWEEP_WAXMAN] = "waxman", [NS_SWEEP_TRANSIT_STUB] = "transit-stub",
  [NS_SWEEP_KRUSKAL_TREE] = "kruskal-tree", [NS_SWEEP_SPEC] = "spec", [NS_SWEEP_FILES] = "files",
};
static const KeyInfo *const model_keys[] = {
  [NS_SWEEP_WAXMAN] = waxman_keys, [NS_SWEEP_TRANSIT_STUB] = transit_stub_keys,
  [NS_SWEEP_KRUSKAL_TREE] = kruskal_keys, [NS_SWEEP_SPEC] = spec_keys,
  [NS_SWEEP_FILES] = files_keys,
};

const char *ns_sweep_model_name(NsSweepModel model) { return model_names[model]; }

static char *key_list(const KeyInfo *keys, const char *extra)
{
  GString *s = g_string_new(extra);
  for (int i = 0; keys[i].key != NULL; i++)
    g_string_append_printf(s, ", %s", keys[i].key);
  return g_string_free(s, FALSE);
}

static gboolean check_value(const KeyInfo *k, const char *v, const char *where, GError **error)
{
  char *end = NULL;
  const char *why = NULL;
  double d = 0;
  switch (k->type) {
  case T_INT: {
    gint64 i = g_ascii_strtoll(v, &end, 10);
    if (end == v || *end != '\0' || i < (gint64)k->min || i > 100000000)
      return ns_keyfile_fail(error, where, "%s '%s': expected a whole number from %.0f to 100000000",
                  k->key, v, k->min);
    return TRUE;
  }
  case T_REAL:
  case T_PROB:
    d = g_ascii_strtod(v, &end);
    if (end == v || *end != '\0' || !isfinite(d) || d <= 0 || (k->type == T_PROB && d > 1))
      return ns_keyfile_fail(error, where, "%s '%s': expected %s", k->key, v,
                  k->type == T_PROB ? "a probability in (0, 1]" : "a positive number");
    return TRUE;
  case T_ENUM: {
    g_auto(GStrv) choices = g_strsplit(k->choices, "|", -1);
    if (!g_strv_contains((const char *const *)choices, v))
      return ns_keyfile_fail(error, where, "%s '%s': expected %s", k->key, v, k->choices);
    return TRUE;
  }
  case T_ATTACH: {
    const char *dash = strchr(v, '-');
    gboolean ok = strcmp(v, "uniform") == 0 || strcmp(v, "even") == 0;
    if (!ok && dash != NULL) {
      g_autofree char *lo = g_strndup(v, (gsize)(dash - v));
      gint64 a = g_ascii_strtoll(lo, &end, 10);
      gboolean lo_ok = end != lo && *end == '\0' && a >= 0;
      gint64 b = g_ascii_strtoll(dash + 1, &end, 10);
      ok = lo_ok && end != dash + 1 && *end == '\0' && b >= a && b <= 100000;
    }
    if (!ok)
      return ns_keyfile_fail(error, where, "attach '%s': expected uniform, even or a range A-B", v);
    return TRUE;
  }
  case T_BANDWIDTH:
    if (!ns_parse_bandwidth(v, &d, &why))
      return ns_keyfile_fail(error, where, "%s '%s': %s", k->key, v, why);
    return TRUE;
  case T_TIME:
    if (!ns_parse_time(v, &d, &why))
      return ns_keyfile_fail(error, where, "%s '%s': %s", k->key, v, why);
    return TRUE;
  case T_SPEC:
    if (!g_str_has_prefix(v, "gen:") || strstr(v, "{seed}") == NULL)
      return ns_keyfile_fail(error, where,
                  "spec '%s': expected a generator specification gen:... holding {seed} "
                  "(replaced by each seed)", v);
    return TRUE;
  }
  return TRUE;
}

/* Comma-separated items, each stripped; an empty item is an error. */
static GPtrArray *split_list(const char *text, const char *key, const char *where,
                             GError **error)
{
  GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    if (*item == '\0') {
      ns_keyfile_fail(error, where, "'%s' has an empty item", key);
      g_ptr_array_unref(items);
      return NULL;
    }
    g_ptr_array_add(items, g_strdup(item));
  }
  return items;
}

/* Seeds: "1..50", "3,7,11", "1..10,100". */
static gboolean parse_seeds(NsSweep *sw, const char *text, const char *where, GError **error)
{
  g_autoptr(GPtrArray) items = split_list(text, "seeds", where, error);
  if (items == NULL)
    return FALSE;
  g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
  GArray *seeds = sw->seeds;
  for (guint i = 0; i < items->len; i++) {
    const char *item = g_ptr_array_index(items, i);
    const char *dots = strstr(item, "..");
    guint64 lo, hi;
    /* g_ascii_string_to_unsigned: digits only, and an error past 2^64 - 1
     * where strtoull silently returned 18446744073709551615. */
    if (dots != NULL) {
      g_autofree char *a = g_strndup(item, (gsize)(dots - item));
      if (!g_ascii_string_to_unsigned(a, 10, 0, G_MAXUINT64, &lo, NULL) ||
          !g_ascii_string_to_unsigned(dots + 2, 10, 0, G_MAXUINT64, &hi, NULL) || hi < lo)
        return ns_keyfile_fail(error, where,
                               "seeds '%s': expected A..B with A <= B, whole numbers from 0 to "
                               "18446744073709551615", item);
    } else {
      if (!g_ascii_string_to_unsigned(item, 10, 0, G_MAXUINT64, &lo, NULL))
        return ns_keyfile_fail(error, where,
                               "seeds '%s': expected a seed (a whole number from 0 to "
                               "18446744073709551615) or A..B", item);
      hi = lo;
    }
    if (hi - lo >= 1000000 || seeds->len + (hi - lo) >= 1000000)
      return ns_keyfile_fail(error, where, "seeds: more than 1000000 seeds");
    for (guint64 s = lo;; s++) {
      g_array_append_val(seeds, s);
      if (s == hi)
        break;
    }
  }
  guint64 *all = (guint64 *)(void *)seeds->data;
  for (guint i = 0; i < seeds->len; i++) {
    if (g_hash_table_contains(seen, &all[i]))
      return ns_keyfile_fail(error, where, "seed %" G_GUINT64_FORMAT " is listed twice", all[i]);
    g_hash_table_add(seen, &all[i]);
  }
  return TRUE;
}

static gboolean parse_trees(GPtrArray *out, const char *text, const char *where, GError **error)
{
  g_autoptr(GPtrArray) items = split_list(text, "trees", where, error);
  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->len; i++) {
    NsGtitmTree t;
    const char *item = g_ptr_array_index(items, i);
    if (!ns_gtitm_tree_from_name(item, &t))
      return ns_keyfile_fail(error, where, "trees '%s': expected none, bfs, dfs, kruskal (random) or "
                  "uniform", item);
    const char *name = ns_gtitm_tree_name(t);
    for (guint k = 0; k < out->len; k++)
      if (strcmp(g_ptr_array_index(out, k), name) == 0)
        return ns_keyfile_fail(error, where, "trees: '%s' is listed twice", name);
    g_ptr_array_add(out, g_strdup(name));
  }
  return TRUE;
}

static gboolean parse_metrics(NsSweep *sw, const char *text, const char *where, GError **error)
{
  g_autoptr(GPtrArray) items = split_list(text, "metrics", where, error);
  if (items == NULL)
    return FALSE;
  static const struct { const char *name; guint bits; } groups[] = {
    { "all", NS_METRICS_ALL }, { "paths", NS_METRICS_PATHS },
    { "alltoall", NS_METRICS_ALLTOALL }, { "allgather", NS_METRICS_ALLGATHER },
    { "bcast", NS_METRICS_BCAST },
  };
  sw->metrics = 0;
  for (guint i = 0; i < items->len; i++) {
    const char *item = g_ptr_array_index(items, i);
    guint bits = 0;
    for (gsize k = 0; k < G_N_ELEMENTS(groups); k++)
      if (strcmp(item, groups[k].name) == 0)
        bits = groups[k].bits;
    if (bits == 0)
      return ns_keyfile_fail(error, where,
                  "metrics '%s': expected all, paths, alltoall, allgather or bcast", item);
    sw->metrics |= bits;
  }
  return TRUE;
}

static gboolean parse_measures(NsSweep *sw, const char *text, const char *where, GError **error)
{
  g_autoptr(GPtrArray) items = split_list(text, "measure", where, error);
  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->len; i++) {
    const char *item = g_ptr_array_index(items, i);
    const char *slash = strchr(item, '/');
    NsCollective c;
    g_autofree char *coll = slash ? g_strndup(item, (gsize)(slash - item)) : NULL;
    if (coll == NULL || !ns_collective_from_name(coll, &c))
      return ns_keyfile_fail(error, where,
                  "measure '%s': expected COLLECTIVE/ALGORITHM[:SYNC], e.g. alltoall/faraj", item);
    GError *why = NULL;
    GArray *v = ns_variants_parse(slash + 1, c, &why);
    if (v == NULL || v->len != 1) {
      ns_keyfile_fail(error, where, "measure '%s': %s", item, why ? why->message : "one algorithm each");
      g_clear_error(&why);
      ns_variants_free(v);
      return FALSE;
    }
    if (g_array_index(v, NsVariant, 0).external) {
      /* An SMPI baseline runs smpirun on a platform file and needs a
       * compiled driver: compare, design and scenario run them, a sweep's
       * rows measure netsched's own replay only. */
      ns_variants_free(v);
      return ns_keyfile_fail(error, where,
                             "measure '%s': an SMPI baseline is measured by compare, design or "
                             "scenario, not by a sweep",
                             item);
    }
    NsSweepMeasureItem m = { .collective = c };
    m.variant = g_array_index(v, NsVariant, 0);
    g_array_set_size(v, 0); /* the strings now belong to m */
    ns_variants_free(v);
    m.label = g_strdup_printf("%s/%s", ns_collective_name(c), m.variant.label);
    for (guint k = 0; k < sw->measures->len; k++)
      if (strcmp(g_array_index(sw->measures, NsSweepMeasureItem, k).label, m.label) == 0) {
        ns_keyfile_fail(error, where, "measure '%s' is listed twice", m.label);
        g_free(m.label);
        g_free(m.variant.label);
        g_free(m.variant.algorithm);
        g_free(m.variant.sync);
        return FALSE;
      }
    g_array_append_val(sw->measures, m);
  }
  return TRUE;
}

/* ---- groups ------------------------------------------------------------------------ */

static const char *const sweep_keys[] = { "description", "output", "seeds", "trees", "msize",
                                          "metrics", "measure", "model", "plots", "x",
                                          "files", "format", "pattern", NULL };

/* ---- a sweep over files ([sweep] files) ------------------------------------------- */

#define MAX_SWEEP_FILES 100000

static int compare_names(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file's bytes as a digest, for the row keys: a file that changes
 * gives rows of another sweep, never stale rows. Reads at most the
 * topology readers' limit (a larger file is refused by the reader). */
static char *file_digest(const char *path, const char *where, GError **error)
{
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    ns_keyfile_fail(error, where, "files: '%s': cannot read: %s", path, g_strerror(errno));
    return NULL;
  }
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  guchar buf[65536];
  gsize n, total = 0;
  while (total <= NS_TOPOLOGY_MAX_BYTES && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    g_checksum_update(sum, buf, (gssize)n);
    total += n;
  }
  gboolean failed = ferror(f) != 0;
  fclose(f);
  char *digest = failed ? NULL : g_strdup(g_checksum_get_string(sum));
  g_checksum_free(sum);
  if (failed)
    ns_keyfile_fail(error, where, "files: '%s': read error", path);
  return digest;
}

static gboolean add_file(NsSweep *sw, const char *shown, const char *path, const char *where,
                         GError **error)
{
  for (guint i = 0; i < sw->files->len; i++)
    if (strcmp(g_ptr_array_index(sw->files, i), shown) == 0)
      return ns_keyfile_fail(error, where, "files: '%s' is listed twice", shown);
  if (sw->files->len >= MAX_SWEEP_FILES)
    return ns_keyfile_fail(error, where, "files: more than %d files", MAX_SWEEP_FILES);
  char *digest = file_digest(path, where, error);
  if (digest == NULL)
    return FALSE;
  g_ptr_array_add(sw->files, g_strdup(shown));
  g_ptr_array_add(sw->file_paths, g_strdup(path));
  g_ptr_array_add(sw->file_digests, digest);
  return TRUE;
}

/* `files = DIR/PATTERN, FILE, ...`: each item a file or a pattern
 * (GLib's * and ?, g_pattern_match_simple) in its last component, relative
 * to the spec's directory; a pattern's matches in name order, hidden files
 * and all but regular files left out. No shell: the directory is listed
 * with g_dir. */
static gboolean parse_files(NsSweep *sw, const char *text, const char *base_dir,
                            const char *where, GError **error)
{
  g_autoptr(GPtrArray) items = split_list(text, "files", where, error);
  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->len; i++) {
    const char *item = g_ptr_array_index(items, i);
    g_autofree char *dir = g_path_get_dirname(item), *base = g_path_get_basename(item);
    g_autofree char *full_dir = base_dir != NULL && !g_path_is_absolute(dir)
                                    ? g_build_filename(base_dir, dir, NULL) : g_strdup(dir);
    if (strpbrk(dir, "*?") != NULL)
      return ns_keyfile_fail(error, where,
                             "files '%s': a pattern goes in the file name only (zoo/*.graphml)",
                             item);
    if (strpbrk(base, "*?") == NULL) {
      g_autofree char *path = g_build_filename(full_dir, base, NULL);
      if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return ns_keyfile_fail(error, where, "files '%s': no such file", item);
      g_autofree char *shown = g_build_filename(dir, base, NULL);
      if (!add_file(sw, strcmp(dir, ".") == 0 ? base : shown, path, where, error))
        return FALSE;
      continue;
    }
    GError *dir_error = NULL;
    GDir *d = g_dir_open(full_dir, 0, &dir_error);
    if (d == NULL) {
      ns_keyfile_fail(error, where, "files '%s': %s", item, dir_error->message);
      g_error_free(dir_error);
      return FALSE;
    }
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)) != NULL && names->len <= MAX_SWEEP_FILES) {
      g_autofree char *path = g_build_filename(full_dir, name, NULL);
      if ((name[0] != '.' || base[0] == '.') && g_pattern_match_simple(base, name) &&
          g_file_test(path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add(names, g_strdup(name));
    }
    g_dir_close(d);
    if (names->len == 0)
      return ns_keyfile_fail(error, where, "files '%s' matches no file", item);
    g_ptr_array_sort(names, compare_names);
    for (guint k = 0; k < names->len; k++) {
      const char *n = g_ptr_array_index(names, k);
      g_autofree char *path = g_build_filename(full_dir, n, NULL);
      g_autofree char *shown = strcmp(dir, ".") == 0 ? g_strdup(n) : g_build_filename(dir, n, NULL);
      if (!add_file(sw, shown, path, where, error))
        return FALSE;
    }
  }
  return TRUE;
}

/* `format`: what -f takes (FORMAT[:OPTION]..., platforms/io/read_options.h). */
static gboolean check_format(const char *v, const char *where, GError **error)
{
  NsReadOptions options;
  g_autoptr(GError) why = NULL;
  if (ns_read_options_parse(v, &options, &why))
    return TRUE;
  return ns_keyfile_fail(error, where, "%s", why->message);
}

/* A sweep over files has one generator, "files", without parameters: its
 * tasks are the files (their positions, 1-based, stand for the seeds and
 * seed random tree methods) times the tree methods. */
static gboolean files_generator(NsSweep *sw, const NsKeyGroup *g, GPtrArray *default_trees,
                                GError **error)
{
  const NsKeyEntry *files = ns_keygroup_find(g, "files");
  if (sw->seeds->len > 0)
    return ns_keyfile_fail(error, ns_keygroup_find(g, "seeds")->where,
                           "seeds: a sweep over files has one task per file (and tree method); "
                           "remove seeds");
  for (guint i = 1; i <= sw->files->len; i++) {
    guint64 seed = i;
    g_array_append_val(sw->seeds, seed);
  }
  NsSweepGen *gen = g_new0(NsSweepGen, 1);
  gen->name = g_strdup("files");
  gen->model = NS_SWEEP_FILES;
  gen->where = g_strdup(files->where);
  gen->params = g_ptr_array_new();
  gen->trees = g_ptr_array_new_with_free_func(g_free);
  for (guint t = 0; t < default_trees->len; t++)
    g_ptr_array_add(gen->trees, g_strdup(g_ptr_array_index(default_trees, t)));
  if (gen->trees->len == 0)
    g_ptr_array_add(gen->trees, g_strdup("none"));
  g_ptr_array_add(sw->gens, gen);
  return TRUE;
}

/* `pattern = SPEC|FILE`: the size pattern of the alltoallv and allgatherv
 * measures, scaled to msize or whole (experiment_pattern_internal.h). A
 * file is read here, relative to the spec's directory: its content digest
 * keys the rows (a changed file gives rows of another sweep); a
 * generator's content follows from its text, the task's topology and
 * msize, all in the keys. */
static gboolean parse_pattern(NsSweep *sw, const char *v, const char *base_dir, const char *where,
                              GError **error)
{
  gboolean generator = ns_pattern_axis_scaled(v) || ns_size_pattern_is_spec(v);
  g_free(sw->pattern);
  sw->pattern = !generator && base_dir != NULL && !g_path_is_absolute(v)
                    ? g_build_filename(base_dir, v, NULL)
                    : g_strdup(v);
  if (generator)
    return TRUE;
  g_autoptr(NsSizePattern) pat = ns_size_pattern_read(sw->pattern, error);
  if (pat == NULL) {
    g_prefix_error(error, "%s: pattern: ", where);
    return FALSE;
  }
  g_free(sw->pattern_digest);
  sw->pattern_digest = ns_pattern_axis_digest(pat);
  return TRUE;
}

/* Every alltoallv/allgatherv measure has a pattern, and a pattern has such
 * a measure (experiment_pattern_internal.h's refusals, on the one msize). */
static gboolean check_pattern(NsSweep *sw, const NsKeyGroup *g, GError **error)
{
  const NsKeyEntry *e = ns_keygroup_find(g, "pattern");
  const char *where = e != NULL ? e->where : g->where;
  gboolean any = FALSE;
  g_autoptr(GArray) sizes = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  g_array_append_val(sizes, sw->msize);
  for (guint i = 0; i < sw->measures->len; i++) {
    const NsSweepMeasureItem *m = &g_array_index(sw->measures, NsSweepMeasureItem, i);
    if (!ns_collective_is_vector(m->collective))
      continue;
    any = TRUE;
    if (!ns_pattern_axis_check(sw->pattern, m->collective, sizes, "pattern", error)) {
      g_prefix_error(error, "%s: measure %s: ", where, m->label);
      return FALSE;
    }
  }
  if (sw->pattern != NULL && !any)
    return ns_keyfile_fail(error, where,
                           "pattern: no alltoallv or allgatherv measure takes a size pattern");
  return TRUE;
}

static gboolean read_sweep_group(NsSweep *sw, const NsKeyGroup *g, const char *base_dir,
                                 GPtrArray *default_trees, GError **error)
{
  for (guint i = 0; i < g->entries->len; i++) {
    const NsKeyEntry *e = g_ptr_array_index(g->entries, i);
    if (!g_strv_contains(sweep_keys, e->key)) {
      g_autofree char *shown = g_strescape(e->key, NULL);
      return ns_keyfile_fail(error, e->where,
                  "unknown key '%s' in [sweep] (description, output, seeds, trees, msize, "
                  "metrics, measure, model, plots, x, files, format, pattern)", shown);
    }
    const char *k = e->key, *v = e->value;
    if (strcmp(k, "description") == 0) {
      sw->description = g_strdup(v);
    } else if (strcmp(k, "output") == 0) {
      sw->output = base_dir != NULL && !g_path_is_absolute(v) ? g_build_filename(base_dir, v, NULL)
                                                              : g_strdup(v);
    } else if (strcmp(k, "seeds") == 0) {
      if (!parse_seeds(sw, v, e->where, error))
        return FALSE;
    } else if (strcmp(k, "trees") == 0) {
      if (!parse_trees(default_trees, v, e->where, error))
        return FALSE;
    } else if (strcmp(k, "msize") == 0) {
      const char *why = NULL;
      if (!ns_parse_msize(v, &sw->msize, &why))
        return ns_keyfile_fail(error, e->where, "msize '%s': %s", v, why);
    } else if (strcmp(k, "metrics") == 0) {
      if (!parse_metrics(sw, v, e->where, error))
        return FALSE;
    } else if (strcmp(k, "measure") == 0) {
      if (!parse_measures(sw, v, e->where, error))
        return FALSE;
    } else if (strcmp(k, "model") == 0) {
      g_free(sw->model);
      sw->model = g_strdup(v);
    } else if (strcmp(k, "files") == 0) {
      sw->files = g_ptr_array_new_with_free_func(g_free);
      sw->file_paths = g_ptr_array_new_with_free_func(g_free);
      sw->file_digests = g_ptr_array_new_with_free_func(g_free);
      if (!parse_files(sw, v, base_dir, e->where, error))
        return FALSE;
    } else if (strcmp(k, "pattern") == 0) {
      if (!parse_pattern(sw, v, base_dir, e->where, error))
        return FALSE;
    } else if (strcmp(k, "format") == 0) {
      if (!check_format(v, e->where, error))
        return FALSE;
      sw->format = g_strdup(v);
    } else if (strcmp(k, "plots") == 0) {
      g_autoptr(GPtrArray) items = split_list(v, "plots", e->where, error);
      if (items == NULL)
        return FALSE;
      for (guint p = 0; p < items->len; p++)
        g_ptr_array_add(sw->plots, g_strdup(g_ptr_array_index(items, p)));
    } else {
      g_free(sw->x);
      sw->x = g_strdup(v);
    }
  }
  if (!check_pattern(sw, g, error))
    return FALSE;
  if (sw->files != NULL)
    return files_generator(sw, g, default_trees, error);
  if (sw->format != NULL)
    return ns_keyfile_fail(error, ns_keygroup_find(g, "format")->where,
                           "format applies to files: give 'files' too");
  if (sw->seeds->len == 0)
    return ns_keyfile_fail(error, g->where, "[sweep] needs 'seeds' (e.g. seeds = 1..50)");
  return TRUE;
}

static void param_free(gpointer p)
{
  NsSweepParam *x = p;
  g_free(x->name);
  g_ptr_array_unref(x->values);
  g_free(x->where);
  g_free(x);
}

static void gen_free(gpointer p)
{
  NsSweepGen *g = p;
  g_free(g->name);
  g_ptr_array_unref(g->params);
  if (g->trees != NULL)
    g_ptr_array_unref(g->trees);
  g_free(g->where);
  g_free(g);
}

static const NsSweepParam *gen_param(const NsSweepGen *g, const char *name)
{
  for (guint i = 0; i < g->params->len; i++) {
    const NsSweepParam *p = g_ptr_array_index(g->params, i);
    if (strcmp(p->name, name) == 0)
      return p;
  }
  return NULL;
}

static gboolean read_generator_group(NsSweep *sw, const NsKeyGroup *g, const char *name,
                                     GPtrArray *default_trees, GError **error)
{
  const NsKeyEntry *model = ns_keygroup_find(g, "model");
  if (model == NULL)
    return ns_keyfile_fail(error, g->where, "[%s] needs 'model' (waxman, transit-stub, kruskal-tree or "
                "spec)", g->name);
  NsSweepGen *gen = g_new0(NsSweepGen, 1);
  gen->name = g_strdup(name);
  gen->where = g_strdup(g->where);
  gen->params = g_ptr_array_new_with_free_func(param_free);
  g_ptr_array_add(sw->gens, gen);
  gboolean known = FALSE;
  for (gsize m = 0; m < G_N_ELEMENTS(model_names) && !known; m++)
    if (m != NS_SWEEP_FILES && strcmp(model->value, model_names[m]) == 0) {
      gen->model = (NsSweepModel)m;
      known = TRUE;
    }
  if (!known)
    return ns_keyfile_fail(error, model->where,
                "model '%s': expected waxman, transit-stub, kruskal-tree or spec", model->value);
  const KeyInfo *keys = model_keys[gen->model];
  for (guint i = 0; i < g->entries->len; i++) {
    const NsKeyEntry *e = g_ptr_array_index(g->entries, i);
    if (e == model)
      continue;
    if (strcmp(e->key, "trees") == 0) {
      gen->trees = g_ptr_array_new_with_free_func(g_free);
      if (!parse_trees(gen->trees, e->value, e->where, error))
        return FALSE;
      continue;
    }
    const KeyInfo *k = NULL;
    for (int j = 0; keys[j].key != NULL && k == NULL; j++)
      if (strcmp(keys[j].key, e->key) == 0)
        k = &keys[j];
    if (k == NULL) {
      g_autofree char *list = key_list(keys, "model, trees");
      g_autofree char *shown = g_strescape(e->key, NULL);
      return ns_keyfile_fail(error, e->where, "unknown key '%s' for model %s (%s)", shown,
                  model_names[gen->model], list);
    }
    NsSweepParam *p = g_new0(NsSweepParam, 1);
    p->name = g_strdup(e->key);
    p->where = g_strdup(e->where);
    p->values = k->type == T_SPEC ? g_ptr_array_new_with_free_func(g_free)
                                  : split_list(e->value, e->key, e->where, error);
    if (p->values == NULL) {
      g_free(p->name);
      g_free(p->where);
      g_free(p);
      return FALSE;
    }
    g_ptr_array_add(gen->params, p);
    if (k->type == T_SPEC) /* one specification: it may hold commas */
      g_ptr_array_add(p->values, g_strdup(e->value));
    for (guint j = 0; j < p->values->len; j++) {
      const char *v = g_ptr_array_index(p->values, j);
      if (!check_value(k, v, e->where, error))
        return FALSE;
      for (guint l = 0; l < j; l++)
        if (strcmp(g_ptr_array_index(p->values, l), v) == 0)
          return ns_keyfile_fail(error, e->where, "%s: '%s' is listed twice", e->key, v);
    }
  }
  gboolean has_s = gen_param(gen, "switches") != NULL, has_p = gen_param(gen, "machines") != NULL,
           has_r = gen_param(gen, "ratio") != NULL;
  if (gen->model == NS_SWEEP_WAXMAN || gen->model == NS_SWEEP_KRUSKAL_TREE) {
    if (!has_s && !has_p)
      return ns_keyfile_fail(error, g->where, "[%s] needs 'switches' or 'machines' (with 'ratio')",
                  g->name);
    if (has_s && has_p && has_r)
      return ns_keyfile_fail(error, g->where,
                  "[%s] gives switches, machines and ratio: give at most two of them", g->name);
  }
  if (gen->model == NS_SWEEP_TRANSIT_STUB && has_p && has_r)
    return ns_keyfile_fail(error, g->where,
                "[%s] gives machines and ratio: give one (machines per host switch, or all)",
                g->name);
  if (gen->model == NS_SWEEP_SPEC && gen_param(gen, "spec") == NULL)
    return ns_keyfile_fail(error, g->where, "[%s] needs 'spec' (e.g. spec = gen:random:{seed},64,8)",
                g->name);
  if (gen->model == NS_SWEEP_KRUSKAL_TREE && gen->trees != NULL)
    for (guint t = 0; t < gen->trees->len; t++)
      if (strcmp(g_ptr_array_index(gen->trees, t), "none") != 0)
        return ns_keyfile_fail(error, g->where,
                    "[%s]: kruskal-tree topologies are trees already: trees must be none",
                    g->name);
  if (gen->trees == NULL) {
    gen->trees = g_ptr_array_new_with_free_func(g_free);
    if (gen->model == NS_SWEEP_KRUSKAL_TREE || default_trees->len == 0)
      g_ptr_array_add(gen->trees, g_strdup("none"));
    else
      for (guint t = 0; t < default_trees->len; t++)
        g_ptr_array_add(gen->trees, g_strdup(g_ptr_array_index(default_trees, t)));
  }
  return TRUE;
}

static NsSweep *sweep_alloc(const char *source)
{
  NsSweep *sw = g_new0(NsSweep, 1);
  sw->source = g_strdup(source);
  sw->gens = g_ptr_array_new_with_free_func(gen_free);
  sw->seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
  sw->metrics = NS_METRICS_ALL;
  sw->msize = 65536;
  sw->measures = g_array_new(FALSE, FALSE, sizeof(NsSweepMeasureItem));
  sw->model = g_strdup("ideal");
  sw->plots = g_ptr_array_new_with_free_func(g_free);
  sw->points = g_ptr_array_new();
  return sw;
}

/* The x axis when the spec names none: `machines` when a generator varies
 * it (or nothing varies), else the first numeric parameter a generator
 * varies — so a grid over switches or degree draws one line along it, not
 * one point per value at the mean machine count. */
static char *default_x(const NsSweep *sw)
{
  for (guint g = 0; g < sw->gens->len; g++) {
    const NsSweepParam *p = gen_param(g_ptr_array_index(sw->gens, g), "machines");
    if (p != NULL && p->values->len > 1)
      return g_strdup("machines");
  }
  for (guint g = 0; g < sw->gens->len; g++) {
    const NsSweepGen *gen = g_ptr_array_index(sw->gens, g);
    const KeyInfo *keys = model_keys[gen->model];
    for (guint i = 0; i < gen->params->len; i++) {
      const NsSweepParam *p = g_ptr_array_index(gen->params, i);
      for (int k = 0; keys[k].key != NULL; k++)
        if (strcmp(keys[k].key, p->name) == 0 && p->values->len > 1 &&
            (keys[k].type == T_INT || keys[k].type == T_REAL || keys[k].type == T_PROB))
          return g_strdup(p->name);
    }
  }
  return g_strdup("machines");
}

/* Plots and x name metrics or parameters of this sweep. */
static gboolean check_plots(NsSweep *sw, const char *where, GError **error)
{
  if (sw->x == NULL)
    sw->x = default_x(sw);
  g_autoptr(GPtrArray) names = ns_sweep_metric_names(sw);
  for (guint i = 0; i < sw->plots->len; i++) {
    g_auto(GStrv) parts = g_strsplit(g_ptr_array_index(sw->plots, i), "+", -1);
    for (int k = 0; parts[k] != NULL; k++) {
      gboolean found = FALSE;
      for (guint n = 0; n < names->len && !found; n++)
        found = strcmp(g_ptr_array_index(names, n), g_strstrip(parts[k])) == 0;
      if (!found) {
        g_autofree char *shown = g_strescape(parts[k], NULL);
        return ns_keyfile_fail(error, where, "plots: '%s' is not a metric of this sweep (see "
                    "docs/sweeps.md, \"Rows\")", shown);
      }
    }
  }
  gboolean found = FALSE;
  for (guint n = 0; n < names->len && !found; n++)
    found = strcmp(g_ptr_array_index(names, n), sw->x) == 0;
  for (guint g = 0; g < sw->gens->len && !found; g++)
    found = gen_param(g_ptr_array_index(sw->gens, g), sw->x) != NULL;
  if (!found) {
    g_autofree char *shown = g_strescape(sw->x, NULL);
    return ns_keyfile_fail(error, where, "x '%s' is neither a metric nor a generator parameter", shown);
  }
  return TRUE;
}

/* Counts the grid before it is expanded: points (the product of each
 * generator's value lists times its tree methods) times seeds, saturating
 * past the limit so that no product overflows. */
static gboolean check_grid_size(const NsSweep *sw, const char *where, GError **error)
{
  const guint64 limit = NS_SWEEP_MAX_TASKS;
  guint64 points = 0;
  for (guint g = 0; g < sw->gens->len && points <= limit; g++) {
    const NsSweepGen *gen = g_ptr_array_index(sw->gens, g);
    guint64 n = gen->trees->len;
    for (guint k = 0; k < gen->params->len && n <= limit; k++)
      n *= ((const NsSweepParam *)g_ptr_array_index(gen->params, k))->values->len;
    points += MIN(n, limit + 1);
  }
  guint64 seeds = sw->seeds->len; /* <= 1,000,000 */
  if (points <= limit && points * seeds <= limit)
    return TRUE;
  if (points > limit)
    return ns_keyfile_fail(error, where,
                           "the grid has more than %" G_GUINT64_FORMAT " points, above the limit "
                           "of %" G_GUINT64_FORMAT " tasks (points x seeds; docs/sweeps.md, "
                           "\"Limits\")", limit, limit);
  return ns_keyfile_fail(error, where,
                         "the grid has %" G_GUINT64_FORMAT " points x %" G_GUINT64_FORMAT
                         " seeds = %" G_GUINT64_FORMAT " tasks, above the limit of %"
                         G_GUINT64_FORMAT " tasks (docs/sweeps.md, \"Limits\"): split it into "
                         "several sweeps", points, seeds, points * seeds, limit);
}

static NsSweep *build(const char *source, GPtrArray *groups, const char *base_dir,
                      GError **error)
{
  NsSweep *sw = sweep_alloc(source);
  g_autoptr(GPtrArray) default_trees = g_ptr_array_new_with_free_func(g_free);
  const NsKeyGroup *sweep_group = NULL;
  for (guint i = 0; i < groups->len; i++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, i);
    if (strcmp(g->name, "sweep") == 0)
      sweep_group = g;
    else if (!g_str_has_prefix(g->name, "generator ") || g->name[10] == '\0') {
      g_autofree char *shown = g_strescape(g->name, NULL);
      ns_keyfile_fail(error, g->where, "unknown group [%s] (expected [sweep] and [generator NAME])",
           shown);
      goto bad;
    }
  }
  if (sweep_group == NULL) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: no [sweep] group", source);
    goto bad;
  }
  if (!read_sweep_group(sw, sweep_group, base_dir, default_trees, error))
    goto bad;
  for (guint i = 0; i < groups->len; i++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, i);
    if (g == sweep_group)
      continue;
    if (sw->files != NULL) {
      ns_keyfile_fail(error, g->where, "[%s]: a sweep over files ([sweep] files) has no "
                      "generators; sweep them in another spec", g->name);
      goto bad;
    }
    const char *name = g->name + 10;
    for (const char *c = name; *c != '\0'; c++)
      if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_' && *c != '.') {
        g_autofree char *shown = g_strescape(name, NULL);
        ns_keyfile_fail(error, g->where, "generator name '%s': use letters, digits, '-', '_' and '.'",
             shown);
        goto bad;
      }
    if (!read_generator_group(sw, g, name, default_trees, error))
      goto bad;
  }
  if (sw->gens->len == 0) {
    ns_keyfile_fail(error, sweep_group->where, "no [generator NAME] group: nothing to sweep");
    goto bad;
  }
  if (!check_plots(sw, sweep_group->where, error))
    goto bad;
  if (!check_grid_size(sw, sweep_group->where, error))
    goto bad;
  ns_sweep_compile(sw);
  return sw;
bad:
  ns_sweep_free(sw);
  return NULL;
}

NsSweep *ns_sweep_load(const char *path, GError **error)
{
  g_autoptr(GPtrArray) groups = ns_keyfile_scan(path, error);
  if (groups == NULL)
    return NULL;
  g_autofree char *dir = g_path_get_dirname(path);
  return build(path, groups, dir, error);
}

/* "generator waxman" for --generator waxman:..., so plots and rows name
 * the series by its model; "waxman-2" for a second one; "gN" when the
 * model is not a name (the model's own error follows). */
static char *cli_generator_name(const char *generator, int i, GHashTable *used)
{
  g_autofree char *model = g_strndup(generator, strcspn(generator, ":"));
  gboolean plain = model[0] != '\0';
  for (const char *c = model; *c != '\0'; c++)
    plain = plain && (g_ascii_isalnum(*c) || *c == '-' || *c == '_');
  g_autofree char *name = plain ? g_strdup(model) : g_strdup_printf("g%d", i + 1);
  for (int n = 2; g_hash_table_contains(used, name); n++) {
    g_free(name);
    name = plain ? g_strdup_printf("%s-%d", model, n) : g_strdup_printf("g%d-%d", i + 1, n);
  }
  g_hash_table_add(used, g_strdup(name));
  return g_strdup_printf("generator %s", name);
}

NsSweep *ns_sweep_new(const char *const *settings, const char *const *generators,
                      GError **error)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func(ns_keygroup_free);
  NsKeyGroup *sweep = ns_keygroup_new("sweep", "the command line");
  g_ptr_array_add(groups, sweep);
  for (int i = 0; settings != NULL && settings[i] != NULL; i++) {
    const char *eq = strchr(settings[i], '=');
    g_autofree char *where = g_strdup_printf("--%.*s", eq ? (int)(eq - settings[i]) : 0,
                                             settings[i]);
    if (eq == NULL || eq[1] == '\0') {
      ns_keyfile_fail(error, where[2] ? where : "the command line", "empty value");
      return NULL;
    }
    g_autofree char *key = g_strndup(settings[i], (gsize)(eq - settings[i]));
    ns_keygroup_add(sweep, key, eq + 1, where);
  }
  g_autoptr(GHashTable) used = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int i = 0; generators != NULL && generators[i] != NULL; i++) {
    g_autofree char *name = cli_generator_name(generators[i], i, used);
    g_autofree char *where = g_strdup_printf("--generator %s", generators[i]);
    NsKeyGroup *g = ns_keygroup_new(name, where);
    g_ptr_array_add(groups, g);
    g_auto(GStrv) parts = g_strsplit(generators[i], ":", -1);
    for (int k = 0; parts[k] != NULL; k++) {
      const char *eq = strchr(parts[k], '=');
      if (k == 0 && eq != NULL) {
        ns_keyfile_fail(error, where, "expected MODEL[:KEY=VALUES]... (the model first)");
        return NULL;
      }
      if (k > 0 && (eq == NULL || eq == parts[k] || eq[1] == '\0')) {
        g_autofree char *shown = g_strescape(parts[k], NULL);
        ns_keyfile_fail(error, where, "'%s' is not KEY=VALUES", shown);
        return NULL;
      }
      g_autofree char *key = k == 0 ? g_strdup("model")
                                    : g_strndup(parts[k], (gsize)(eq - parts[k]));
      if (ns_keygroup_find(g, key) != NULL) {
        ns_keyfile_fail(error, where, "key '%s' is given twice", key);
        return NULL;
      }
      ns_keygroup_add(g, key, k == 0 ? parts[k] : eq + 1, where);
    }
  }
  return build("the command line", groups, NULL, error);
}

static void point_free(gpointer p)
{
  NsSweepPoint *x = p;
  g_free(x->names);
  g_free(x->values);
  g_free(x->tree);
  g_free(x->template);
  g_free(x->label);
  g_free(x);
}

void ns_sweep_free(NsSweep *sw)
{
  if (sw == NULL)
    return;
  g_free(sw->source);
  g_free(sw->description);
  g_free(sw->output);
  g_ptr_array_unref(sw->gens);
  g_array_unref(sw->seeds);
  for (guint i = 0; i < sw->measures->len; i++) {
    NsSweepMeasureItem *m = &g_array_index(sw->measures, NsSweepMeasureItem, i);
    g_free(m->label);
    g_free(m->variant.label);
    g_free(m->variant.algorithm);
    g_free(m->variant.sync);
  }
  g_array_unref(sw->measures);
  g_free(sw->pattern);
  g_free(sw->pattern_digest);
  g_free(sw->model);
  g_ptr_array_unref(sw->plots);
  g_free(sw->x);
  if (sw->files != NULL) {
    g_ptr_array_unref(sw->files);
    g_ptr_array_unref(sw->file_paths);
    g_ptr_array_unref(sw->file_digests);
  }
  g_free(sw->format);
  g_ptr_array_set_free_func(sw->points, point_free);
  g_ptr_array_unref(sw->points);
  g_free(sw->digest);
  g_free(sw->measure_settings);
  g_free(sw);
}

/* ---- the grid ------------------------------------------------------------------------ */

static const char *lookup(char **names, char **values, const char *name)
{
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], name) == 0)
      return values[i];
  return NULL;
}

/* Appends ":key=value" when the point sets `name`. */
static void option(GString *s, char **names, char **values, const char *name, const char *key)
{
  const char *v = lookup(names, values, name);
  if (v != NULL)
    g_string_append_printf(s, ":%s=%s", key, v);
}

/* The generator specification of a point, "{seed}" standing for the seed. */
static char *point_template(const NsSweepGen *gen, char **n, char **v, const char *tree)
{
  GString *s = g_string_new(NULL);
  const char *sw = lookup(n, v, "switches"), *p = lookup(n, v, "machines"),
             *r = lookup(n, v, "ratio");
  g_autofree char *derived = NULL;
  if (sw == NULL && p != NULL && gen->model != NS_SWEEP_TRANSIT_STUB) {
    /* machines and ratio (default 5): S = round(P / R) switches, exactly P machines */
    double ratio = r != NULL ? g_ascii_strtod(r, NULL) : 5.0;
    derived = g_strdup_printf("%lld", MAX(1LL, llround(g_ascii_strtod(p, NULL) / ratio)));
    sw = derived;
    r = NULL;
  }
  switch (gen->model) {
  case NS_SWEEP_WAXMAN: {
    NsWaxmanParams d; /* the generator's defaults, not a copy of them */
    ns_waxman_params_init(&d);
    const char *deg = lookup(n, v, "degree");
    g_string_append_printf(s, "waxman:{seed},%s,", sw);
    if (deg != NULL)
      g_string_append(s, deg);
    else
      g_string_append_printf(s, "%g", d.degree);
    option(s, n, v, "alpha", "alpha");
    option(s, n, v, "beta", "beta");
    option(s, n, v, "connect", "connect");
    break;
  }
  case NS_SWEEP_TRANSIT_STUB: {
    NsTransitStubParams d;
    ns_transit_stub_params_init(&d);
    const char *t = lookup(n, v, "transit_domains"), *nt = lookup(n, v, "transit_nodes"),
               *k = lookup(n, v, "stubs"), *ns = lookup(n, v, "stub_nodes");
    g_string_append_printf(s, "transit-stub:{seed}");
    if (t != NULL)
      g_string_append_printf(s, ",%s", t);
    else
      g_string_append_printf(s, ",%d", d.transit_domains);
    const char *given[] = { nt, k, ns };
    const int fallback[] = { d.transit_nodes, d.stubs, d.stub_nodes };
    for (gsize i = 0; i < G_N_ELEMENTS(given); i++)
      if (given[i] != NULL)
        g_string_append_printf(s, ",%s", given[i]);
      else
        g_string_append_printf(s, ",%d", fallback[i]);
    const char *keys[] = { "p_top", "p_transit", "p_stub", "extra_ts", "extra_ss", "hosts" };
    for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
      option(s, n, v, keys[i], keys[i]);
    break;
  }
  case NS_SWEEP_KRUSKAL_TREE:
    g_string_append_printf(s, "kruskal-tree:{seed},%s", sw);
    break;
  case NS_SWEEP_SPEC:
    g_string_append(s, lookup(n, v, "spec") + strlen("gen:"));
    return g_string_free(s, FALSE);
  case NS_SWEEP_FILES: /* the task's file (ns_sweep_task_file) */
    return g_string_free(s, FALSE);
  }
  if (p != NULL)
    g_string_append_printf(s, ":total=%s", p);
  if (r != NULL)
    g_string_append_printf(s, ":machines=%s", r);
  option(s, n, v, "attach", "attach");
  option(s, n, v, "bandwidth", "bandwidth");
  option(s, n, v, "uplink", "uplink");
  option(s, n, v, "latency", "latency");
  if (strcmp(tree, "none") != 0)
    g_string_append_printf(s, ":tree=%s", tree);
  return g_string_free(s, FALSE);
}

/* The points of a generator: the product of its value lists (the last
 * parameter varying fastest), then the tree methods. */
static void expand(NsSweep *sw, guint gi)
{
  const NsSweepGen *gen = g_ptr_array_index(sw->gens, gi);
  guint np = gen->params->len;
  guint *idx = g_new0(guint, np + 1);
  for (;;) {
    for (guint t = 0; t < gen->trees->len; t++) {
      NsSweepPoint *pt = g_new0(NsSweepPoint, 1);
      pt->gen = gi;
      pt->names = g_new0(char *, np + 1);
      pt->values = g_new0(char *, np + 1);
      GString *label = g_string_new(gen->name);
      for (guint k = 0; k < np; k++) {
        const NsSweepParam *p = g_ptr_array_index(gen->params, k);
        pt->names[k] = p->name;
        pt->values[k] = g_ptr_array_index(p->values, idx[k]);
        if (strcmp(p->name, "spec") != 0)
          g_string_append_printf(label, " %s=%s", p->name, pt->values[k]);
      }
      pt->tree = g_strdup(g_ptr_array_index(gen->trees, t));
      if (gen->trees->len > 1 || strcmp(pt->tree, "none") != 0)
        g_string_append_printf(label, " tree=%s", pt->tree);
      pt->label = g_string_free(label, FALSE);
      pt->template = point_template(gen, pt->names, pt->values, pt->tree);
      g_ptr_array_add(sw->points, pt);
    }
    guint k = np;
    while (k > 0) { /* odometer */
      const NsSweepParam *p = g_ptr_array_index(gen->params, k - 1);
      if (++idx[k - 1] < p->values->len)
        break;
      idx[k - 1] = 0;
      k--;
    }
    if (k == 0)
      break;
  }
  g_free(idx);
}

static char *task_key(const NsSweep *sw, guint task)
{
  g_autofree char *spec = ns_sweep_task_spec(sw, task);
  const NsSweepPoint *pt = ns_sweep_task_point(sw, task);
  GString *text = g_string_new(NULL);
  g_string_append_printf(text, "netsched-sweep-row/%d\n", NS_SWEEP_ROW_VERSION);
  if (sw->files != NULL) /* the file by name, bytes and reader; its position seeds trees */
    g_string_append_printf(text, "topology file %s\nbytes %s\nformat %s\nseed %" G_GUINT64_FORMAT
                                 "\n",
                           ns_sweep_task_file(sw, task),
                           (const char *)g_ptr_array_index(sw->file_digests,
                                                           task % sw->seeds->len),
                           sw->format ? sw->format : "guessed", ns_sweep_task_seed(sw, task));
  else
    g_string_append_printf(text, "topology gen:%s\n", spec);
  g_string_append_printf(text, "tree %s\nmetrics %u\nmsize %" G_GUINT64_FORMAT "\n", pt->tree,
                         sw->metrics, sw->msize);
  if (sw->measures->len > 0) {
    g_string_append_printf(text, "model %s\nsettings %s\nmeasure", sw->model,
                           sw->measure_settings ? sw->measure_settings : "");
    for (guint i = 0; i < sw->measures->len; i++)
      g_string_append_printf(text, " %s", g_array_index(sw->measures, NsSweepMeasureItem, i).label);
    g_string_append_c(text, '\n');
  }
  if (sw->pattern != NULL) /* only then: the other rows keep their keys */
    g_string_append_printf(text, "pattern %s\n",
                           sw->pattern_digest ? sw->pattern_digest : sw->pattern);
  char *key = ns_row_digest(text->str);
  g_string_free(text, TRUE);
  return key;
}

void ns_sweep_compile(NsSweep *sw)
{
  if (sw->points->len == 0) {
    g_ptr_array_set_free_func(sw->points, point_free);
    for (guint g = 0; g < sw->gens->len; g++)
      expand(sw, g);
  }
  /* Within NS_SWEEP_MAX_TASKS: the grid was counted before it was expanded. */
  sw->n_tasks = sw->points->len * sw->seeds->len;
  GChecksum *all = g_checksum_new(G_CHECKSUM_SHA256);
  g_checksum_update(all, (const guchar *)"netsched-sweep/1\n", -1);
  for (guint t = 0; t < sw->n_tasks; t++) {
    g_autofree char *key = task_key(sw, t);
    g_checksum_update(all, (const guchar *)key, -1);
    g_checksum_update(all, (const guchar *)"\n", 1);
  }
  g_free(sw->digest);
  sw->digest = g_strndup(g_checksum_get_string(all), 16);
  g_checksum_free(all);
}

const NsSweepPoint *ns_sweep_task_point(const NsSweep *sw, guint task)
{
  return g_ptr_array_index(sw->points, task / sw->seeds->len);
}

guint64 ns_sweep_task_seed(const NsSweep *sw, guint task)
{
  return g_array_index(sw->seeds, guint64, task % sw->seeds->len);
}

char *ns_sweep_task_spec(const NsSweep *sw, guint task)
{
  const NsSweepPoint *pt = ns_sweep_task_point(sw, task);
  g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, ns_sweep_task_seed(sw, task));
  g_auto(GStrv) parts = g_strsplit(pt->template, "{seed}", -1);
  return g_strjoinv(seed, parts);
}

const char *ns_sweep_task_file(const NsSweep *sw, guint task)
{
  return sw->files != NULL ? g_ptr_array_index(sw->files, task % sw->seeds->len) : NULL;
}

const char *ns_sweep_task_file_path(const NsSweep *sw, guint task)
{
  return sw->files != NULL ? g_ptr_array_index(sw->file_paths, task % sw->seeds->len) : NULL;
}

void ns_sweep_set_warn(NsSweep *sw, NsWarnFunc warn, void *data)
{
  sw->warn = warn;
  sw->warn_data = data;
}

char *ns_sweep_task_label(const NsSweep *sw, guint task)
{
  if (sw->files != NULL)
    return g_strdup_printf("%s %s", ns_sweep_task_point(sw, task)->label,
                           ns_sweep_task_file(sw, task));
  return g_strdup_printf("%s seed %" G_GUINT64_FORMAT, ns_sweep_task_point(sw, task)->label,
                         ns_sweep_task_seed(sw, task));
}

void ns_sweep_set_measure(NsSweep *sw, NsMeasureFunc measure, void *data, const char *settings)
{
  sw->measure = measure;
  sw->measure_data = data;
  g_free(sw->measure_settings);
  sw->measure_settings = g_strdup(settings);
  ns_sweep_compile(sw);
}

const char *ns_sweep_output(const NsSweep *sw) { return sw->output; }
const char *ns_sweep_description(const NsSweep *sw) { return sw->description; }
const char *ns_sweep_model(const NsSweep *sw) { return sw->model; }
guint ns_sweep_n_measures(const NsSweep *sw) { return sw->measures->len; }
const char *ns_sweep_digest(const NsSweep *sw) { return sw->digest; }
guint ns_sweep_n_tasks(const NsSweep *sw) { return sw->n_tasks; }
guint ns_sweep_n_points(const NsSweep *sw) { return sw->points->len; }
char *ns_sweep_task_key(const NsSweep *sw, guint task) { return task_key(sw, task); }

GPtrArray *ns_sweep_metric_names(const NsSweep *sw)
{
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (int m = 0; m < N_METRICS; m++)
    if (ns_sweep_metrics[m].group == 0 || (ns_sweep_metrics[m].group & sw->metrics) != 0)
      g_ptr_array_add(names, g_strdup(ns_sweep_metrics[m].name));
  for (guint i = 0; i < sw->measures->len; i++) {
    const char *label = g_array_index(sw->measures, NsSweepMeasureItem, i).label;
    g_ptr_array_add(names, g_strdup_printf("%s.completion_s", label));
    g_ptr_array_add(names, g_strdup_printf("%s.ratio", label));
  }
  return names;
}
