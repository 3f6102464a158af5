/* netsched — `netsched tune`: measuring and choosing (see tune_internal.h;
 * Faraj's dissertation §4.1.1.3–4.1.1.4). The outputs besides
 * measurements.csv are analysis/tune_outputs.c. */
#include "analysis/tune_internal.h"
#include "analysis/csv_internal.h"
#include "analysis/experiment_pattern_internal.h"
#include "analysis/output_dir_internal.h"
#include "analysis/rowfile_internal.h"
#include "analysis/tune_outputs_internal.h"
#include "analysis/tune_search_internal.h"
#include "platforms/io/topology_digest.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/model/units.h"
#include <math.h>
#include <string.h>

/* The MPI libraries' choices are baselines, not repository algorithms. */
static const char *const selectors[] = { "mpich", "ompi", "ompi-legacy", NULL };
/* The pipelined broadcasts (§4.1.1.1: "pipelined linear and binary tree"),
 * whose segment size is a parameter (§4.1.1.3). */
static const char *const pipelined[] = { "linear-cf", "binary-cf", "kary-cf", "linear", "binary",
                                         NULL };
/* The "N MPI barriers" variants (§4.1.1.1), whose barrier count is one. */
static const char *const n_barrier[] = { "ring-n-barrier", "pair-n-barrier", NULL };

enum { SEGMENT_MIN = 1024, SEGMENT_MAX = 64 * 1024 };

typedef struct {
  char *algorithm;      /* the registered name */
  GPtrArray *values;    /* char*: its parameter values ("" when it has none) */
  GArray *switches;     /* NsTuneSwitch over values: the tuned parameter by size */
  gboolean applies;     /* measured somewhere */
  char *why_not;        /* the first refusal, for the note */
} Candidate;

typedef struct {
  const NsTuneSpec *spec;
  int p;
  char *config;
  char *topology_name;
  char *csv_path;
  GPtrArray *candidates;  /* Candidate* */
  GHashTable *times;      /* "algorithm\nparams\nmsize" -> double* (< 0: does not apply) */
  GHashTable *why;        /* the same key -> status of a measurement that does not apply */
  NsRowFile *rows;
  guint measured, reused;
  Candidate *current;     /* step 3: the candidate whose parameter is searched */
} Tune;

static void candidate_free(gpointer p)
{
  Candidate *c = p;
  g_free(c->algorithm);
  g_ptr_array_unref(c->values);
  if (c->switches != NULL)
    g_array_unref(c->switches);
  g_free(c->why_not);
  g_free(c);
}

void ns_tune_result_free(NsTuneResult *r)
{
  if (r == NULL)
    return;
  ns_decision_table_free(r->table);
  g_free(r);
}

static gboolean listed(const char *const *names, const char *name)
{
  return g_strv_contains(names, name);
}

/* ---- parameters ------------------------------------------------------------- */

/* The barrier counts of the N-barrier variants: every block size BS from 1
 * to (p − 1)/2 splits the p − 1 phases into ⌈(p − 1)/BS⌉ blocks, with one
 * barrier fewer; each distinct count once (the linear search's space). */
static void barrier_values(GPtrArray *values, int p)
{
  int last = -1;
  for (int bs = 1; bs <= MAX((p - 1) / 2, 1); bs++) {
    int n = (p - 1 + bs - 1) / bs - 1;
    if (n < 1 || n == last)
      continue;
    last = n;
    g_ptr_array_add(values, g_strdup_printf("barriers=%d", n));
  }
  if (values->len == 0)
    g_ptr_array_add(values, g_strdup(""));
}

static void segment_values(GPtrArray *values)
{
  g_ptr_array_add(values, g_strdup("")); /* the whole message */
  for (uint64_t s = SEGMENT_MIN; s <= SEGMENT_MAX; s *= 2)
    g_ptr_array_add(values, g_strdup_printf("segment=%" G_GUINT64_FORMAT, s));
}

/* ---- candidates ------------------------------------------------------------- */

