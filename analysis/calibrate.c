/* netsched — calibrations: timing tables, the fit, key files. See calibrate_internal.h. */
#include "analysis/calibrate_internal.h"
#include "analysis/keyfile_internal.h"
#include "platforms/model/error.h"
#include "platforms/io/topology_input_internal.h"
#include "platforms/model/units.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GROUP "calibration"

void ns_calibration_free(NsCalibration *c)
{
  if (c == NULL)
    return;
  g_free(c->description);
  g_free(c->topology);
  g_free(c->pair[0]);
  g_free(c->pair[1]);
  g_free(c->lat_factor);
  g_free(c->bw_factor);
  if (c->table != NULL)
    g_array_unref(c->table);
  g_free(c->source);
  g_free(c);
}

/* ---- tables ------------------------------------------------------------- */

/* Splits a table row into its fields: at commas when there is one (spaces
 * around fields dropped), else at runs of white space. */
static char **row_fields(const char *row)
{
  if (strchr(row, ',') != NULL) {
    char **f = g_strsplit(row, ",", -1);
    for (int i = 0; f[i] != NULL; i++)
      g_strstrip(f[i]);
    return f;
  }
  GPtrArray *f = g_ptr_array_new();
  const char *p = row;
  while (*p != '\0') {
    while (g_ascii_isspace(*p))
      p++;
    const char *start = p;
    while (*p != '\0' && !g_ascii_isspace(*p))
      p++;
    if (p > start)
      g_ptr_array_add(f, g_strndup(start, (gsize)(p - start)));
  }
  g_ptr_array_add(f, NULL);
  return (char **)g_ptr_array_free(f, FALSE);
}

GArray *ns_cal_table_parse(const char *text, gssize length, const char *source, GError **error)
{
  g_autofree char *copy = length < 0 ? g_strdup(text) : g_strndup(text, (gsize)length);
  g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
  GArray *table = g_array_new(FALSE, FALSE, sizeof(NsCalPoint));
  gboolean seen_row = FALSE;
  for (int i = 0; lines[i] != NULL; i++) {
    int line = i + 1;
    char *hash = strchr(lines[i], '#');
    if (hash != NULL)
      *hash = '\0';
    char *row = g_strstrip(lines[i]);
    if (*row == '\0')
      continue;
    if (!seen_row && !g_ascii_isdigit(*row) && *row != '.' && *row != '+') {
      seen_row = TRUE; /* a header such as "size,time" */
      continue;
    }
    seen_row = TRUE;
    g_auto(GStrv) f = row_fields(row);
    guint nf = g_strv_length(f);
    if (nf != 2) {
      ns_set_error_at(error, NS_ERROR_INPUT, source, line,
                      "expected two fields SIZE,TIME (e.g. 4KiB,0.029ms), found %u", nf);
      goto fail;
    }
    NsCalPoint p = { .line = line };
    const char *why = NULL;
    if (!ns_parse_msize(f[0], &p.size, &why)) {
      ns_set_error_at(error, NS_ERROR_INPUT, source, line, "size '%s': %s", f[0], why);
      goto fail;
    }
    if (!ns_parse_time(f[1], &p.time, &why)) {
      ns_set_error_at(error, NS_ERROR_INPUT, source, line, "time '%s': %s", f[1], why);
      goto fail;
    }
    if (!(p.time > 0) || !isfinite(p.time)) {
      ns_set_error_at(error, NS_ERROR_INPUT, source, line, "time '%s': must be positive", f[1]);
      goto fail;
    }
    if (table->len > 0) {
      const NsCalPoint *prev = &g_array_index(table, NsCalPoint, table->len - 1);
      if (p.size <= prev->size) {
        g_autofree char *a = ns_format_size(p.size);
        g_autofree char *b = ns_format_size(prev->size);
        ns_set_error_at(error, NS_ERROR_INPUT, source, line,
                        "size %s is not larger than %s on line %d (sizes must increase)", a, b,
                        prev->line);
        goto fail;
      }
    }
    g_array_append_val(table, p);
  }
  if (table->len < 2) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0,
                    "a table needs at least two rows SIZE,TIME, found %u", table->len);
    goto fail;
  }
  return table;
fail:
  g_array_unref(table);
  return NULL;
}

GArray *ns_cal_table_read(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, NS_INPUT_CONFIG_MAX_BYTES, "timing table", &text, &len, error))
    return NULL;
  return ns_cal_table_parse(text, (gssize)len, path, error);
}

