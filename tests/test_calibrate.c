/* Calibrations: timing tables, the fit, SMPI factor strings, key files,
 * the presets, and Faraj's Tables 4.6 and 4.7 reproduced analytically and
 * by simulation within 5 % per size. */
#include "analysis/calibrate_internal.h"
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "platforms/model/units.h"
#include "sim/measure.h"
#include "sim/sim.h"
#include "tests/testutil.h"
#include <math.h>
#include <string.h>

static GArray *table_of(const uint64_t *sizes, const double *times, guint n)
{
  GArray *t = g_array_new(FALSE, FALSE, sizeof(NsCalPoint));
  for (guint i = 0; i < n; i++) {
    NsCalPoint p = { sizes[i], times[i], (int)i + 1 };
    g_array_append_val(t, p);
  }
  return t;
}

static NsCalibration *fit_on(const GArray *table, const NsCalRoute *route)
{
  GError *error = NULL;
  NsCalibration *c = ns_calibration_fit(table, route, &error);
  g_assert_no_error(error);
  g_assert_nonnull(c);
  return c;
}

/* ---- tables ---------------------------------------------------------------- */

static void test_table_parse(void)
{
  GError *error = NULL;
  const char *good = "# a comment\n"
                     "size,time\n"
                     "\n"
                     "4B, 8us   # inline comment\r\n"
                     "1KiB 0.0207ms\n"
                     "4 KiB , 29 us\n";
  g_autoptr(GArray) t = ns_cal_table_parse(good, -1, "good.csv", &error);
  g_assert_no_error(error);
  g_assert_cmpuint(t->len, ==, 3);
  g_assert_cmpuint(g_array_index(t, NsCalPoint, 0).size, ==, 4);
  g_assert_cmpfloat_with_epsilon(g_array_index(t, NsCalPoint, 1).time, 20.7e-6, 1e-15);
  g_assert_cmpuint(g_array_index(t, NsCalPoint, 2).size, ==, 4096);
  g_assert_cmpint(g_array_index(t, NsCalPoint, 2).line, ==, 6);

  const struct {
    const char *text, *message;
  } bad[] = {
    { "4B,8us\n256,8us\n", "t.csv:2: size '256': missing unit" },
    { "size,time\n4B,8us\n1KiB,0.02\n", "t.csv:3: time '0.02': missing unit" },
    { "4B,8us,9us\n", "t.csv:1: expected two fields SIZE,TIME (e.g. 4KiB,0.029ms), found 3" },
    { "4B,8us\n4B,9us\n",
      "t.csv:2: size 4B is not larger than 4B on line 1 (sizes must increase)" },
    { "1KiB,8us\n\n4B,9us\n", "t.csv:3: size 4B is not larger than 1KiB on line 1" },
    { "4B,0us\n8B,1us\n", "t.csv:1: time '0us': must be positive" },
    { "# only one\n4B,8us\n", "t.csv: a table needs at least two rows SIZE,TIME, found 1" },
    { "4B,8us\nsize,time\n", "t.csv:2: size 'size': " },
    { "4B,8us\n5KiBB,9us\n", "t.csv:2: size '5KiBB': unknown unit" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(GArray) r = ns_cal_table_parse(bad[i].text, -1, "t.csv", &error);
    g_assert_null(r);
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    if (!g_str_has_prefix(error->message, bad[i].message))
      g_error("table %zu: got '%s', expected '%s...'", i, error->message, bad[i].message);
    g_clear_error(&error);
  }
  g_autoptr(GArray) none = ns_cal_table_read("/nonexistent/table.csv", &error);
  g_assert_null(none);
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_clear_error(&error);
}

/* ---- the fit ------------------------------------------------------------- */

/* An exactly linear table is fitted exactly; the factors are then 1 when
 * the route carries the fitted values. */
static void test_linear_fit_exact(void)
{
  const uint64_t sizes[] = { 1, 100, 5000, 65536, 1000000 };
  double times[5];
  const double lat = 12e-6, bw = 800e6;
  for (int i = 0; i < 5; i++)
    times[i] = lat + (double)sizes[i] * 8 / bw;
  g_autoptr(GArray) t = table_of(sizes, times, 5);
  double l, b, worst;
  g_assert_true(ns_cal_linear_fit((NsCalPoint *)(void *)t->data, t->len, &l, &b, &worst, NULL));
  g_assert_cmpfloat(fabs(l - lat) / lat, <, 1e-9);
  g_assert_cmpfloat(fabs(b - bw) / bw, <, 1e-9);
  g_assert_cmpfloat(worst, <, 1e-9);
  NsCalRoute route = { 3, lat, bw };
  g_autoptr(NsCalibration) c = fit_on(t, &route);
  g_assert_cmpfloat(fabs(c->latency * 3 - lat) / lat, <, 1e-9);
  g_autoptr(GArray) lf = ns_cal_factors_parse(c->lat_factor, TRUE, "lat", NULL);
  g_autoptr(GArray) bf = ns_cal_factors_parse(c->bw_factor, FALSE, "bw", NULL);
  for (guint i = 0; i < lf->len; i++) {
    g_assert_cmpfloat(fabs(g_array_index(lf, NsCalFactor, i).value - 1), <, 1e-9);
    g_assert_cmpfloat(fabs(g_array_index(bf, NsCalFactor, i).value - 1), <, 1e-9);
  }
}

/* Random tables (growing, flat, shrinking and convex segments) on random
 * routes: every table size is reproduced exactly by the SMPI rule, every
 * factor is a valid SimGrid factor, and where the times grow the model
 * interpolates linearly between consecutive sizes. */
static void test_fit_properties(void)
{
  GRand *rng = g_rand_new_with_seed(20240601);
  for (int round = 0; round < 300; round++) {
    guint n = (guint)g_rand_int_range(rng, 2, 14);
    uint64_t *sizes = g_new(uint64_t, n);
    double *times = g_new(double, n);
    uint64_t s = (uint64_t)g_rand_int_range(rng, 1, 64);
    double t = g_rand_double_range(rng, 1e-6, 1e-4);
    for (guint i = 0; i < n; i++) {
      sizes[i] = s;
      times[i] = t;
      s += (uint64_t)g_rand_int_range(rng, 1, 1 << g_rand_int_range(rng, 1, 18));
      switch (g_rand_int_range(rng, 0, 6)) {
      case 0: break;                                               /* flat */
      case 1: t *= g_rand_double_range(rng, 0.7, 1.0); break;      /* shrinking */
      default: t += g_rand_double_range(rng, 0, 1e-3); break;      /* growing */
      }
    }
    if (times[n - 1] <= times[0]) /* the times must grow somewhere */
      times[n - 1] = times[0] * 2;
    g_autoptr(GArray) table = table_of(sizes, times, n);
    NsCalRoute route = { g_rand_int_range(rng, 1, 7), g_rand_double_range(rng, 1e-7, 1e-4),
                         g_rand_double_range(rng, 1e6, 1e11) };
    g_autoptr(NsCalibration) c = fit_on(table, &route);
    GError *error = NULL;
    g_autoptr(GArray) lf = ns_cal_factors_parse(c->lat_factor, TRUE, "lat-factor", &error);
    g_assert_no_error(error);
    g_autoptr(GArray) bf = ns_cal_factors_parse(c->bw_factor, FALSE, "bw-factor", &error);
    g_assert_no_error(error);
    g_assert_cmpuint(lf->len, ==, n);
    g_assert_cmpuint(bf->len, ==, n);
    for (guint i = 0; i < n; i++) {
      double got = ns_calibration_time(c, sizes[i]);
      if (!(fabs(got - times[i]) <= 1e-9 * times[i]))
        g_error("round %d, size %" G_GUINT64_FORMAT ": %.12g s instead of %.12g s", round,
                sizes[i], got, times[i]);
    }
    for (guint i = 1; i < n; i++) {
      if (!(times[i] > times[i - 1]) || sizes[i] - sizes[i - 1] < 2)
        continue;
      uint64_t mid = sizes[i - 1] + (sizes[i] - sizes[i - 1]) / 2;
      double want = times[i - 1] + (times[i] - times[i - 1]) * (double)(mid - sizes[i - 1]) /
                                       (double)(sizes[i] - sizes[i - 1]);
      double slope = (times[i] - times[i - 1]) / (double)(sizes[i] - sizes[i - 1]);
      if (times[i] - slope * (double)sizes[i] < 0)
        continue; /* that segment goes through the origin instead */
      g_assert_cmpfloat(fabs(ns_calibration_time(c, mid) - want), <=, 1e-9 * want);
    }
    g_free(sizes);
    g_free(times);
  }
  g_rand_free(rng);
}

static void test_fit_errors(void)
{
  GError *error = NULL;
  const uint64_t sizes[] = { 4, 256, 1024 };
  const double flat[] = { 8e-6, 8e-6, 7e-6 };
  g_autoptr(GArray) t = table_of(sizes, flat, 3);
  NsCalRoute route = { 2, 1e-6, 1e9 };
  g_assert_null(ns_calibration_fit(t, &route, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "do not grow with the size"));
  g_clear_error(&error);
  const double growing[] = { 8e-6, 9e-6, 12e-6 };
  g_autoptr(GArray) g = table_of(sizes, growing, 3);
  NsCalRoute no_latency = { 2, 0, 1e9 };
  g_assert_null(ns_calibration_fit(g, &no_latency, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "the route has no latency"));
  g_clear_error(&error);
}

/* ---- factor strings --------------------------------------------------------- */

static void test_factors(void)
{
  GError *error = NULL;
  g_autoptr(GArray) f = ns_cal_factors_parse("100:2;0:0.5;1000:3e-1", FALSE, "bw", &error);
  g_assert_no_error(error);
  g_assert_cmpuint(f->len, ==, 3);
  /* SimGrid 3.32's rule, measured: the factor of the largest threshold
   * strictly below the size; none below: 1. */
  g_assert_cmpfloat(ns_cal_factor_at(f, 0), ==, 1.0);
  g_assert_cmpfloat(ns_cal_factor_at(f, 1), ==, 0.5);
  g_assert_cmpfloat(ns_cal_factor_at(f, 100), ==, 0.5);
  g_assert_cmpfloat(ns_cal_factor_at(f, 101), ==, 2.0);
  g_assert_cmpfloat(ns_cal_factor_at(f, 1000), ==, 2.0);
  g_assert_cmpfloat(ns_cal_factor_at(f, 1e9), ==, 0.3);
  g_autoptr(GArray) z = ns_cal_factors_parse("0:0", TRUE, "lat", &error);
  g_assert_no_error(error);
  const char *bad[] = { "", "0:1;", "0:1 ;5:2", "a:1", "0:x", "0:inf", "0:nan", "0:1;0:2",
                        "0:-1", "0:0", "-1:2", "0:1;5", "0:1:2", "99999999999999999999999:1",
                        "0:1e999", "0:1\n--cfg=x" };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(GArray) r = ns_cal_factors_parse(bad[i], FALSE, "bw-factor", &error);
    if (r != NULL)
      g_error("'%s' accepted", bad[i]);
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_true(g_str_has_prefix(error->message, "bw-factor '"));
    g_clear_error(&error);
  }
}