/* `name` is a registered planner's name (ns_variants_parse checked it). */
static void add_candidate(Tune *tune, const char *name)
{
  const NsTuneSpec *spec = tune->spec;
  const NsPlanner *planner = ns_planner_find(spec->collective, name);
  Candidate *c = g_new0(Candidate, 1);
  c->algorithm = g_strdup(planner->name);
  c->values = g_ptr_array_new_with_free_func(g_free);
  if (spec->collective == NS_COLL_ALLTOALL && listed(n_barrier, c->algorithm))
    barrier_values(c->values, tune->p);
  else if (spec->collective == NS_COLL_BCAST && listed(pipelined, c->algorithm))
    segment_values(c->values);
  else
    g_ptr_array_add(c->values, g_strdup(""));
  g_ptr_array_add(tune->candidates, c);
}

static gboolean parse_candidates(Tune *tune, GError **error)
{
  const NsTuneSpec *spec = tune->spec;
  if (spec->algorithms == NULL) {
    int n;
    const NsPlanner *all = ns_planners(&n);
    for (int i = 0; i < n; i++)
      if (all[i].collective == spec->collective && !listed(selectors, all[i].name))
        add_candidate(tune, all[i].name);
    return TRUE;
  }
  /* The experiment engine's parser: names checked against the registry,
   * duplicates refused. Tune plans each algorithm with its own scheme (or
   * its tuned barrier count), so a scheme or an SMPI baseline is not a
   * candidate. */
  GArray *v = ns_variants_parse(spec->algorithms, spec->collective, error);
  if (v == NULL) {
    g_prefix_error(error, "-a: ");
    return FALSE;
  }
  gboolean ok = TRUE;
  for (guint i = 0; i < v->len && ok; i++) {
    const NsVariant *x = &g_array_index(v, NsVariant, i);
    if (x->sync != NULL || x->external) {
      g_autofree char *shown = g_strescape(x->label, NULL);
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "-a: '%s': tune takes algorithm names (each runs its own scheme)", shown);
      ok = FALSE;
    } else {
      add_candidate(tune, x->algorithm);
    }
  }
  ns_variants_free(v);
  return ok;
}

/* ---- measurements.csv --------------------------------------------------------- */

static const char csv_header[] =
    "config,collective,algorithm,params,msize_bytes,time_s,stage,status\n";
enum { COL_CONFIG, COL_COLLECTIVE, COL_ALGORITHM, COL_PARAMS, COL_MSIZE, COL_TIME, COL_STAGE,
       COL_STATUS, N_COLS };

static char *key_of(const char *algorithm, const char *params, uint64_t msize)
{
  return g_strdup_printf("%s\n%s\n%" G_GUINT64_FORMAT, algorithm, params, msize);
}

static void remember(Tune *tune, char *key, double t, const char *status)
{
  double *v = g_new(double, 1);
  *v = t;
  if (t < 0)
    g_hash_table_replace(tune->why, g_strdup(key), g_strdup(status));
  g_hash_table_replace(tune->times, key, v);
}

static gboolean load_row(const char *line, int lineno, char **key, void *user, GError **error)
{
  Tune *tune = user;
  g_auto(GStrv) f = ns_csv_split(line);
  if (f == NULL || g_strv_length(f) != N_COLS) {
    ns_set_error_at(error, NS_ERROR_INPUT, tune->csv_path, lineno,
                    "malformed row (expected %d fields): remove the row or the file", N_COLS);
    return FALSE;
  }
  if (strcmp(f[COL_CONFIG], tune->config) != 0) {
    ns_set_error_at(error, NS_ERROR_INPUT, tune->csv_path, lineno,
                    "row of another configuration (config %s, this run %s: the topology, "
                    "collective, model or settings differ); choose another --output, or "
                    "--overwrite to start over",
                    f[COL_CONFIG], tune->config);
    return FALSE;
  }
  char *end = NULL;
  uint64_t msize = g_ascii_strtoull(f[COL_MSIZE], &end, 10);
  gboolean ok = strcmp(f[COL_STATUS], "ok") == 0;
  double t = ok ? g_ascii_strtod(f[COL_TIME], NULL) : -1;
  if (end == f[COL_MSIZE] || *end != '\0' || (ok && !(t >= 0))) {
    ns_set_error_at(error, NS_ERROR_INPUT, tune->csv_path, lineno,
                    "malformed row (size or time): remove the row or the file");
    return FALSE;
  }
  *key = key_of(f[COL_ALGORITHM], f[COL_PARAMS], msize);
  remember(tune, g_strdup(*key), t, f[COL_STATUS]);
  tune->reused++;
  return TRUE;
}

/* ---- measuring ---------------------------------------------------------------- */