/* ---- fitting ------------------------------------------------------------ */

gboolean ns_cal_linear_fit(const NsCalPoint *p, guint n, double *latency, double *bandwidth,
                           double *max_error, GError **error)
{
  gboolean grows = FALSE;
  for (guint i = 1; i < n && !grows; i++)
    grows = p[i].time > p[i - 1].time;
  if (!grows) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "the times do not grow with the size: no bandwidth can be fitted");
    return FALSE;
  }
  /* Minimise Σ w (a + c·s − t)² with w = 1/t²: the 2×2 normal equations. */
  double sw = 0, sws = 0, swss = 0, swt = 0, swst = 0;
  for (guint i = 0; i < n; i++) {
    double w = 1.0 / (p[i].time * p[i].time), s = (double)p[i].size, t = p[i].time;
    sw += w;
    sws += w * s;
    swss += w * s * s;
    swt += w * t;
    swst += w * s * t;
  }
  double det = sw * swss - sws * sws;
  double a = det != 0 ? (swt * swss - sws * swst) / det : 0;
  double c = det != 0 ? (sw * swst - sws * swt) / det : 0;
  if (a < 0 || !(c > 0) || !isfinite(c)) { /* the best line through the origin */
    a = 0;
    c = swst / swss;
  }
  double worst = 0;
  for (guint i = 0; i < n; i++)
    worst = MAX(worst, fabs((a + c * (double)p[i].size - p[i].time) / p[i].time));
  *latency = a;
  *bandwidth = 8.0 / c;
  if (max_error != NULL)
    *max_error = worst;
  return TRUE;
}

/* A linear piece of the model: for sizes > threshold, time = a + slope·size. */
typedef struct {
  uint64_t threshold;
  double a, slope;
} Piece;

/* The line of slope `slope` through (s, t), else through the origin when
 * its intercept would be negative. */
static Piece piece_through(uint64_t threshold, double slope, double s, double t)
{
  Piece p = { threshold, t - slope * s, slope };
  if (p.a < 0) {
    p.a = 0;
    p.slope = t / s;
  }
  return p;
}

/* "THRESHOLD:VALUE;..." with values printed to 12 significant digits in
 * the C locale (exact far below any tolerance, and readable). */
static char *factor_string(const Piece *pieces, guint n, gboolean latency, const NsCalRoute *r)
{
  GString *s = g_string_new(NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (guint i = 0; i < n; i++) {
    double v = latency ? (r->latency > 0 ? pieces[i].a / r->latency : 1.0)
                       : 8.0 / pieces[i].slope / r->bandwidth;
    g_string_append_printf(s, "%s%" G_GUINT64_FORMAT ":%s", i ? ";" : "", pieces[i].threshold,
                           g_ascii_formatd(buf, sizeof buf, "%.12g", v));
  }
  return g_string_free(s, FALSE);
}

NsCalibration *ns_calibration_fit(const GArray *table, const NsCalRoute *route, GError **error)
{
  const NsCalPoint *p = (const NsCalPoint *)(const void *)table->data;
  guint n = table->len;
  if (n < 2 || route->hops < 1 || !(route->bandwidth > 0) || !(route->latency >= 0)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "a calibration needs at least two table rows and a route of at least one "
                    "link with a positive bandwidth");
    return NULL;
  }
  double lat, bw, worst;
  if (!ns_cal_linear_fit(p, n, &lat, &bw, &worst, error))
    return NULL;
  /* Slopes of the segments; a segment that does not grow gets the smallest
   * positive slope (the highest bandwidth the table shows). */
  double *slope = g_new(double, n);
  double floor_slope = G_MAXDOUBLE;
  for (guint i = 1; i < n; i++) {
    slope[i] = (p[i].time - p[i - 1].time) / (double)(p[i].size - p[i - 1].size);
    if (slope[i] > 0)
      floor_slope = MIN(floor_slope, slope[i]);
  }
  for (guint i = 1; i < n; i++)
    if (!(slope[i] > 0))
      slope[i] = floor_slope; /* exists: the linear fit checked that the times grow */
  Piece *pieces = g_new(Piece, n);
  pieces[0] = piece_through(0, slope[1], (double)p[0].size, p[0].time);
  for (guint i = 1; i < n; i++)
    pieces[i] = piece_through(p[i - 1].size, slope[i], (double)p[i].size, p[i].time);
  g_free(slope);
  if (route->latency == 0)
    for (guint i = 0; i < n; i++)
      if (pieces[i].a > 0) {
        g_autofree char *size = ns_format_size(p[i].size);
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "the route has no latency, which no latency factor can scale to the "
                        "table's fixed cost (at %s)", size);
        g_free(pieces);
        return NULL;
      }
  NsCalibration *c = g_new0(NsCalibration, 1);
  c->latency = lat / route->hops;
  c->bandwidth = bw;
  c->linear_max_error = worst;
  c->route = *route;
  c->lat_factor = factor_string(pieces, n, TRUE, route);
  c->bw_factor = factor_string(pieces, n, FALSE, route);
  c->table = g_array_copy((GArray *)table);
  g_free(pieces);
  return c;
}

