/* netsched — process arrival patterns (Faraj's dissertation §4.2.1): specs,
 * the seeded random construction, arrival files, and the measures of a run.
 * See arrival.h. */
#include "sim/arrival.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "sim/sim.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct NsArrivalEntry {
  char *name;    /* NULL in an unnamed file */
  double seconds;
  int line;
};

void ns_arrival_free(NsArrival *a)
{
  if (a == NULL)
    return;
  for (guint i = 0; i < a->n_entries; i++)
    g_free(a->entries[i].name);
  g_free(a->entries);
  g_free(a->path);
  g_free(a->canonical);
  g_free(a);
}

/* ---- random:AVG,MAX[,seed=S] ------------------------------------------- */

/* A factor: a finite number from 0 to NS_ARRIVAL_MAX_FACTOR. */
static gboolean parse_factor(const char *spec, const char *what, const char *text, double *out,
                             GError **error)
{
  char *end = NULL;
  double v = g_ascii_strtod(text, &end);
  if (*text == '\0' || end == NULL || *end != '\0' || !isfinite(v) || v < 0 ||
      v > NS_ARRIVAL_MAX_FACTOR) {
    g_autofree char *shown = ns_input_escape(text);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "'%s': %s '%s' is not a number from 0 to %g (random:AVG,MAX[,seed=S], "
                    "AVG = δ̄/T, MAX = ω/T)", spec, what, shown, NS_ARRIVAL_MAX_FACTOR);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

static gboolean parse_random(NsArrival *a, const char *spec, const char *args, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(args, ",", -1);
  guint n = g_strv_length(parts);
  if (n < 2 || n > 3) {
    g_autofree char *shown = ns_input_escape(spec);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "'%s': expected random:AVG,MAX[,seed=S]", shown);
    return FALSE;
  }
  g_autofree char *shown = ns_input_escape(spec);
  if (!parse_factor(shown, "AVG", parts[0], &a->avg, error) ||
      !parse_factor(shown, "MAX", parts[1], &a->max, error))
    return FALSE;
  a->seed = 1;
  if (n == 3) {
    char *end = NULL;
    const char *seed = parts[2];
    guint64 v = 0;
    if (!g_str_has_prefix(seed, "seed=") || !g_ascii_isdigit(seed[5]) ||
        (v = g_ascii_strtoull(seed + 5, &end, 10), *end != '\0') || v > G_MAXUINT32) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "'%s': the third item is seed=S, S from 0 to %u", shown, G_MAXUINT32);
      return FALSE;
    }
    a->seed = (guint32)v;
  }
  /* Whatever the number of machines: ω = 0 means every a_i equal (δ̄ = 0),
   * and δ̄ <= ω/2 (each |a_i − ā| <= ω, at most half of them beyond ω/2). */
  if ((a->max == 0) != (a->avg == 0) || a->avg > a->max / 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "'%s': no arrival pattern has δ̄/T = %g and ω/T = %g (δ̄/T is 0 exactly when "
                    "ω/T is, and at most half of it)", shown, a->avg, a->max);
    return FALSE;
  }
  char avg[G_ASCII_DTOSTR_BUF_SIZE], max[G_ASCII_DTOSTR_BUF_SIZE];
  a->canonical = g_strdup_printf("random:%s,%s,seed=%u",
                                 g_ascii_formatd(avg, sizeof avg, "%.15g", a->avg),
                                 g_ascii_formatd(max, sizeof max, "%.15g", a->max), a->seed);
  return TRUE;
}

/* The least and the most δ̄/T of a pattern on n machines with one machine
 * at 0 and one at MAX (ω/T = MAX). δ̄ is least with every other machine at
 * the mean: Σ|a_i − ā| >= |0 − ā| + |MAX − ā| >= MAX, so δ̄/T >= MAX/n.
 * δ̄ is a convex function of the a_i, so its most over the box [0, MAX]^n
 * is at a corner: k machines at MAX and n − k at 0 give 2k(n − k)·MAX/n²,
 * largest at k = ⌊n/2⌋. */