/* Plans and measures (algorithm, params) at msize, or finds it in
 * measurements.csv; *t < 0 when it does not apply there. */
static gboolean measure(Tune *tune, const char *algorithm, const char *params, uint64_t msize,
                        double *t, GError **error)
{
  const NsTuneSpec *spec = tune->spec;
  char *key = key_of(algorithm, params, msize);
  double *known = g_hash_table_lookup(tune->times, key);
  if (known != NULL) {
    *t = *known;
    g_free(key);
    return TRUE;
  }
  NsPlanParams pp = { .msize = msize, .root = spec->root };
  g_autofree char *sync = NULL;
  if (!ns_tune_params_apply(params, tune->p, &pp, &sync, error)) {
    g_free(key);
    return FALSE;
  }
  if (pp.segment >= msize && pp.segment > 0) { /* not a segmentation of this message */
    remember(tune, key, -1, "segment not smaller than the message");
    *t = -1;
    return TRUE;
  }
  GError *err = NULL;
  const char *stage = "search"; /* a binary-search probe, unless a fixed size */
  for (guint k = 0; k < spec->sizes->len; k++)
    if (g_array_index(spec->sizes, uint64_t, k) == msize)
      stage = "size";
  g_autofree char *label = *params ? g_strdup_printf("%s(%s)", algorithm, params)
                                   : g_strdup(algorithm);
  g_autofree char *size = ns_format_size(msize);
  ns_warnf(spec->note, spec->warn_data, "tune: %s %s (%s)", label, size, stage);
  /* a v-collective's pattern at this size: the generator scaled to it */
  g_autoptr(NsSizePattern) pattern = NULL;
  if (spec->pattern != NULL &&
      (pattern = ns_pattern_axis_at(spec->pattern, "--pattern", spec->collective, tune->p, msize,
                                    error)) == NULL) {
    g_free(key);
    return FALSE;
  }
  pp.pattern = pattern;
  g_autoptr(NsSchedule) s = ns_plan(spec->topo, spec->collective, algorithm, &pp, &err);
  NsVariant v = { .label = label, .algorithm = (char *)algorithm, .sync = sync };
  NsMeasure m = { 0 };
  gboolean ok = s != NULL;
  if (ok && !spec->measure(spec->topo, s, &v, msize, NULL, &m, spec->measure_data, &err)) {
    /* A simulation that did not complete (a wall limit, a crash, a replay
     * that cannot start, a signal) says nothing of the candidate: it stops
     * the tuning, no row is written, and a resume measures it again. A
     * refusal (the planner's, the simulator's: NS_ERROR_UNSUPPORTED) or a
     * schedule that does not verify is the candidate's, and a row. */
    if (!g_error_matches(err, NS_ERROR, NS_ERROR_UNSUPPORTED)) {
      g_propagate_prefixed_error(error, err, "tune: %s at %s: ", label, size);
      g_free(key);
      return FALSE;
    }
    ok = FALSE;
  }
  if (ok && !m.valid) {
    ok = FALSE;
    err = g_error_new(NS_ERROR, NS_ERROR_CHECK, "the schedule does not verify");
  }
  /* Kept as the CSV holds it, so a resumed run chooses from the same values. */
  char time_text[G_ASCII_DTOSTR_BUF_SIZE] = "";
  if (ok)
    g_ascii_formatd(time_text, sizeof time_text, "%.9g",
                    m.completion_s / MAX(spec->iterations, 1)); /* per invocation */
  *t = ok ? g_ascii_strtod(time_text, NULL) : -1;
  GString *row = g_string_new(NULL);
  ns_csv_append(row, tune->config);
  ns_csv_append(row, ns_collective_name(spec->collective));
  ns_csv_append(row, algorithm);
  ns_csv_append(row, params);
  ns_csv_appendf(row, "%" G_GUINT64_FORMAT, msize);
  ns_csv_append(row, time_text);
  ns_csv_append(row, stage);
  ns_csv_append(row, ok ? "ok" : err->message);
  g_string_append_c(row, '\n');
  gboolean written = ns_row_file_append(tune->rows, key, row->str, row->len, error);
  remember(tune, key, *t, ok ? "ok" : err->message);
  tune->measured++;
  g_string_free(row, TRUE);
  g_clear_error(&err);
  return written;
}