/* ---- factors ------------------------------------------------------------ */

static int compare_factor(const void *a, const void *b)
{
  const NsCalFactor *x = a, *y = b;
  return (x->threshold > y->threshold) - (x->threshold < y->threshold);
}

GArray *ns_cal_factors_parse(const char *text, gboolean allow_zero, const char *what,
                             GError **error)
{
  GArray *f = g_array_new(FALSE, FALSE, sizeof(NsCalFactor));
  g_auto(GStrv) pieces = g_strsplit(text != NULL ? text : "", ";", -1);
  const char *why = NULL;
  for (int i = 0; pieces[i] != NULL && why == NULL; i++) {
    const char *piece = pieces[i];
    const char *colon = strchr(piece, ':');
    NsCalFactor x = { 0 };
    char *end = NULL;
    if (colon == NULL || colon == piece) {
      why = "expected THRESHOLD:FACTOR pieces separated by ';'";
      break;
    }
    for (const char *q = piece; q < colon; q++)
      if (!g_ascii_isdigit(*q))
        why = "a threshold is a whole number of bytes";
    const char *v = colon + 1;
    for (const char *q = v; *q != '\0'; q++)
      if (!g_ascii_isdigit(*q) && strchr(".eE+-", *q) == NULL)
        why = "a factor is a plain decimal number";
    if (why != NULL)
      break;
    errno = 0;
    x.threshold = g_ascii_strtoull(piece, &end, 10);
    if (errno != 0 || end != colon) {
      why = "threshold out of range";
      break;
    }
    x.value = g_ascii_strtod(v, &end);
    if (*v == '\0' || *end != '\0' || !isfinite(x.value))
      why = "a factor is a plain decimal number";
    else if (x.value < 0 || (x.value == 0 && !allow_zero))
      why = allow_zero ? "a factor must not be negative" : "a factor must be positive";
    else
      g_array_append_val(f, x);
  }
  if (why == NULL && f->len == 0)
    why = "no THRESHOLD:FACTOR piece";
  if (why == NULL) {
    g_array_sort(f, compare_factor);
    for (guint i = 1; i < f->len && why == NULL; i++)
      if (g_array_index(f, NsCalFactor, i).threshold ==
          g_array_index(f, NsCalFactor, i - 1).threshold)
        why = "a threshold appears twice";
  }
  if (why != NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s '%s': %s", what, text ? text : "", why);
    g_array_unref(f);
    return NULL;
  }
  return f;
}

double ns_cal_factor_at(const GArray *factors, double size)
{
  double current = 1.0;
  for (guint i = 0; i < factors->len; i++) {
    const NsCalFactor *x = &g_array_index(factors, NsCalFactor, i);
    if (size <= (double)x->threshold)
      return current;
    current = x->value;
  }
  return current;
}

double ns_calibration_time(const NsCalibration *c, uint64_t size)
{
  g_autoptr(GArray) lf = ns_cal_factors_parse(c->lat_factor, TRUE, "lat-factor", NULL);
  g_autoptr(GArray) bf = ns_cal_factors_parse(c->bw_factor, FALSE, "bw-factor", NULL);
  g_return_val_if_fail(lf != NULL && bf != NULL, NAN);
  double s = (double)size;
  return ns_cal_factor_at(lf, s) * c->route.latency +
         s * 8.0 / (ns_cal_factor_at(bf, s) * c->route.bandwidth);
}

/* ---- key files ---------------------------------------------------------- */

double ns_cal_round(double v)
{
  if (!(v > 0) || !isfinite(v))
    return v;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_ascii_strtod(g_ascii_formatd(buf, sizeof buf, "%.4g", v), NULL);
}