static void avg_range(int n, double max, double *lo, double *hi)
{
  double k = (double)(n / 2), nn = (double)n;
  *lo = max / nn;
  *hi = 2 * k * (nn - k) * max / (nn * nn);
}

gboolean ns_arrival_check(const NsArrival *a, int n, GError **error)
{
  if (a == NULL || a->kind == NS_ARRIVAL_BALANCED)
    return TRUE;
  if (a->kind == NS_ARRIVAL_FILE) {
    if (!a->named && a->n_entries != (guint)n) {
      ns_set_error_at(error, NS_ERROR_INPUT, a->path, 0,
                      "%u arrival times for %d machines (one line per machine, in the "
                      "schedule's machine order, or NAME SECONDS lines)", a->n_entries, n);
      return FALSE;
    }
    return TRUE;
  }
  if (a->max == 0)
    return TRUE;
  double lo, hi;
  avg_range(n, a->max, &lo, &hi);
  /* A relative slack of 1e-12 for sums such as 0.1 + 0.2 typed by hand. */
  double slack = 1e-12 * a->max;
  if (n < 2 || a->avg < lo - slack || a->avg > hi + slack) {
    if (n < 2)
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "%s: one machine arrives at one time (ω/T = 0)", a->canonical);
    else
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "%s: on %d machines with ω/T = %g, δ̄/T is between ω/T/n = %.6g and "
                      "2·⌊n/2⌋·⌈n/2⌉·(ω/T)/n² = %.6g, not %g", a->canonical, n, a->max, lo, hi,
                      a->avg);
    return FALSE;
  }
  return TRUE;
}

/* δ̄ of n values. */
static double mean_abs_deviation(const double *a, int n)
{
  double mean = 0, sum = 0;
  for (int i = 0; i < n; i++)
    mean += a[i];
  mean /= n;
  for (int i = 0; i < n; i++)
    sum += fabs(a[i] - mean);
  return sum / n;
}

typedef struct {
  int n;
  double max;
  const double *from, *to;  /* the segment of the path being searched */
  double *at;               /* the point on it */
} Path;

/* The pattern a fraction t of the way from `from` to `to`, and its δ̄.
 * Every point lies in [0, max] (convex combinations of such points); the
 * clamp only undoes a rounding of the last bit. */
static double path_at(const Path *p, double t)
{
  for (int i = 0; i < p->n; i++)
    p->at[i] = CLAMP((1 - t) * p->from[i] + t * p->to[i], 0, p->max);
  return mean_abs_deviation(p->at, p->n);
}

static int compare_double(const void *x, const void *y)
{
  double a = **(const double *const *)x, b = **(const double *const *)y;
  return (a > b) - (a < b);
}

/* The construction (random:AVG,MAX): machines are shuffled by the seed;
 * the first is placed at 0 and the second at MAX, so ω/T = MAX whatever
 * the others do as long as they stay in [0, MAX]. The others are drawn
 * uniformly in [0, MAX] (pattern D). Two more patterns bracket every
 * feasible δ̄: L, the others at MAX/2 (δ̄ least, MAX/n), and H, the others
 * sent to the nearer end in the order of their draws, ⌊n/2⌋ machines at 0
 * in all (δ̄ most). δ̄ is continuous along the path L → D → H, so it takes
 * the value AVG on it (intermediate values); bisection finds that point,
 * to the last bit of a double. The pattern keeps the draw's shape as far
 * as AVG allows: AVG = δ̄(D) returns D itself. */