/* ---- key files ------------------------------------------------------------- */

static void test_keyfile(void)
{
  GError *error = NULL;
  const uint64_t sizes[] = { 4, 1024, 65536 };
  const double times[] = { 5e-6, 9e-6, 300e-6 };
  g_autoptr(GArray) t = table_of(sizes, times, 3);
  NsCalRoute route = { 4, 6e-6, 2e9 };
  g_autoptr(NsCalibration) c = fit_on(t, &route);
  c->description = g_strdup("a = b; rack #3 with\nnewline"); /* '#' is the value's */
  c->topology = g_strdup("gen:quadrics:16");
  c->pair[0] = g_strdup("n0");
  c->pair[1] = g_strdup("n5");
  c->source = g_strdup("t.csv");
  g_autofree char *data = ns_calibration_to_data(c);
  g_autoptr(NsCalibration) r = ns_calibration_parse(data, -1, "c.ini", &error);
  g_assert_no_error(error);
  g_assert_cmpstr(r->description, ==, c->description);
  g_assert_cmpstr(r->topology, ==, "gen:quadrics:16");
  g_assert_cmpstr(r->pair[1], ==, "n5");
  g_assert_cmpstr(r->lat_factor, ==, c->lat_factor);
  g_assert_cmpstr(r->bw_factor, ==, c->bw_factor);
  g_assert_cmpint(r->route.hops, ==, 4);
  g_assert_cmpfloat(r->route.latency, ==, route.latency);
  g_assert_cmpfloat(r->route.bandwidth, ==, route.bandwidth);
  g_assert_cmpfloat(fabs(r->latency - ns_cal_round(c->latency)), <=, 1e-12 * c->latency);
  g_assert_cmpuint(r->table->len, ==, 3);
  for (guint i = 0; i < 3; i++) {
    g_assert_cmpuint(g_array_index(r->table, NsCalPoint, i).size, ==, sizes[i]);
    g_assert_cmpfloat(fabs(g_array_index(r->table, NsCalPoint, i).time - times[i]), <, 1e-15);
    g_assert_cmpfloat(ns_calibration_time(r, sizes[i]), ==, ns_calibration_time(c, sizes[i]));
  }
  /* no reduction rate measured: none written, none read, the default kept */
  g_assert_null(strstr(data, "reduce-rate"));
  g_assert_cmpfloat(r->reduce_rate, ==, 0);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  ns_sim_options_calibrate(&opt, r);
  g_assert_cmpfloat(opt.reduce_rate, ==, NS_SIM_REDUCE_RATE_DEFAULT);
  /* a measured rate (bytes/s) round-trips and becomes the replay's */
  c->reduce_rate = 4.5e9;
  g_autofree char *with_rate = ns_calibration_to_data(c);
  g_assert_nonnull(strstr(with_rate, "\nreduce-rate=36Gbps\n"));
  g_autoptr(NsCalibration) rr = ns_calibration_parse(with_rate, -1, "c.ini", &error);
  g_assert_no_error(error);
  g_assert_cmpfloat(rr->reduce_rate, ==, 4.5e9);
  ns_sim_options_calibrate(&opt, rr);
  g_assert_cmpfloat(opt.reduce_rate, ==, 4.5e9);
  g_autofree char *digest = ns_sim_options_describe(&opt);
  g_assert_nonnull(strstr(digest, ";reduce-rate=4500000000"));
  ns_sim_options_clear(&opt);

  const struct {
    const char *text, *message;
  } bad[] = {
    { "[calibration]\nlat-factor=0:1\n", "c.ini: [calibration] has no key 'bw-factor'" },
    { "[other]\nx=1\n", "c.ini: no [calibration] group" },
    /* one key-file reader (analysis/keyfile.c): its messages, with lines */
    { "no group\n", "c.ini:1: 'no group' is neither a [group], a KEY = VALUE nor a # comment" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nbw-factor=0:2\n",
      "c.ini:4: key 'bw-factor' is given twice in [calibration] (first at c.ini:3)" },
    { "[calibration]\n# c\nlat-factor=0:1\nbw-factor=0:1;4:0\n",
      "c.ini:4: bw-factor '0:1;4:0': a factor must be positive" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nlatency=3\n",
      "c.ini:4: latency: '3': missing unit" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\npair=n0\n",
      "c.ini:4: pair: 'n0': expected two machine names A,B" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nsizes=4B;8B\ntimes=1us\n",
      "c.ini:5: times: 1 times for 2 sizes" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nhops=0\n",
      "c.ini:4: hops: '0': expected a number of links >= 1" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nreduce-rate=36\n",
      "c.ini:4: reduce-rate: '36': missing unit" },
    { "[calibration]\nlat-factor=0:1\nbw-factor=0:1\nreduce-rate=0Gbps\n",
      "c.ini:4: reduce-rate: '0Gbps': bandwidth must be positive" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(NsCalibration) x = ns_calibration_parse(bad[i].text, -1, "c.ini", &error);
    g_assert_null(x);
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    if (!g_str_has_prefix(error->message, bad[i].message))
      g_error("file %zu: got '%s', expected '%s...'", i, error->message, bad[i].message);
    g_clear_error(&error);
  }
  g_assert_null(ns_calibration_load("no-such-calibration", &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_nonnull(strstr(error->message, "bundled: "));
  g_assert_nonnull(strstr(error->message, "beowulf-gige"));
  g_assert_nonnull(strstr(error->message, "lemieux"));
  g_clear_error(&error);
  g_assert_null(ns_calibration_load("../lemieux", &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
}

/* ---- presets ------------------------------------------------------------- */

static NsTopology *spec(const char *s)
{
  GError *error = NULL;
  NsTopology *t = ns_shape_from_spec(s, &error);
  g_assert_no_error(error);
  g_assert_nonnull(t);
  return t;
}

static void test_presets(void)
{
  const struct {
    const char *spec;
    int machines, switches;
  } shapes[] = {
    { "quadrics:2", 4, 1 }, { "quadrics:16", 16, 8 }, { "quadrics:17", 64, 48 },
    { "quadrics:64", 64, 48 }, { "gige:16", 16, 1 }, { "gige:2", 2, 1 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(shapes); i++) {
    g_autoptr(NsTopology) t = spec(shapes[i].spec);
    g_assert_cmpint(ns_topology_n_machines(t), ==, shapes[i].machines);
    g_assert_cmpint(ns_topology_n_switches(t), ==, shapes[i].switches);
    gboolean quadrics = g_str_has_prefix(shapes[i].spec, "quadrics");
    for (int v = 0; v < ns_topology_n_nodes(t); v++)
      if (ns_topology_node(t, v)->kind == NS_NODE_SWITCH)
        g_assert_cmpint(ns_topology_node(t, v)->forwarding, ==,
                        quadrics ? NS_FORWARD_CUT_THROUGH : NS_FORWARD_STORE_AND_FORWARD);
    g_assert_cmpint(ns_topology_routing(t), ==, quadrics ? NS_ROUTING_DMODK : NS_ROUTING_TREE);
    g_assert_nonnull(strstr(ns_topology_title(t), quadrics ? "lemieux" : "beowulf-gige"));
  }
  g_autoptr(NsTopology) fast = spec("gige:4:bandwidth=1Gbps");
  g_assert_cmpfloat(ns_topology_link(fast, 0)->bandwidth, ==, 1e9);
  g_assert_cmpfloat(ns_topology_link(fast, 0)->latency, ==, 31.71e-6);
  GError *error = NULL;
  const char *bad[] = { "quadrics:1", "quadrics:x", "gige", "gige:3,4", "quadrics:262145",
                        "gige:4:colour=red" };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autoptr(NsTopology) t = ns_shape_from_spec(bad[i], &error);
    g_assert_null(t);
    g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
    g_assert_true(g_str_has_prefix(error->message, "gen:"));
    g_clear_error(&error);
  }
  g_assert_cmpstr(ns_shape_preset_calibration("quadrics"), ==, "lemieux");
  g_assert_null(ns_shape_preset_calibration("star"));
}

/* ---- the paper's tables --------------------------------------------------- */

typedef struct {
  const char *table, *calibration, *preset;
} Paper;

static const Paper papers[] = {
  { "scenarios/calibrations/lemieux.csv", "lemieux", "quadrics:16" },     /* Table 4.6 */
  { "scenarios/calibrations/beowulf-gige.csv", "beowulf-gige", "gige:16" }, /* Table 4.7 */
};

static NsCalRoute route_n0_n1(const NsTopology *t)
{
  int edges[16];
  int n = ns_topology_route_machines(t, 0, 1, edges);
  NsCalRoute r = { n, 0, G_MAXDOUBLE };
  for (int i = 0; i < n; i++) {
    r.latency += ns_topology_link(t, ns_edge_link(edges[i]))->latency;
    r.bandwidth = MIN(r.bandwidth, ns_topology_link(t, ns_edge_link(edges[i]))->bandwidth);
  }
  return r;
}

static GArray *paper_table(const Paper *p)
{
  g_autofree char *path = ns_test_source(p->table);
  GError *error = NULL;
  GArray *t = ns_cal_table_read(path, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(t->len, ==, 9);
  return t;
}

/* The preset's links are the table's plain linear fit; that fit alone is
 * off by far more than 5 % at small sizes; the bundled calibration is the
 * fit on the preset's n0 -> n1 route and reproduces every size. */
static void test_paper_tables_analytic(void)
{
  for (gsize k = 0; k < G_N_ELEMENTS(papers); k++) {
    g_autoptr(GArray) table = paper_table(&papers[k]);
    g_autoptr(NsTopology) t = spec(papers[k].preset);
    NsCalRoute route = route_n0_n1(t);
    g_assert_cmpint(route.hops, ==, 2);
    double lat, bw, worst;
    g_assert_true(ns_cal_linear_fit((NsCalPoint *)(void *)table->data, table->len, &lat, &bw,
                                    &worst, NULL));
    g_assert_cmpfloat(worst, >, 0.2);
    g_assert_cmpfloat(fabs(route.bandwidth - ns_cal_round(bw)), <=, 1e-9 * bw);
    g_assert_cmpfloat(fabs(route.latency / 2 - ns_cal_round(lat / 2)), <=, 1e-9 * lat);

    g_autoptr(NsCalibration) fresh = fit_on(table, &route);
    GError *error = NULL;
    g_autoptr(NsCalibration) bundled = ns_calibration_load(papers[k].calibration, &error);
    g_assert_no_error(error);
    g_assert_cmpstr(bundled->lat_factor, ==, fresh->lat_factor);
    g_assert_cmpstr(bundled->bw_factor, ==, fresh->bw_factor);
    g_autofree char *gen = g_strconcat("gen:", papers[k].preset, NULL);
    g_assert_cmpstr(bundled->topology, ==, gen);
    g_assert_cmpstr(bundled->pair[0], ==, "n0");
    g_assert_cmpstr(bundled->pair[1], ==, "n1");
    g_assert_cmpuint(bundled->table->len, ==, table->len);
    for (guint i = 0; i < table->len; i++) {
      const NsCalPoint *p = &g_array_index(table, NsCalPoint, i);
      double err = fabs(ns_calibration_time(bundled, p->size) - p->time) / p->time;
      g_test_message("%s %" G_GUINT64_FORMAT " B: analytic error %.2e", papers[k].calibration,
                     p->size, err);
      g_assert_cmpfloat(err, <, 0.05);
      g_assert_cmpfloat(err, <, 1e-9); /* exact, in fact */
      g_assert_cmpuint(g_array_index(bundled->table, NsCalPoint, i).size, ==, p->size);
    }
  }
}

/* One simulated message of `size` bytes from n0 to n1. */
static double simulate_one(const NsTopology *t, const NsCalibration *c, uint64_t size,
                           NsNetModel model)
{
  const char *names[] = { "n0", "n1", NULL };
  g_autoptr(NsSchedule) s = ns_schedule_new(NS_COLL_BCAST, "point-to-point", 2, names, size);
  s->root = 0;
  s->n_segments = 1;
  ns_schedule_add(s, 0, 1, 0);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.model = model;
  opt.lat_factor = g_strdup(c->lat_factor);
  opt.bw_factor = g_strdup(c->bw_factor);
  g_autofree char *described = ns_sim_options_describe(&opt);
  g_assert_nonnull(strstr(described, "model=smpi"));
  g_assert_nonnull(strstr(described, c->bw_factor));
  NsSimResult r;
  GError *error = NULL;
  g_assert_true(ns_simulate(t, s, &opt, &r, &error));
  g_assert_no_error(error);
  double time = r.completion;
  ns_sim_result_clear(&r);
  ns_sim_options_clear(&opt);
  return time;
}

static void test_paper_tables_simulated(void)
{
  for (gsize k = 0; k < G_N_ELEMENTS(papers); k++) {
    g_autoptr(GArray) table = paper_table(&papers[k]);
    g_autoptr(NsTopology) t = spec(papers[k].preset);
    GError *error = NULL;
    g_autoptr(NsCalibration) c = ns_calibration_load(papers[k].calibration, &error);
    g_assert_no_error(error);
    for (guint i = 0; i < table->len; i++) {
      const NsCalPoint *p = &g_array_index(table, NsCalPoint, i);
      double sim = simulate_one(t, c, p->size, NS_MODEL_SMPI);
      double err = (sim - p->time) / p->time;
      g_test_message("%s %" G_GUINT64_FORMAT " B: table %.4g us, simulated %.6g us (%+.2e)",
                     papers[k].calibration, p->size, p->time * 1e6, sim * 1e6, err);
      g_assert_cmpfloat(fabs(err), <, 0.05);
    }
  }
}

/* A calibration selects the SMPI model whatever `model` says, and leaves
 * an uncalibrated run alone. */
static void test_calibration_selects_smpi(void)
{
  g_autoptr(NsTopology) t = spec("gige:2");
  GError *error = NULL;
  g_autoptr(NsCalibration) c = ns_calibration_load("beowulf-gige", &error);
  g_assert_no_error(error);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.model = NS_MODEL_IDEAL;
  opt.lat_factor = g_strdup(c->lat_factor);
  g_autofree char *d = ns_sim_options_describe(&opt);
  g_assert_true(g_str_has_prefix(d, "model=smpi;"));
  ns_sim_options_clear(&opt);
  /* 4 bytes: the ideal model alone would give the route latency, 63.42
   * us, and more; with the calibration, the table's 56 us. */
  double calibrated = simulate_one(t, c, 4, NS_MODEL_IDEAL);
  g_assert_cmpfloat(fabs(calibrated - 56e-6), <, 56e-6 * 1e-6);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/calibrate/table-parse", test_table_parse);
  g_test_add_func("/calibrate/linear-fit-exact", test_linear_fit_exact);
  g_test_add_func("/calibrate/fit-properties", test_fit_properties);
  g_test_add_func("/calibrate/fit-errors", test_fit_errors);
  g_test_add_func("/calibrate/factors", test_factors);
  g_test_add_func("/calibrate/keyfile", test_keyfile);
  g_test_add_func("/calibrate/presets", test_presets);
  g_test_add_func("/calibrate/paper-tables-analytic", test_paper_tables_analytic);
  g_test_add_func("/calibrate/paper-tables-simulated", test_paper_tables_simulated);
  g_test_add_func("/calibrate/calibration-selects-smpi", test_calibration_selects_smpi);
  return g_test_run();
}