char *ns_calibration_to_data(const NsCalibration *c)
{
  g_autoptr(GKeyFile) kf = g_key_file_new();
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
#define SET(key, value) g_key_file_set_string(kf, GROUP, key, value)
#define SET_FREE(key, value)                                                                   \
  do {                                                                                         \
    char *v_ = (value);                                                                        \
    SET(key, v_);                                                                              \
    g_free(v_);                                                                                \
  } while (0)
  SET("description", c->description ? c->description : "");
  SET_FREE("latency", g_strconcat(g_ascii_formatd(buf, sizeof buf, "%.4g", c->latency * 1e6),
                                   "us", NULL));
  SET_FREE("bandwidth", ns_format_bandwidth(ns_cal_round(c->bandwidth)));
  SET_FREE("linear-max-error",
           g_strconcat(g_ascii_formatd(buf, sizeof buf, "%.1f", 100 * c->linear_max_error), "%",
                       NULL));
  if (c->topology != NULL)
    SET("topology", c->topology);
  if (c->pair[0] != NULL && c->pair[1] != NULL)
    SET_FREE("pair", g_strdup_printf("%s,%s", c->pair[0], c->pair[1]));
  g_key_file_set_integer(kf, GROUP, "hops", c->route.hops);
  SET_FREE("route-latency", ns_format_time(c->route.latency));
  SET_FREE("route-bandwidth", ns_format_bandwidth(c->route.bandwidth));
  SET("lat-factor", c->lat_factor);
  SET("bw-factor", c->bw_factor);
  if (c->source != NULL)
    SET("source", c->source);
  if (c->reduce_rate > 0)
    SET_FREE("reduce-rate", ns_format_bandwidth(c->reduce_rate * 8));
  if (c->table != NULL && c->table->len > 0) {
    GString *sizes = g_string_new(NULL), *times = g_string_new(NULL);
    for (guint i = 0; i < c->table->len; i++) {
      const NsCalPoint *p = &g_array_index(c->table, NsCalPoint, i);
      g_autofree char *s = ns_format_size(p->size);
      /* Microseconds to 9 digits: as readable as the tables are printed. */
      g_string_append_printf(sizes, "%s%s", i ? ";" : "", s);
      g_string_append_printf(times, "%s%sus", i ? ";" : "",
                             g_ascii_formatd(buf, sizeof buf, "%.9g", p->time * 1e6));
    }
    SET_FREE("sizes", g_string_free(sizes, FALSE));
    SET_FREE("times", g_string_free(times, FALSE));
  }
#undef SET
#undef SET_FREE
  g_key_file_set_comment(kf, NULL, NULL,
                         " netsched calibration (netsched calibrate, docs/simulator.md): one-way\n"
                         " point-to-point times of a machine pair, fitted for SimGrid's SMPI\n"
                         " network model. Use: netsched simulate --calibration FILE",
                         NULL);
  g_key_file_set_comment(kf, GROUP, "latency",
                         " The plain linear fit time = latency + size / bandwidth (relative least\n"
                         " squares), per link of the route, and its largest error over the table",
                         NULL);
  g_key_file_set_comment(kf, GROUP, "topology",
                         " The route the factors are relative to: the pair on the topology",
                         NULL);
  g_key_file_set_comment(kf, GROUP, "lat-factor",
                         " SMPI factors (smpi/lat-factor, smpi/bw-factor): THRESHOLD:FACTOR, the\n"
                         " factor applying to messages larger than THRESHOLD bytes",
                         NULL);
  if (c->reduce_rate > 0)
    g_key_file_set_comment(kf, GROUP, "reduce-rate",
                           " The machines' MPI_Reduce_local rate (scripts/measure-reduce-rate.sh):\n"
                           " the replay's --reduce-rate under this calibration",
                           NULL);
  g_key_file_set_comment(kf, GROUP, c->source != NULL ? "source" : "sizes",
                         " The table fitted: one-way times per message size", NULL);
  return g_key_file_to_data(kf, NULL, NULL);
}

/* The [calibration] group of a file, scanned by analysis/keyfile.c. */
typedef struct {
  const NsKeyGroup *group;
  const char *source;
  GError **error;
} Reader;

static char *get(Reader *r, const char *key, gboolean required)
{
  const NsKeyEntry *e = ns_keygroup_find(r->group, key);
  if (e == NULL && required)
    ns_set_error_at(r->error, NS_ERROR_INPUT, r->source, 0, "[" GROUP "] has no key '%s'", key);
  return e != NULL ? g_strdup(e->value) : NULL;
}