/* Step 3: candidate value `value` of the current algorithm's parameter. */
static gboolean time_of_value(guint value, uint64_t msize, double *t, void *user, GError **error)
{
  Tune *tune = user;
  Candidate *c = tune->current;
  return measure(tune, c->algorithm, c->values->pdata[value], msize, t, error);
}

/* The parameter an algorithm runs with at msize: its tuned one. */
static const char *params_at(const Candidate *c, uint64_t msize)
{
  return c->values->pdata[c->switches ? ns_tune_switch_lookup(c->switches, msize) : 0];
}

/* Step 4: candidate algorithm `which` with its tuned parameter. */
static gboolean time_of_candidate(guint which, uint64_t msize, double *t, void *user,
                                  GError **error)
{
  Tune *tune = user;
  Candidate *c = tune->candidates->pdata[which];
  if (c->switches == NULL && c->values->len > 1) { /* no value applies anywhere */
    *t = -1;
    return TRUE;
  }
  if (!measure(tune, c->algorithm, params_at(c, msize), msize, t, error))
    return FALSE;
  c->applies = c->applies || *t >= 0;
  if (*t < 0 && c->why_not == NULL) {
    g_autofree char *key = key_of(c->algorithm, params_at(c, msize), msize);
    c->why_not = g_strdup(g_hash_table_lookup(tune->why, key));
  }
  return TRUE;
}

/* Step 3 for every algorithm with a parameter (§4.1.1.3, Figure 4.4 3.1–3.2). */
static gboolean tune_parameters(Tune *tune, GError **error)
{
  const GArray *sizes = tune->spec->sizes;
  for (guint i = 0; i < tune->candidates->len; i++) {
    Candidate *c = tune->candidates->pdata[i];
    if (c->values->len < 2)
      continue;
    tune->current = c;
    GArray *sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
    GError *err = NULL;
    if (ns_tune_search(c->values->len, (const uint64_t *)sizes->data, sizes->len, time_of_value,
                       tune, sw, NULL, &err)) {
      c->switches = sw;
      continue;
    }
    g_array_unref(sw);
    if (!g_error_matches(err, NS_ERROR, NS_ERROR_UNSUPPORTED)) {
      g_propagate_error(error, err);
      return FALSE;
    }
    g_clear_error(&err); /* no value applies: said as a skipped candidate in step 4 */
    g_autofree char *key = key_of(c->algorithm, c->values->pdata[0],
                                  g_array_index(sizes, uint64_t, sizes->len - 1));
    const char *why = g_hash_table_lookup(tune->why, key);
    c->why_not = g_strdup(why ? why : "no parameter value applies at any size");
  }
  tune->current = NULL;
  return TRUE;
}

/* The fastest candidate at msize among those measured there, other than
 * `besides` (G_MAXUINT: none besides); G_MAXUINT when there is none. */
static guint fastest_at(Tune *tune, uint64_t msize, guint besides, double *t)
{
  guint best = G_MAXUINT;
  for (guint i = 0; i < tune->candidates->len; i++) {
    Candidate *c = tune->candidates->pdata[i];
    if (i == besides || (c->switches == NULL && c->values->len > 1))
      continue;
    g_autofree char *key = key_of(c->algorithm, params_at(c, msize), msize);
    double *v = g_hash_table_lookup(tune->times, key);
    if (v != NULL && *v >= 0 && (best == G_MAXUINT || *v < *t)) {
      best = i;
      *t = *v;
    }
  }
  return best;
}

/* Rows of the decision table: step 4's ranges, split where the chosen
 * algorithm's tuned parameter changes. Each row's times are at its first
 * fixed size, or at its first size when it holds none (a crossing point,
 * measured by the search). */
static void add_row(Tune *tune, NsDecisionTable *t, uint64_t from, uint64_t to, guint which)
{
  const GArray *sizes = tune->spec->sizes;
  Candidate *c = tune->candidates->pdata[which];
  uint64_t at = from;
  for (guint k = 0; k < sizes->len; k++) {
    uint64_t m = g_array_index(sizes, uint64_t, k);
    if (m >= from && (to == 0 || m < to)) {
      at = m;
      break;
    }
  }
  NsDecisionRow *row = ns_decision_table_append(t, from, c->algorithm, params_at(c, at));
  row->measured_bytes = at;
  g_autofree char *key = key_of(c->algorithm, params_at(c, at), at);
  double *v = g_hash_table_lookup(tune->times, key);
  row->time_s = v != NULL ? *v : -1;
  double rt = -1;
  guint r = fastest_at(tune, at, which, &rt);
  row->runner_up_s = -1;
  if (r != G_MAXUINT) {
    Candidate *rc = tune->candidates->pdata[r];
    row->runner_up = g_strdup(rc->algorithm);
    row->runner_up_params = g_strdup(params_at(rc, at));
    row->runner_up_s = rt;
  }
}