gboolean ns_arrival_random_offsets(int n, double avg, double max, guint32 seed, double *offsets,
                                   GError **error)
{
  NsArrival a = { .kind = NS_ARRIVAL_RANDOM, .avg = avg, .max = max, .seed = seed };
  char text[128];
  g_snprintf(text, sizeof text, "random:%g,%g,seed=%u", avg, max, seed);
  a.canonical = text;
  if (!(isfinite(avg) && isfinite(max) && avg >= 0 && avg <= max / 2 && (avg == 0) == (max == 0))) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s: no arrival pattern has it", text);
    return FALSE;
  }
  if (!ns_arrival_check(&a, n, error))
    return FALSE;
  memset(offsets, 0, sizeof(double) * (gsize)n);
  if (max == 0)
    return TRUE;
  GRand *rand = g_rand_new_with_seed(seed);
  int *order = g_new(int, n);
  for (int i = 0; i < n; i++)
    order[i] = i;
  for (int i = n - 1; i > 0; i--) { /* Fisher–Yates */
    int j = g_rand_int_range(rand, 0, i + 1), x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
  /* Positions 0 and 1 of the order: the machines at 0 and at MAX. */
  double *low = g_new(double, n), *drawn = g_new(double, n), *high = g_new(double, n);
  double *at = g_new(double, n);
  const double **by_draw = g_new(const double *, n);
  for (int k = 0; k < n; k++) {
    double v = k == 0 ? 0 : k == 1 ? max : g_rand_double(rand) * max;
    low[k] = k < 2 ? v : max / 2;
    drawn[k] = v;
    by_draw[k] = &drawn[k];
  }
  /* H: the ⌊n/2⌋ − 1 lowest draws join the machine at 0, the rest go to MAX. */
  qsort(by_draw + 2, (size_t)(n - 2), sizeof *by_draw, compare_double);
  for (int r = 0; r < n; r++) {
    int k = (int)(by_draw[r] - drawn);
    high[k] = r == 0 ? 0 : r == 1 ? max : r - 2 < n / 2 - 1 ? 0 : max;
  }
  Path p = { .n = n, .max = max, .at = at };
  double mid = mean_abs_deviation(drawn, n);
  if (avg <= mid) {
    p.from = low;
    p.to = drawn;
  } else {
    p.from = drawn;
    p.to = high;
  }
  /* f(0) <= avg <= f(1) on the segment (L is the least, H the most). */
  double lo = 0, hi = 1, best_t = 1, best = fabs(path_at(&p, 1) - avg);
  for (int it = 0; it < 200 && hi - lo > 0; it++) {
    double t = lo + (hi - lo) / 2;
    if (t <= lo || t >= hi)
      break;
    double f = path_at(&p, t);
    if (fabs(f - avg) < best) {
      best = fabs(f - avg);
      best_t = t;
    }
    if (f < avg)
      lo = t;
    else
      hi = t;
  }
  if (fabs(path_at(&p, 0) - avg) < best)
    best_t = 0;
  path_at(&p, best_t);
  for (int k = 0; k < n; k++)
    offsets[order[k]] = at[k];
  g_free(by_draw);
  g_free(at);
  g_free(high);
  g_free(drawn);
  g_free(low);
  g_free(order);
  g_rand_free(rand);
  return TRUE;
}

/* ---- file:PATH ----------------------------------------------------------- */