/* "FILE:LINE: KEY: message", the line of `key` (FILE: alone when absent). */
static gboolean fail_key(Reader *r, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail_key(Reader *r, const char *key, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  const NsKeyEntry *e = ns_keygroup_find(r->group, key);
  if (e != NULL)
    return ns_keyfile_fail(r->error, e->where, "%s: %s", key, msg);
  ns_set_error_at(r->error, NS_ERROR_INPUT, r->source, 0, "%s: %s", key, msg);
  return FALSE;
}

/* An optional quantity key: absent is fine, present must parse. */
static gboolean get_quantity(Reader *r, const char *key, gboolean bandwidth, double *out)
{
  g_autofree char *v = get(r, key, FALSE);
  const char *why = NULL;
  if (v == NULL)
    return TRUE;
  if (bandwidth ? !ns_parse_bandwidth(v, out, &why) : !ns_parse_time(v, out, &why))
    return fail_key(r, key, "'%s': %s", v, why);
  if (!isfinite(*out) || *out < 0)
    return fail_key(r, key, "'%s': must not be negative", v);
  return TRUE;
}

static gboolean read_table(Reader *r, NsCalibration *c)
{
  g_autofree char *sizes = get(r, "sizes", FALSE);
  g_autofree char *times = get(r, "times", FALSE);
  c->table = g_array_new(FALSE, FALSE, sizeof(NsCalPoint));
  if (sizes == NULL && times == NULL)
    return TRUE;
  if (sizes == NULL || times == NULL)
    return fail_key(r, sizes ? "sizes" : "times", "'sizes' and 'times' go together");
  g_auto(GStrv) s = g_strsplit(sizes, ";", -1), t = g_strsplit(times, ";", -1);
  if (g_strv_length(s) != g_strv_length(t))
    return fail_key(r, "times", "%u times for %u sizes", g_strv_length(t), g_strv_length(s));
  for (int i = 0; s[i] != NULL; i++) {
    NsCalPoint p = { 0 };
    const char *why = NULL;
    if (!ns_parse_msize(g_strstrip(s[i]), &p.size, &why))
      return fail_key(r, "sizes", "'%s': %s", s[i], why);
    if (!ns_parse_time(g_strstrip(t[i]), &p.time, &why))
      return fail_key(r, "times", "'%s': %s", t[i], why);
    if (!(p.time > 0))
      return fail_key(r, "times", "'%s': must be positive", t[i]);
    if (i > 0 && p.size <= g_array_index(c->table, NsCalPoint, i - 1).size)
      return fail_key(r, "sizes", "'%s' is not larger than the size before it", s[i]);
    g_array_append_val(c->table, p);
  }
  return TRUE;
}

NsCalibration *ns_calibration_parse(const char *text, gssize length, const char *source,
                                    GError **error)
{
  gsize len = length < 0 ? strlen(text) : (gsize)length;
  g_autoptr(GPtrArray) groups =
      ns_keyfile_scan_text(text, len, source, NS_KEYFILE_MACHINE_WRITTEN, error);
  if (groups == NULL)
    return NULL;
  const NsKeyGroup *group = ns_keyfile_find_group(groups, GROUP);
  if (group == NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, source, 0, "no [" GROUP "] group");
    return NULL;
  }
  Reader r = { group, source, error };
  g_autoptr(NsCalibration) c = g_new0(NsCalibration, 1);
  c->route.hops = 1;
  if ((c->lat_factor = get(&r, "lat-factor", TRUE)) == NULL ||
      (c->bw_factor = get(&r, "bw-factor", TRUE)) == NULL)
    return NULL;
  const char *keys[] = { "lat-factor", "bw-factor" };
  const char *values[] = { c->lat_factor, c->bw_factor };
  for (int i = 0; i < 2; i++) {
    GError *fe = NULL;
    g_autoptr(GArray) f = ns_cal_factors_parse(values[i], i == 0, keys[i], &fe);
    if (f == NULL) {
      ns_keyfile_fail(error, ns_keygroup_find(group, keys[i])->where, "%s", fe->message);
      g_error_free(fe);
      return NULL;
    }
  }
  c->description = get(&r, "description", FALSE);
  c->topology = get(&r, "topology", FALSE);
  c->source = get(&r, "source", FALSE);
  g_autofree char *pair = get(&r, "pair", FALSE);
  if (pair != NULL) {
    g_auto(GStrv) two = g_strsplit(pair, ",", -1);
    if (g_strv_length(two) != 2 || *g_strstrip(two[0]) == '\0' || *g_strstrip(two[1]) == '\0') {
      fail_key(&r, "pair", "'%s': expected two machine names A,B", pair);
      return NULL;
    }
    c->pair[0] = g_strdup(two[0]);
    c->pair[1] = g_strdup(two[1]);
  }
  g_autofree char *h = get(&r, "hops", FALSE);
  if (h != NULL) {
    char *end = NULL;
    gint64 v = g_ascii_strtoll(h, &end, 10);
    if (end == h || *end != '\0' || v < 1 || v > 1000000) {
      fail_key(&r, "hops", "'%s': expected a number of links >= 1", h);
      return NULL;
    }
    c->route.hops = (int)v;
  }
  if (!get_quantity(&r, "latency", FALSE, &c->latency) ||
      !get_quantity(&r, "bandwidth", TRUE, &c->bandwidth) ||
      !get_quantity(&r, "route-latency", FALSE, &c->route.latency) ||
      !get_quantity(&r, "route-bandwidth", TRUE, &c->route.bandwidth) ||
      !get_quantity(&r, "reduce-rate", TRUE, &c->reduce_rate) || !read_table(&r, c))
    return NULL;
  c->reduce_rate /= 8; /* bit/s as written (ns_format_bandwidth) -> bytes/s */
  g_autofree char *err = get(&r, "linear-max-error", FALSE);
  if (err != NULL)
    c->linear_max_error = g_ascii_strtod(err, NULL) / 100;
  return g_steal_pointer(&c);
}

