/* netsched — the experiment engine of compare and scenario. See experiment_internal.h. */
#include "analysis/experiment_internal.h"
#include "analysis/experiment_run_internal.h"
#include "analysis/bounds_collective.h"
#include "analysis/experiment_pattern_internal.h"
#include "sched/bound/pattern_bound.h"
#include "sched/ir/route.h"
#include "analysis/csv_internal.h"
#include "analysis/output_dir_internal.h"
#include "analysis/plot_internal.h"
#include "analysis/rowfile_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/io/topology_digest.h"
#include "platforms/model/units.h"
#include "sched/ir/sync.h"
#include "sched/verify/verify.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

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

const char *ns_variant_reference_planner(NsCollective c)
{
  /* A planner registered for c (test_design /design/reference-planners):
   * reduce has no "simple" (the root receiving from every machine is
   * "flat"), allreduce's plainest is reduce-bcast. */
  switch (c) {
  case NS_COLL_BCAST:
  case NS_COLL_REDUCE:
    return "flat";
  case NS_COLL_ALLREDUCE:
    return "reduce-bcast";
  default: /* alltoall, allgather, alltoallv, allgatherv */
    return "simple";
  }
}

/* "smpi:SPEC": a name of letters, digits, '_', '-' and '=' (it labels rows
 * and plots; whether the baseline exists is the measurer's to check). */
static gboolean external_variant(GArray *v, const char *item, GError **error)
{
  const char *spec = item + strlen(NS_VARIANT_EXTERNAL_PREFIX);
  gboolean ok = *spec != '\0';
  for (const char *c = spec; *c != '\0' && ok; c++)
    ok = g_ascii_isalnum(*c) || *c == '_' || *c == '-' || *c == '=';
  if (!ok) {
    g_autofree char *shown = g_strescape(item, NULL);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "'%s': an SMPI baseline is smpi:ALGO or smpi:coll-selector=NAME", shown);
    return FALSE;
  }
  for (guint k = 0; k < v->len; k++)
    if (strcmp(g_array_index(v, NsVariant, k).label, item) == 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "algorithm '%s' is listed twice", item);
      return FALSE;
    }
  NsVariant x = { .label = g_strdup(item), .algorithm = g_strdup(item), .external = TRUE };
  g_array_append_val(v, x);
  return TRUE;
}