static NsDecisionTable *decide(Tune *tune, const GArray *sw)
{
  const NsTuneSpec *spec = tune->spec;
  NsDecisionTable *t = ns_decision_table_new(spec->collective, tune->p);
  t->topology = g_strdup(tune->topology_name);
  t->measure = spec->measure_name != NULL ? g_strdup(spec->measure_name)
                                           : g_strdup_printf("replay:%s", spec->model);
  t->timing = g_strdup(spec->timing ? spec->timing : "mpptest");
  for (guint i = 0; i < sw->len; i++) {
    const NsTuneSwitch *s = &g_array_index(sw, NsTuneSwitch, i);
    uint64_t end = i + 1 < sw->len ? g_array_index(sw, NsTuneSwitch, i + 1).from_bytes : 0;
    Candidate *c = tune->candidates->pdata[s->candidate];
    /* the parameter's own switches inside [from, end) split the row */
    uint64_t from = s->from_bytes;
    for (guint k = 0; c->switches != NULL && k < c->switches->len; k++) {
      uint64_t at = g_array_index(c->switches, NsTuneSwitch, k).from_bytes;
      if (at > from && (end == 0 || at < end) &&
          strcmp(params_at(c, at), params_at(c, at - 1)) != 0) {
        add_row(tune, t, from, at, s->candidate);
        from = at;
      }
    }
    add_row(tune, t, from, end, s->candidate);
  }
  return t;
}

/* ---- the run -------------------------------------------------------------------- */

static char *config_digest(const NsTuneSpec *spec, const char *topology_name)
{
  g_autofree char *topo = ns_topology_digest(spec->topo);
  g_autofree char *text = g_strdup_printf(
      "netsched-tune/1\ntopology-model %s\nname %s\ncollective %s\nmodel %s\nsettings %s\n"
      "root %d\n",
      topo, topology_name, ns_collective_name(spec->collective), spec->model,
      spec->settings ? spec->settings : "", spec->root);
  /* only when set: the digests of earlier versions' rows stay valid. A
   * generator's text says its pattern at every size (it is scaled,
   * seeded and deterministic: experiment_pattern_internal.h). */
  g_autofree char *with = g_strdup_printf(
      "%s%s%s%s%s%s%s", text, spec->measure_name != NULL ? "measure " : "",
      spec->measure_name != NULL ? spec->measure_name : "", spec->measure_name != NULL ? "\n" : "",
      spec->pattern != NULL ? "pattern " : "", spec->pattern != NULL ? spec->pattern : "",
      spec->pattern != NULL ? "\n" : "");
  return ns_row_digest(with);
}