static gboolean file_fail(GError **error, const char *path, int line, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
static gboolean file_fail(GError **error, const char *path, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ns_set_error_atv(error, NS_ERROR_INPUT, path, line, fmt, ap);
  va_end(ap);
  ns_input_escape_error(error ? *error : NULL);
  return FALSE;
}

/* One line: "NAME SECONDS" or "SECONDS" (already stripped of its comment). */
static gboolean parse_line(NsArrival *a, char *text, int line, GHashTable *seen, GError **error)
{
  g_auto(GStrv) tok = g_strsplit_set(g_strstrip(text), " \t", -1);
  GPtrArray *words = g_ptr_array_new();
  for (int i = 0; tok[i] != NULL; i++)
    if (tok[i][0] != '\0')
      g_ptr_array_add(words, tok[i]);
  guint n = words->len;
  const char *name = n == 2 ? g_ptr_array_index(words, 0) : NULL;
  const char *value = n >= 1 ? g_ptr_array_index(words, n - 1) : "";
  g_ptr_array_free(words, TRUE);
  if (n == 0)
    return TRUE;
  if (n > 2)
    return file_fail(error, a->path, line, "expected 'NAME SECONDS' or 'SECONDS'");
  if (a->n_entries > 0 && a->named != (name != NULL))
    return file_fail(error, a->path, line,
                     "%s line among %s lines: give every machine's name, or none",
                     name != NULL ? "a named" : "an unnamed", a->named ? "named" : "unnamed");
  if (a->n_entries >= NS_SIM_MAX_MACHINES)
    return file_fail(error, a->path, line, "more than %d arrival times (the most machines a "
                     "simulation runs)", NS_SIM_MAX_MACHINES);
  char *end = NULL;
  double v = g_ascii_strtod(value, &end);
  if (end == NULL || *end != '\0' || !isfinite(v))
    return file_fail(error, a->path, line, "'%s' is not a time in seconds", value);
  if (name != NULL) {
    gpointer first = g_hash_table_lookup(seen, name);
    if (first != NULL)
      return file_fail(error, a->path, line, "machine '%s' has a time already (line %d)", name,
                       GPOINTER_TO_INT(first));
    g_hash_table_insert(seen, g_strdup(name), GINT_TO_POINTER(line));
  }
  a->named = name != NULL;
  a->entries = g_renew(NsArrivalEntry, a->entries, a->n_entries + 1);
  a->entries[a->n_entries++] = (NsArrivalEntry){ g_strdup(name), v, line };
  return TRUE;
}

static gboolean parse_file(NsArrival *a, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(a->path, NS_ARRIVAL_MAX_FILE_BYTES, "arrival", &text, &len, error))
    return FALSE;
  if (memchr(text, '\0', len) != NULL)
    return file_fail(error, a->path, 0, "a NUL byte: not a text file of arrival times");
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (int i = 0; lines[i] != NULL; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash != NULL)
      *hash = '\0';
    if (!parse_line(a, lines[i], i + 1, seen, error))
      return FALSE;
  }
  if (a->n_entries == 0)
    return file_fail(error, a->path, 0, "no arrival times");
  double lo = a->entries[0].seconds, hi = lo;
  for (guint i = 1; i < a->n_entries; i++) {
    lo = MIN(lo, a->entries[i].seconds);
    hi = MAX(hi, a->entries[i].seconds);
  }
  if (hi - lo > NS_ARRIVAL_MAX_SPREAD_S)
    return file_fail(error, a->path, 0, "times spread over %g s, more than %g s", hi - lo,
                     NS_ARRIVAL_MAX_SPREAD_S);
  g_autofree char *digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
  a->canonical = g_strdup_printf("file:%s;sha256=%s", a->path, digest);
  return TRUE;
}

NsArrival *ns_arrival_parse(const char *spec, GError **error)
{
  NsArrival *a = g_new0(NsArrival, 1);
  gboolean ok;
  if (strcmp(spec, "balanced") == 0) {
    a->kind = NS_ARRIVAL_BALANCED;
    a->canonical = g_strdup("balanced");
    ok = TRUE;
  } else if (g_str_has_prefix(spec, "random:")) {
    a->kind = NS_ARRIVAL_RANDOM;
    ok = parse_random(a, spec, spec + strlen("random:"), error);
  } else if (g_str_has_prefix(spec, "file:") && spec[5] != '\0') {
    a->kind = NS_ARRIVAL_FILE;
    a->path = g_strdup(spec + 5);
    ok = parse_file(a, error);
  } else {
    g_autofree char *shown = ns_input_escape(spec);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "'%s': expected balanced, random:AVG,MAX[,seed=S] or file:PATH", shown);
    ok = FALSE;
  }
  if (!ok) {
    ns_arrival_free(a);
    return NULL;
  }
  return a;
}