/* ---- finding calibrations ----------------------------------------------- */

/* Directories holding bundled calibrations, most specific first. */
static GPtrArray *bundled_dirs(void)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
  g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
  if (self != NULL) {
    g_autofree char *bin = g_path_get_dirname(self);
    g_ptr_array_add(dirs, g_build_filename(bin, "..", "share", "netsched", "calibrations", NULL));
  }
#ifdef NETSCHED_CALIBRATIONS_DIR /* DATADIR/netsched/calibrations of `cmake --install` */
  g_ptr_array_add(dirs, g_strdup(NETSCHED_CALIBRATIONS_DIR));
#endif
#ifdef NETSCHED_SOURCE_DIR
  g_ptr_array_add(dirs, g_build_filename(NETSCHED_SOURCE_DIR, "scenarios", "calibrations", NULL));
#endif
  return dirs;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ns_calibration_bundled(void)
{
  g_autoptr(GPtrArray) dirs = bundled_dirs();
  GPtrArray *names = g_ptr_array_new();
  for (guint i = 0; i < dirs->len; i++) {
    g_autoptr(GDir) d = g_dir_open(g_ptr_array_index(dirs, i), 0, NULL);
    const char *entry;
    while (d != NULL && (entry = g_dir_read_name(d)) != NULL) {
      if (!g_str_has_suffix(entry, ".ini"))
        continue;
      char *name = g_strndup(entry, strlen(entry) - 4);
      gboolean dup = FALSE;
      for (guint k = 0; k < names->len && !dup; k++)
        dup = strcmp(g_ptr_array_index(names, k), name) == 0;
      if (dup)
        g_free(name);
      else
        g_ptr_array_add(names, name);
    }
  }
  g_ptr_array_sort(names, compare_names);
  g_ptr_array_add(names, NULL);
  return (char **)g_ptr_array_free(names, FALSE);
}

static NsCalibration *read_file(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, NS_INPUT_CONFIG_MAX_BYTES, "calibration", &text, &len, error))
    return NULL;
  return ns_calibration_parse(text, (gssize)len, path, error);
}

NsCalibration *ns_calibration_load(const char *name, GError **error)
{
  if (g_file_test(name, G_FILE_TEST_IS_REGULAR))
    return read_file(name, error);
  gboolean bare = *name != '\0' && *name != '.';
  for (const char *p = name; *p != '\0'; p++)
    bare = bare && (g_ascii_isalnum(*p) || strchr("-_.", *p) != NULL);
  if (bare) {
    g_autoptr(GPtrArray) dirs = bundled_dirs();
    g_autofree char *file = g_strconcat(name, ".ini", NULL);
    for (guint i = 0; i < dirs->len; i++) {
      g_autofree char *path = g_build_filename(g_ptr_array_index(dirs, i), file, NULL);
      if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return read_file(path, error);
    }
  }
  g_auto(GStrv) known = ns_calibration_bundled();
  g_autofree char *list = g_strjoinv(", ", known);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "calibration '%s' is neither a file nor a bundled calibration (bundled: %s)",
                  name, *list ? list : "none found");
  return NULL;
}