NsTuneResult *ns_tune_run(const NsTuneSpec *spec, GError **error)
{
  Tune tune = { .spec = spec, .p = ns_topology_n_machines(spec->topo) };
  NsTuneResult *result = NULL;
  NsOutputLock *lock = NULL;
  GArray *sw = g_array_new(FALSE, FALSE, sizeof(NsTuneSwitch));
  g_autofree guint *best_at = g_new0(guint, MAX(spec->sizes->len, 1));
  g_autofree double *curve_times = NULL;
  g_autofree NsTuneCurve *curves = NULL;
  g_autofree char *json = NULL;
  tune.candidates = g_ptr_array_new_with_free_func(candidate_free);
  tune.times = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  tune.why = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  tune.topology_name = spec->name != NULL ? g_strdup(spec->name)
                                           : g_path_get_basename(ns_topology_source(spec->topo));
  tune.config = config_digest(spec, tune.topology_name);
  tune.csv_path = g_build_filename(spec->outdir, "measurements.csv", NULL);
  if (spec->pattern != NULL && !ns_pattern_axis_scaled(spec->pattern)) {
    g_set_error(error, NS_ERROR, NS_ERROR_INPUT,
                "--pattern %s: tune measures between its sizes too: give a generator without its "
                "size (uniform, random:SKEW,SEED, nas-is:SEED), which scales with each size; "
                "compare a fixed pattern at its one size (netsched compare --pattern)",
                spec->pattern);
    goto out;
  }
  if (!ns_collective_size_check(spec->collective, tune.p, error) ||
      !ns_pattern_axis_check(spec->pattern, spec->collective, spec->sizes, "--pattern", error) ||
      !parse_candidates(&tune, error) ||
      (lock = ns_output_dir_lock(spec->outdir, NULL, error)) == NULL)
    goto out;
  NsRowFileSpec rows = {
    .path = tune.csv_path, .header = csv_header, .resume = spec->resume, .row = load_row,
    .user = &tune, .warn = spec->warn, .warn_data = spec->warn_data,
    .header_hint = "not a measurements.csv of this netsched version (its columns differ): "
                   "choose another --output, or --overwrite to start over",
  };
  if ((tune.rows = ns_row_file_open(&rows, error)) == NULL)
    goto out;
  /* Step 3, then step 4 (Figure 4.4). The binary searches' probes are
   * labelled as such in measurements.csv. */
  if (!tune_parameters(&tune, error))
    goto out;
  if (!ns_tune_search(tune.candidates->len, (const uint64_t *)spec->sizes->data,
                      spec->sizes->len, time_of_candidate, &tune, sw, best_at, error))
    goto out;
  for (guint i = 0; i < tune.candidates->len; i++) {
    Candidate *c = tune.candidates->pdata[i];
    if (!c->applies)
      ns_warnf(spec->note, spec->warn_data, "tune: %s skipped: %s", c->algorithm,
               c->why_not ? c->why_not : "no parameter value applies at any size");
  }
  result = g_new0(NsTuneResult, 1);
  result->table = decide(&tune, sw);
  result->measured = tune.measured;
  result->reused = tune.reused;
  if (!ns_decision_table_check(result->table, error))
    goto fail;
  /* The plot's curves: every applicable candidate at the fixed sizes. */
  guint n = tune.candidates->len, k = spec->sizes->len, n_curves = 0;
  curve_times = g_new(double, (gsize)n * k);
  curves = g_new0(NsTuneCurve, n);
  for (guint i = 0; i < n; i++) {
    Candidate *c = tune.candidates->pdata[i];
    if (!c->applies)
      continue;
    double *times = curve_times + (gsize)n_curves * k;
    for (guint j = 0; j < k; j++) {
      uint64_t m = g_array_index(spec->sizes, uint64_t, j);
      g_autofree char *key = key_of(c->algorithm, params_at(c, m), m);
      double *v = g_hash_table_lookup(tune.times, key);
      times[j] = v != NULL && *v >= 0 ? *v : NAN;
    }
    curves[n_curves++] = (NsTuneCurve){ .label = c->algorithm, .time_s = times };
  }
  json = ns_decision_table_to_json(result->table);
  gboolean plotted = FALSE;
  if (!ns_output_write_in(spec->outdir, "decision.json", json, -1, error) ||
      !ns_tune_write_decision_csv(spec->outdir, result->table, error) ||
      !ns_tune_write_plot(spec, tune.topology_name, result->table, curves, n_curves, &plotted,
                          error))
    goto fail;
  /* Routine tables exist for the collectives whose chunks are blocks of
   * the user's buffers (ns_routine_build); for the others the decision
   * is the result and the tuning succeeds without routines. */
  if (ns_collective_chunk_kind(spec->collective) != spec->collective)
    ns_warnf(spec->warn, spec->warn_data,
             "tune: no MPI routines written: they are generated for alltoall, allgather and "
             "bcast; decision.json holds the %s decision",
             ns_collective_name(spec->collective));
  else if (!ns_tune_write_routines(spec, result->table, error))
    goto fail;
  else
    result->routines = TRUE;
  goto out;
fail:
  ns_tune_result_free(result);
  result = NULL;
out:
  ns_row_file_close(tune.rows);
  ns_output_dir_unlock(lock);
  g_array_unref(sw);
  g_ptr_array_unref(tune.candidates);
  g_hash_table_unref(tune.times);
  g_hash_table_unref(tune.why);
  g_free(tune.config);
  g_free(tune.topology_name);
  g_free(tune.csv_path);
  return result;
}