/* ---- a pattern on a schedule ---------------------------------------------- */

double ns_arrival_unit(const NsTopology *topo, const NsSchedule *s, uint64_t msize, int *slowest)
{
  double lowest = 0;
  if (slowest != NULL)
    *slowest = -1;
  for (int i = 0; i < s->n_machines; i++) {
    int m = ns_topology_find_machine(topo, s->machines[i]);
    if (m < 0)
      continue;
    int node = ns_topology_machine_node(topo, m);
    const int *links = ns_topology_incident(topo, node);
    for (int k = 0; k < ns_topology_degree(topo, node); k++) {
      double b = ns_topology_link(topo, links[k])->bandwidth;
      if (lowest == 0 || b < lowest) {
        lowest = b;
        if (slowest != NULL)
          *slowest = i;
      }
    }
  }
  return lowest > 0 ? 8.0 * (double)msize / lowest : 0;
}

static gboolean file_offsets(const NsArrival *a, const NsSchedule *s, double *out, GError **error)
{
  int n = s->n_machines;
  if (!a->named) {
    for (int i = 0; i < n; i++)
      out[i] = a->entries[i].seconds;
    return TRUE;
  }
  g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++)
    g_hash_table_insert(index, s->machines[i], GINT_TO_POINTER(i + 1));
  gboolean *given = g_new0(gboolean, n);
  gboolean ok = TRUE;
  for (guint k = 0; k < a->n_entries && ok; k++) {
    int i = GPOINTER_TO_INT(g_hash_table_lookup(index, a->entries[k].name)) - 1;
    if (i < 0)
      ok = file_fail(error, a->path, a->entries[k].line, "'%s' is not a machine of the schedule",
                     a->entries[k].name);
    else {
      out[i] = a->entries[k].seconds;
      given[i] = TRUE;
    }
  }
  for (int i = 0; i < n && ok; i++)
    if (!given[i])
      ok = file_fail(error, a->path, 0, "no arrival time for machine '%s'", s->machines[i]);
  g_free(given);
  return ok;
}

double *ns_arrival_offsets(const NsArrival *a, const NsSchedule *s, double unit, GError **error)
{
  int n = s->n_machines;
  double *out = g_new0(double, (gsize)n + 1);
  gboolean ok = ns_arrival_check(a, n, error);
  if (ok && a != NULL && a->kind == NS_ARRIVAL_RANDOM) {
    ok = ns_arrival_random_offsets(n, a->avg, a->max, a->seed, out, error);
    for (int i = 0; ok && i < n; i++)
      out[i] *= unit;
  } else if (ok && a != NULL && a->kind == NS_ARRIVAL_FILE) {
    ok = file_offsets(a, s, out, error);
    double lo = G_MAXDOUBLE;
    for (int i = 0; ok && i < n; i++)
      lo = MIN(lo, out[i]);
    for (int i = 0; ok && i < n; i++)
      out[i] -= lo;
  }
  if (!ok) {
    g_free(out);
    return NULL;
  }
  return out;
}

void ns_arrival_stats(const double *arrival, const double *finish, int n, double unit,
                      NsArrivalStats *out)
{
  double first = arrival[0], last = arrival[0], end = finish[0], per_node = 0;
  for (int i = 0; i < n; i++) {
    first = MIN(first, arrival[i]);
    last = MAX(last, arrival[i]);
    end = MAX(end, finish[i]);
    per_node += finish[i] - arrival[i];
  }
  double avg = mean_abs_deviation(arrival, n);
  *out = (NsArrivalStats){
    .unit_s = unit,
    .avg_imbalance = unit > 0 ? avg / unit : 0,
    .max_imbalance = unit > 0 ? (last - first) / unit : 0,
    .mean_node_s = per_node / n,
    .span_s = end - first,
  };
}