GArray *ns_variants_parse(const char *text, NsCollective c, GError **error)
{
  GArray *v = g_array_new(FALSE, FALSE, sizeof(NsVariant));
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  for (int i = 0; parts[i] != NULL; i++) {
    char *item = g_strstrip(parts[i]);
    if (*item == '\0')
      continue;
    if (g_str_has_prefix(item, NS_VARIANT_EXTERNAL_PREFIX)) {
      if (!external_variant(v, item, error))
        goto fail;
      continue;
    }
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
    "completion_s,bound_s,ratio,throughput_mbps,bound_mbps,sync_messages,runs,completion_min_s,"
    "completion_max_s,status\n";
/* The format before repeated runs: upgraded on resume (upgrade_v1). */
static const char csv_header_v1[] =
    "config,topology,collective,model,label,algorithm,sync,msize_bytes,contention_free,valid,"
    "completion_s,bound_s,ratio,throughput_mbps,bound_mbps,sync_messages,status\n";
enum { COL_CONFIG, COL_TOPOLOGY, COL_COLLECTIVE, COL_MODEL, COL_LABEL, COL_ALGORITHM, COL_SYNC,
       COL_MSIZE, COL_CF, COL_VALID, COL_COMPLETION, COL_BOUND, COL_RATIO, COL_MBPS,
       COL_BOUND_MBPS, COL_SYNC_MESSAGES, COL_RUNS, COL_MIN, COL_MAX, COL_STATUS, N_COLS };
enum { V1_COL_STATUS = 16, V1_N_COLS = 17 };
/* Under an arrival pattern, after the status (NsCompareSpec.arrival_columns). */
static const char csv_arrival_columns[] =
    ",avg_imbalance_factor,max_imbalance_factor,per_node_time_s,span_s";
enum { N_ARRIVAL_COLS = 4 };

/* What the plot needs of a row, whether run now or resumed. */
typedef struct {
  gboolean present, ok;
  double mbps, bound_mbps;
  double mbps_lo, mbps_hi; /* at the slowest and the fastest run */
  char **fields;           /* a resumed row's fields (the last one of its key wins) */
} Cell;

/* Throughput at the slowest and fastest runs, from the median's. */
static void cell_spread(Cell *c, double completion, double min_s, double max_s)
{
  c->mbps_lo = max_s > 0 ? c->mbps * completion / max_s : c->mbps;
  c->mbps_hi = min_s > 0 ? c->mbps * completion / min_s : c->mbps;
}

typedef struct {
  const NsCompareSpec *spec;
  char *config;            /* digest of everything that determines a row */
  char *config_legacy;     /* the same under the digest of netsched 0.x (the native
                              writer's text): rows keyed so are resumed under it */
  char *topology_name;
  char **configs;          /* under a size pattern: config per size (the pattern's
                              content digested in), else NULL */
  NsSizePattern *fixed;    /* a pattern that does not scale with the size, loaded once */
  Cell *cells;             /* variant × size */
  NsRowFile *rows;         /* compare.csv (analysis/rowfile_internal.h) */
  char *csv_path;
} Run;

static Cell *cell(Run *run, guint v, guint k) { return &run->cells[v * run->spec->sizes->len + k]; }

/* A digest of the topology's model, its name in rows and every setting
 * that changes a row (docs/sweeps.md, "Resume keys"). */
static char *config_digest(const NsCompareSpec *spec, const char *topology_name,
                           const char *pattern_digest)
{
  g_autofree char *topo = ns_topology_digest(spec->topo);
  g_autofree char *text = g_strdup_printf(
      "netsched-compare/3\ntopology-model %s\nname %s\ncollective %s\nmodel %s\nsettings %s\n"
      "root %d\nsegment %" G_GUINT64_FORMAT "\narity %d\n",
      topo, topology_name, ns_collective_name(spec->collective), spec->model,
      spec->settings ? spec->settings : "", spec->params.root, spec->params.segment,
      spec->params.arity);
  if (pattern_digest != NULL) { /* only then: the other rows keep their keys */
    g_autofree char *with = g_strdup_printf("%spattern %s\n", text, pattern_digest);
    return ns_row_digest(with);
  }
  return ns_row_digest(text);
}

static const char *pattern_option(const NsCompareSpec *spec)
{
  return spec->pattern_option != NULL ? spec->pattern_option : "--pattern";
}

/* The size pattern of the rows of msize (the fixed one, or a new one that
 * the caller frees: *owned). */
static const NsSizePattern *pattern_at(const Run *run, uint64_t msize, NsSizePattern **owned,
                                       GError **error)
{
  const NsCompareSpec *spec = run->spec;
  *owned = NULL;
  if (run->fixed != NULL)
    return run->fixed;
  *owned = ns_pattern_axis_at(spec->pattern, pattern_option(spec), spec->collective,
                              ns_topology_n_machines(spec->topo), msize, error);
  return *owned;
}

/* The config of the rows of msize: the run's, or under a size pattern the
 * one with that size's pattern digested in; NULL with the pattern's error. */
static char *row_config(const Run *run, uint64_t msize, GError **error)
{
  if (run->spec->pattern == NULL)
    return g_strdup(run->config);
  g_autoptr(NsSizePattern) owned = NULL;
  const NsSizePattern *pat = pattern_at(run, msize, &owned, error);
  if (pat == NULL)
    return NULL;
  g_autofree char *digest = ns_pattern_axis_digest(pat);
  return config_digest(run->spec, run->topology_name, digest);
}

/* The configuration digest netsched 0.x wrote (the topology by the native
 * writer's text), recognised on resume; NULL when the writer refuses the
 * topology, which then has no such rows. */
static char *config_digest_legacy(const NsCompareSpec *spec)
{
  g_autofree char *topo = ns_topology_digest_legacy(spec->topo);
  if (topo == NULL)
    return NULL;
  g_autofree char *text = g_strdup_printf(
      "netsched-compare/2\ntopology %s\ncollective %s\nmodel %s\nsettings %s\nroot %d\n"
      "segment %" G_GUINT64_FORMAT "\narity %d\n",
      topo, ns_collective_name(spec->collective), spec->model, spec->settings ? spec->settings : "",
      spec->params.root, spec->params.segment, spec->params.arity);
  return ns_row_digest(text);
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

/* A cell from the fields of its row as compare.csv holds them (taking
 * `f`): rows run now and rows resumed are read alike, so a resumed run
 * computes everything from the same rounded values as an uninterrupted
 * one and writes the same bytes. */
static void cell_from_fields(Cell *c, char **f)
{
  c->present = TRUE;
  c->ok = strcmp(f[COL_STATUS], "ok") == 0;
  c->mbps = g_ascii_strtod(f[COL_MBPS], NULL);
  c->bound_mbps = g_ascii_strtod(f[COL_BOUND_MBPS], NULL);
  cell_spread(c, g_ascii_strtod(f[COL_COMPLETION], NULL), g_ascii_strtod(f[COL_MIN], NULL),
              g_ascii_strtod(f[COL_MAX], NULL));
  g_strfreev(c->fields);
  c->fields = f;
}

/* Resume: one row of compare.csv (rowfile_internal.h drops a last row cut short
 * by a crash). Its key is (label, size); the row must be of this
 * configuration. */
static gboolean load_row(const char *line, int lineno, char **key, void *user, GError **error)
{
  Run *run = user;
  g_auto(GStrv) f = ns_csv_split(line);
  guint n_cols = N_COLS + (run->spec->arrival_columns ? N_ARRIVAL_COLS : 0);
  if (f == NULL || g_strv_length(f) != n_cols) {
    ns_set_error_at(error, NS_ERROR_INPUT, run->csv_path, lineno,
                    "malformed row (expected %u fields): remove the row or the file", n_cols);
    return FALSE;
  }
  if (run->config_legacy != NULL && strcmp(f[COL_CONFIG], run->config_legacy) == 0) {
    /* A file of netsched 0.x: resumed under its own key, so that its rows
     * stay of one configuration and a resume changes no byte of them. */
    g_free(run->config);
    run->config = g_steal_pointer(&run->config_legacy);
  }
  uint64_t msize = g_ascii_strtoull(f[COL_MSIZE], NULL, 10);
  int k = size_index(run->spec, msize);
  /* under a size pattern, a row of a size this run does not ask for is
   * checked against that size's pattern (a bad size: no pattern, the run's) */
  g_autofree char *other = run->configs != NULL && k < 0 ? row_config(run, msize, NULL) : NULL;
  const char *config = run->configs == NULL ? run->config
                       : k >= 0             ? run->configs[k]
                       : other != NULL      ? other
                                            : run->config;
  if (strcmp(f[COL_CONFIG], config) != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, run->csv_path, lineno,
                    "row of another configuration (config %s, this run %s: the topology, "
                    "model, settings or planning parameters differ); resuming would mix "
                    "them: choose another --output, or remove the file to start over",
                    f[COL_CONFIG], config);
    return FALSE;
  }
  *key = g_strdup_printf("%s\n%s", f[COL_LABEL], f[COL_MSIZE]);
  int v = variant_index(run->spec, f[COL_LABEL]);
  if (v < 0 || k < 0)
    return TRUE; /* a row this run does not ask for: kept in the file, not redone */
  Cell *c = cell(run, (guint)v, (guint)k);
  if (strcmp(f[COL_STATUS], "ok") != 0 && run->spec->retry_failed)
    return TRUE; /* run again, unless a later row succeeded */
  cell_from_fields(c, g_steal_pointer(&f));
  return TRUE;
}

/* Hands a row, kept or run now, to the sink, from its fields as written:
 * a resumed run and an uninterrupted one give the sink the same values. */
static void sink_cell(Run *run, const Cell *c)
{
  const NsCompareSpec *spec = run->spec;
  char **f = c->fields;
  if (f == NULL || spec->sink == NULL)
    return;
  NsCompareRow row = {
    .label = f[COL_LABEL], .algorithm = f[COL_ALGORITHM], .sync = f[COL_SYNC],
    .status = f[COL_STATUS], .msize = g_ascii_strtoull(f[COL_MSIZE], NULL, 10), .ok = c->ok,
    .contention_free = strcmp(f[COL_CF], "1") == 0, .valid = strcmp(f[COL_VALID], "1") == 0,
    .completion_s = g_ascii_strtod(f[COL_COMPLETION], NULL),
    .bound_s = g_ascii_strtod(f[COL_BOUND], NULL), .mbps = c->mbps,
    .bound_mbps = c->bound_mbps, .runs = (int)g_ascii_strtoll(f[COL_RUNS], NULL, 10),
    .min_s = g_ascii_strtod(f[COL_MIN], NULL), .max_s = g_ascii_strtod(f[COL_MAX], NULL),
  };
  spec->sink(&row, spec->sink_data);
}

/* A compare.csv of the 17-column format (before repeated runs) becomes
 * the current one, in place and whole (temporary file and rename): every
 * row gains runs 1 and min = max = its completion. Anything else is left
 * alone for the row file to accept or refuse. */
static gboolean upgrade_v1(const NsCompareSpec *spec, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (g_file_test(path, G_FILE_TEST_IS_SYMLINK)) /* never read through: the row file refuses it */
    return TRUE;
  if (!g_file_get_contents(path, &text, &len, NULL) || !g_str_has_prefix(text, csv_header_v1))
    return TRUE;
  g_autoptr(GString) out = g_string_new(csv_header);
  g_auto(GStrv) lines = g_strsplit(text + strlen(csv_header_v1), "\n", -1);
  for (int i = 0; lines[i] != NULL; i++) {
    g_auto(GStrv) f = ns_csv_split(lines[i]);
    if (lines[i][0] == '\0' || f == NULL || g_strv_length(f) != V1_N_COLS) {
      if (lines[i][0] != '\0' && lines[i + 1] != NULL) { /* a cut-short last line is dropped */
        ns_set_error_at(error, NS_ERROR_INPUT, path, i + 2,
                        "malformed row (expected %d fields): remove the row or the file",
                        V1_N_COLS);
        return FALSE;
      }
      continue;
    }
    g_autoptr(GString) row = g_string_new(NULL);
    for (int c = 0; c < V1_COL_STATUS; c++)
      ns_csv_append(row, f[c]);
    gboolean ok = strcmp(f[V1_COL_STATUS], "ok") == 0;
    ns_csv_append(row, ok ? "1" : "");
    ns_csv_append(row, f[COL_COMPLETION]);
    ns_csv_append(row, f[COL_COMPLETION]);
    ns_csv_append(row, f[V1_COL_STATUS]);
    g_string_append_printf(out, "%s\n", row->str);
  }
  if (!g_file_set_contents(path, out->str, (gssize)out->len, error))
    return FALSE;
  ns_warnf(spec->note, spec->warn_data,
           "%s: upgraded to the current compare.csv format (runs columns)", path);
  return TRUE;
}

/* Plans, verifies and measures one variant × size into `out`: ROW_OK, its
 * compare.csv line, '\0' and its lines of the table; or ROW_ERROR and the
 * message of an error that stops the experiment. Changes nothing else, so
 * a worker process computes it as well as this one (experiment_runs.c). */
enum { ROW_OK = 'r', ROW_ERROR = 'e' };

static void compute_row(const Run *run, guint vi, guint k, GString *out)
{
  const NsCompareSpec *spec = run->spec;
  const NsVariant *v = &g_array_index(spec->variants, NsVariant, vi);
  uint64_t msize = g_array_index(spec->sizes, uint64_t, k);
  g_autofree char *size = ns_format_size(msize);
  GError *err = NULL;
  NsPlanParams params = spec->params;
  params.msize = msize;
  g_autoptr(NsSizePattern) owned = NULL;
  if (spec->pattern != NULL && (params.pattern = pattern_at(run, msize, &owned, &err)) == NULL) {
    /* generated before the first row: not expected */
    g_string_append_c(out, ROW_ERROR);
    g_string_append(out, err->message);
    g_error_free(err);
    return;
  }
  /* An external baseline: the reference schedule gives the bound only. */
  const char *planner = v->external ? ns_variant_reference_planner(spec->collective) : v->algorithm;
  g_autoptr(NsSchedule) s = ns_plan(spec->topo, spec->collective, planner, &params, &err);
  /* Routed, verified and bounded once: the measurement gets all three
   * (row_facts.h). Routes that do not fit are the verifier's error. */
  gboolean cf = FALSE;
  NsVerifyReport vr = { 0 };
  NsRowFacts facts = { 0 };
  g_autoptr(NsRouter) routes = s != NULL ? ns_router_for(spec->topo, s, NULL) : NULL;
  NsVerifyOptions vo;
  ns_verify_options_init(&vo);
  vo.router = facts.routes = routes;
  if (s != NULL && !v->external && ns_verify(spec->topo, s, &vo, &vr, &err)) {
    cf = vr.failures[NS_CHECK_CONTENTION] == 0;
    facts.verified = &vr;
  }
  /* The bound does not depend on the measurement: failed rows keep it. */
  double bound = s != NULL ? ns_collective_bound_routed(spec->topo, s, s->msize, routes) : 0;
  NsPatternBound pb;
  if (params.pattern != NULL) /* the pattern's own: ports and routed links, in bytes */
    bound = s != NULL && ns_pattern_bound(spec->topo, params.pattern, &pb, NULL) ? pb.seconds : 0;
  facts.bound_s = bound;
  NsMeasure m = { 0 };
  gboolean ok = s != NULL && err == NULL &&
                spec->measure(spec->topo, s, v, msize, &facts, &m, spec->measure_data, &err);
  ns_verify_report_clear(&vr);
  double required = s != NULL ? ns_collective_required_bytes(s, s->msize) : 0;
  double bound_mbps = bound > 0 ? required * 8.0 / bound / 1e6 : 0;
  const char *sync = ok                                      ? m.sync
                     : v->sync                               ? v->sync
                     : s && s->execution == NS_EXEC_POSTED   ? ns_execution_name(s->execution)
                     : s && s->sync_scheme                   ? s->sync_scheme
                                                             : "none";
  /* a pattern that moves no bytes takes no time: 0/0 is no throughput */
  double mbps = ok && isfinite(m.throughput_bps) ? m.throughput_bps / 1e6 : 0;
  g_autoptr(GString) row = g_string_new(NULL);
  ns_csv_append(row, run->configs != NULL ? run->configs[k] : run->config);
  ns_csv_append(row, run->topology_name);
  ns_csv_append(row, ns_collective_name(spec->collective));
  ns_csv_append(row, spec->model);
  ns_csv_append(row, v->label);
  ns_csv_append(row, s && !v->external ? s->algorithm : v->algorithm);
  ns_csv_append(row, sync);
  ns_csv_appendf(row, "%" G_GUINT64_FORMAT, msize);
  ns_csv_appendf(row, "%d", cf);
  ns_csv_appendf(row, "%d", ok && m.valid);
  int runs = MAX(m.runs, 1);
  double min_s = runs > 1 ? m.min_s : m.completion_s, max_s = runs > 1 ? m.max_s : m.completion_s;
  if (ok) {
    ns_csv_appendf(row, "%.9f", m.completion_s);
    ns_csv_appendf(row, "%.9f", bound);
    ns_csv_appendf(row, "%.6f", bound > 0 ? m.completion_s / bound : 0);
    ns_csv_appendf(row, "%.4f", mbps);
  } else {
    ns_csv_append(row, "");
    ns_csv_append_bound(row, 9, bound); /* empty when the planner refused: no schedule */
    ns_csv_append(row, "");
    ns_csv_append(row, "");
  }
  ns_csv_append_bound(row, 4, bound_mbps);
  if (ok) {
    ns_csv_appendf(row, "%" G_GUINT64_FORMAT, m.sync_messages);
    ns_csv_appendf(row, "%d", runs);
    ns_csv_appendf(row, "%.9f", min_s);
    ns_csv_appendf(row, "%.9f", max_s);
  } else {
    for (int i = 0; i < 4; i++)
      ns_csv_append(row, "");
  }
  ns_csv_append(row, ok ? "ok" : err ? err->message : "?");
  if (spec->arrival_columns && ok) {
    ns_csv_appendf(row, "%.6f", m.avg_imbalance);
    ns_csv_appendf(row, "%.6f", m.max_imbalance);
    ns_csv_appendf(row, "%.9f", m.per_node_s);
    ns_csv_appendf(row, "%.9f", m.span_s);
  } else if (spec->arrival_columns) {
    for (int i = 0; i < N_ARRIVAL_COLS; i++)
      ns_csv_append(row, "");
  }
  g_string_append_c(out, ROW_OK);
  g_string_append_len(out, row->str, (gssize)row->len);
  g_string_append(out, "\n");
  g_string_append_c(out, '\0');
  if (spec->table != NULL) {
    if (ok && runs > 1)
      g_string_append_printf(out, "%-24s %10s %12.6f %12.6f %8.4f %12.2f %5s  %d runs: %.6f .. %.6f%s\n",
              v->label, size, m.completion_s, bound, bound > 0 ? m.completion_s / bound : 0,
              mbps, cf ? "yes" : "no", runs, min_s, max_s, m.valid ? "" : "  INVALID");
    else if (ok)
      g_string_append_printf(out, "%-24s %10s %12.6f %12.6f %8.4f %12.2f %5s%s\n", v->label, size,
              m.completion_s, bound, bound > 0 ? m.completion_s / bound : 0, mbps,
              v->external ? "?" : cf ? "yes" : "no",
              v->external ? "  measured by SMPI (smpirun)" : m.valid ? "" : "  INVALID");
    else
      g_string_append_printf(out, "%-24s %10s   n/a: %s\n", v->label, size, err ? err->message : "?");
    if (ok && spec->arrival_columns)
      g_string_append_printf(out, "%-24s %10s   arrival δ̄/T %.3f, ω/T %.3f: ē %.6f s, first arrival "
              "to last finish %.6f s\n", "", "", m.avg_imbalance, m.max_imbalance, m.per_node_s,
              m.span_s);
  }
  g_clear_error(&err);
}

/* Writes a row compute_row made: its line to compare.csv, its lines to the
 * table, its cell to the plot and the sink. */
static gboolean commit_row(Run *run, guint vi, guint k, const char *bytes, gsize len,
                           GError **error)
{
  const NsCompareSpec *spec = run->spec;
  if (len > 0 && bytes[0] == ROW_ERROR) { /* the size pattern's error */
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%.*s", (int)MIN(len - 1, 4096), bytes + 1);
    return FALSE;
  }
  const char *line = bytes + 1, *nul = len > 0 ? memchr(line, '\0', len - 1) : NULL;
  if (len == 0 || bytes[0] != ROW_OK || nul == NULL || nul == line || nul[-1] != '\n') {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "a row of %s came back malformed",
                    run->csv_path);
    return FALSE;
  }
  gsize line_len = (gsize)(nul - line);
  if (!ns_row_file_append(run->rows, NULL, line, line_len, error))
    return FALSE;
  if (spec->table != NULL) {
    fwrite(nul + 1, 1, len - 1 - line_len - 1, spec->table);
    fflush(spec->table);
  }
  g_autofree char *text = g_strndup(line, line_len - 1); /* without the line end */
  char **fields = ns_csv_split(text); /* our own row: never malformed */
  if (fields != NULL) {
    cell_from_fields(cell(run, vi, k), fields);
    sink_cell(run, cell(run, vi, k));
  }
  return TRUE;
}

/* ---- the plot --------------------------------------------------------------- */

/* compare.dat: one block per variant with results ("msize mbps"), then the
 * bound ("msize bound_mbps"); blocks are separated by two blank lines, so
 * the script addresses them by index and holds no data. */
static gboolean write_plot(Run *run, gboolean *plotted, GError **error)
{
  *plotted = FALSE;
  const NsCompareSpec *spec = run->spec;
  g_autoptr(GString) dat = g_string_new(
      "# netsched compare: msize_bytes throughput_mbps (median run) slowest_run fastest_run\n");
  g_autoptr(GString) gp = g_string_new(NULL);
  g_autofree char *title_text = g_strdup_printf("%s on %s (%s model)",
                                                ns_collective_name(spec->collective),
                                                run->topology_name, spec->model);
  g_autofree char *title = ns_gnuplot_string(title_text);
  g_string_append_printf(
      gp,
      "# netsched compare: throughput against message size.\n"
      "# Data in compare.dat, one block per algorithm (see its comments).\n"
      "set title %s noenhanced\n"
      "set xlabel 'message size' noenhanced\n"
      "set ylabel 'aggregate throughput (Mbit/s)' noenhanced\n"
      "set logscale x 2\nset yrange [0:*]\nset offsets graph 0.04, graph 0.04, 0, 0\n"
      "set key outside right noenhanced\nset grid\n",
      title);
  ns_gnuplot_size_xtics(gp, (const uint64_t *)(const void *)spec->sizes->data, spec->sizes->len);
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
        g_string_append_printf(dat, "%" G_GUINT64_FORMAT " %.4f %.4f %.4f\n",
                               g_array_index(spec->sizes, uint64_t, k), cell(run, v, k)->mbps,
                               cell(run, v, k)->mbps_lo, cell(run, v, k)->mbps_hi);
    g_autofree char *quoted = ns_gnuplot_string(label);
    /* Error bars span the runs (slowest to fastest); points and dash
     * patterns differ per algorithm, so overlapping curves stay apart. */
    g_string_append_printf(plot, "%s'compare.dat' index %d using 1:2:3:4 with yerrorlines "
                                 "pt %d dt %d title %s",
                           block ? ", \\\n     " : "", block, 1 + block % 13, 1 + block % 5,
                           quoted);
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
  const char *outputs[] = { terms[0][1], terms[1][1], NULL };
  for (int t = 0; t < 2; t++) {
    g_string_append_printf(gp, "set terminal %s\n", terms[t][0]);
    ns_gnuplot_output(gp, terms[t][1]);
    g_string_append_printf(gp, "%s\n", plot->str);
  }
  g_autofree char *dat_path = g_build_filename(spec->outdir, "compare.dat", NULL);
  g_autofree char *gp_path = g_build_filename(spec->outdir, "compare.gp", NULL);
  if (!g_file_set_contents(dat_path, dat->str, -1, error) ||
      !g_file_set_contents(gp_path, gp->str, -1, error))
    return FALSE;
  g_autofree char *why = NULL;
  *plotted = ns_plot_run(spec->outdir, "compare.gp", outputs, &why, error);
  if (why != NULL)
    ns_plot_warn_none(spec->warn, spec->warn_data, NULL, why, spec->outdir);
  return *plotted || why != NULL;
}

/* ---- the run (experiment_run_internal.h) ---------------------------------------- */

struct NsCompareRun {
  Run run;
  NsOutputLock *lock;
  char *header; /* compare.csv's, with the arrival columns when asked */
};

void ns_compare_run_close(NsCompareRun *r)
{
  if (r == NULL)
    return;
  Run *run = &r->run;
  const NsCompareSpec *spec = run->spec;
  ns_row_file_close(run->rows);
  ns_output_dir_unlock(r->lock);
  g_free(run->config);
  g_free(run->config_legacy);
  g_strfreev(run->configs);
  ns_size_pattern_free(run->fixed);
  g_free(run->topology_name);
  for (gsize i = 0; run->cells != NULL && i < (gsize)spec->variants->len * spec->sizes->len; i++)
    g_strfreev(run->cells[i].fields);
  g_free(run->cells);
  g_free(run->csv_path);
  g_free(r->header);
  g_free(r);
}

NsCompareRun *ns_compare_run_open(const NsCompareSpec *spec, GError **error)
{
  /* Refused as a whole, at once, rather than row by row. */
  if (!ns_collective_size_check(spec->collective, ns_topology_n_machines(spec->topo), error))
    return NULL;
  NsCompareRun *r = g_new0(NsCompareRun, 1);
  Run *run = &r->run;
  run->spec = spec;
  run->topology_name = spec->name != NULL ? g_strdup(spec->name)
                                          : g_path_get_basename(ns_topology_source(spec->topo));
  run->config = config_digest(spec, run->topology_name, NULL);
  /* netsched 0.x had no size patterns: no row of a pattern is of its format */
  run->config_legacy = spec->resume && spec->pattern == NULL ? config_digest_legacy(spec) : NULL;
  if (!ns_pattern_axis_check(spec->pattern, spec->collective, spec->sizes, pattern_option(spec),
                             error))
    goto fail;
  if (spec->pattern != NULL) {
    /* every size's pattern made (and so checked) before the first row */
    if (!ns_pattern_axis_scaled(spec->pattern) &&
        (run->fixed = ns_pattern_axis_at(spec->pattern, pattern_option(spec), spec->collective,
                                         ns_topology_n_machines(spec->topo), 0, error)) == NULL)
      goto fail;
    run->configs = g_new0(char *, spec->sizes->len + 1);
    for (guint k = 0; k < spec->sizes->len; k++)
      if ((run->configs[k] = row_config(run, g_array_index(spec->sizes, uint64_t, k), error)) ==
          NULL)
        goto fail;
  }
  run->cells = g_new0(Cell, (gsize)spec->variants->len * spec->sizes->len);
  run->csv_path = g_build_filename(spec->outdir, "compare.csv", NULL);
  if ((r->lock = ns_output_dir_lock(spec->outdir, NULL, error)) == NULL)
    goto fail;
  r->header = spec->arrival_columns ? g_strdup_printf("%.*s%s\n", (int)strlen(csv_header) - 1,
                                                      csv_header, csv_arrival_columns)
                                    : g_strdup(csv_header);
  NsRowFileSpec rows = {
    .path = run->csv_path, .header = r->header, .resume = spec->resume, .row = load_row,
    .user = run, .warn = spec->warn, .warn_data = spec->warn_data,
    .header_hint = "not a compare.csv of this netsched version (its columns differ): "
                   "choose another --output, or remove it to start over",
  };
  if ((spec->resume && !upgrade_v1(spec, run->csv_path, error)) ||
      (run->rows = ns_row_file_open(&rows, error)) == NULL)
    goto fail;
  return r;
fail:
  ns_compare_run_close(r);
  return NULL;
}

guint ns_compare_run_n_rows(const NsCompareRun *r)
{
  return r->run.spec->variants->len * r->run.spec->sizes->len;
}

gboolean ns_compare_run_kept(const NsCompareRun *r, guint row)
{
  return r->run.cells[row].present;
}

char *ns_compare_run_row_name(const NsCompareRun *r, guint row)
{
  const NsCompareSpec *spec = r->run.spec;
  g_autofree char *size =
      ns_format_size(g_array_index(spec->sizes, uint64_t, row % spec->sizes->len));
  return g_strdup_printf("%s %s", g_array_index(spec->variants, NsVariant,
                                                row / spec->sizes->len).label, size);
}

void ns_compare_run_compute(const NsCompareRun *r, guint row, GString *out)
{
  compute_row(&r->run, row / r->run.spec->sizes->len, row % r->run.spec->sizes->len, out);
}

void ns_compare_run_start(NsCompareRun *r)
{
  FILE *table = r->run.spec->table;
  if (table != NULL)
    fprintf(table, "%-24s %10s %12s %12s %8s %12s %5s\n", "algorithm[:sync]", "msize", "time_s",
            "bound_s", "ratio", "Mbit/s", "cf");
}

gboolean ns_compare_run_commit(NsCompareRun *r, guint row, const char *bytes, gsize len,
                               GError **error)
{
  Run *run = &r->run;
  const NsCompareSpec *spec = run->spec;
  guint v = row / spec->sizes->len, k = row % spec->sizes->len;
  if (bytes != NULL)
    return commit_row(run, v, k, bytes, len, error);
  /* kept: the last row of its key in the file */
  if (spec->table != NULL) {
    g_autofree char *size = ns_format_size(g_array_index(spec->sizes, uint64_t, k));
    fprintf(spec->table, "%-24s %10s   (kept from the previous run)\n",
            g_array_index(spec->variants, NsVariant, v).label, size);
  }
  sink_cell(run, cell(run, v, k));
  return TRUE;
}

gboolean ns_compare_run_finish(NsCompareRun *r, GError **error)
{
  Run *run = &r->run;
  const NsCompareSpec *spec = run->spec;
  gboolean any = FALSE;
  for (gsize i = 0; i < (gsize)spec->variants->len * spec->sizes->len; i++)
    any = any || run->cells[i].ok;
  if (spec->need_result && !any) { /* an empty plot would look like a result */
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "no row has a result: every algorithm was refused or failed (the status "
                    "column of %s says why); no plot written",
                    run->csv_path);
    return FALSE;
  }
  gboolean plotted = FALSE;
  if (!write_plot(run, &plotted, error))
    return FALSE;
  if (spec->table != NULL) {
    /* paths joined by GLib (no "out//compare.svg") */
    fprintf(spec->table, "\nwrote %s", run->csv_path);
    if (plotted) {
      g_autofree char *svg = g_build_filename(spec->outdir, "compare.svg", NULL);
      g_autofree char *png = g_build_filename(spec->outdir, "compare.png", NULL);
      fprintf(spec->table, ", %s, %s", svg, png);
    } else {
      fprintf(spec->table, " (no plot)");
    }
    fprintf(spec->table, "\n");
  }
  return TRUE;
}
