/* platforms/units: parsing with explicit units, rejection of everything
 * else, and formatting that round-trips through the parsers. */
#include "platforms/model/units.h"
#include "tests/testutil.h"

#include <math.h>

static void test_bandwidth_parse(void)
{
  static const struct {
    const char *text;
    double value;
  } good[] = {
    {"100Mbps", 100e6},   {"1Gbps", 1e9},        {"12.5MBps", 100e6}, {"1.25Gbps", 1.25e9},
    {"10kbps", 1e4},      {"10Kbps", 1e4},       {"1Tbps", 1e12},     {"1Kibps", 1024},
    {"2Mibps", 2097152},  {"1GiBps", 8589934592.0}, {"8bps", 8},      {"1Bps", 8},
    {"100bit/s", 100},    {"100Mbit/s", 100e6},  {"1MB/s", 8e6},      {" 100Mbps ", 100e6},
    {"100 Mbps", 100e6},  {"1e2Mbps", 100e6},    {"+5Gbps", 5e9},     {".5Gbps", 5e8},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
    double v = -1;
    const char *why = NULL;
    g_assert_true(ns_parse_bandwidth(good[i].text, &v, &why));
    g_assert_null(why);
    g_assert_cmpfloat(v, ==, good[i].value);
  }
}

static void test_bandwidth_reject(void)
{
  static const struct {
    const char *text, *why;
  } bad[] = {
    {"100", "missing unit (units are never guessed: write e.g. 100Mbps)"},
    {"100Mbs", "unknown unit (expected bps, Bps or bit/s with an optional prefix k, M, G, T, "
               "Ki, Mi, Gi, Ti, e.g. 100Mbps)"},
    {"100mbps", NULL},  /* milli-bits: not a unit */
    {"100 M bps", NULL},
    {"-5Mbps", "negative value"},
    {"0bps", "bandwidth must be positive"},
    {"0Gbps", "bandwidth must be positive"},
    /* #18.11: a lower limit as well as an upper one */
    {"1e-300bps", "bandwidth is below the 1bps limit"},
    {"0.5bps", "bandwidth is below the 1bps limit"},
    {"2000000Tbps", "bandwidth is above the 1 Ebit/s limit"},
    {"nanMbps", "not a number (expected a decimal number followed by a unit)"},
    {"infGbps", "not a number (expected a decimal number followed by a unit)"},
    {"NaN", "not a number (expected a decimal number followed by a unit)"},
    {"0x10Mbps", NULL},
    {"1e400Mbps", "number out of range"},
    {"1e308TBps", "value out of range"},
    {"", "empty value"},
    {"   ", "empty value"},
    {"Mbps", "not a number (expected a decimal number followed by a unit)"},
    {"10us", NULL},
    {"1,5Gbps", NULL},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    double v = 42;
    const char *why = NULL;
    g_assert_false(ns_parse_bandwidth(bad[i].text, &v, &why));
    g_assert_nonnull(why);
    if (bad[i].why != NULL)
      g_assert_cmpstr(why, ==, bad[i].why);
    g_assert_cmpfloat(v, ==, 42); /* untouched on failure */
  }
  double v;
  g_assert_false(ns_parse_bandwidth(NULL, &v, NULL)); /* why may be NULL */
}

static void test_time_parse(void)
{
  static const struct {
    const char *text;
    double value;
  } good[] = {
    {"5us", 5e-6}, {"10us", 1e-5},  {"1ms", 1e-3},  {"0.2s", 0.2},   {"3ns", 3e-9},
    {"7ps", 7e-12}, {"0s", 0},      {"0us", 0},     {"2\xc2\xb5s", 2e-6}, {"1.5ms", 1.5e-3},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
    double v = -1;
    g_assert_true(ns_parse_time(good[i].text, &v, NULL));
    g_assert_cmpfloat(v, ==, good[i].value);
  }
  static const struct {
    const char *text, *why;
  } bad[] = {
    {"5", "missing unit (units are never guessed: write e.g. 10us)"},
    {"5sec", "unknown unit (expected s, ms, us, ns or ps, e.g. 10us)"},
    {"5Mbps", "unknown unit (expected s, ms, us, ns or ps, e.g. 10us)"},
    {"-1us", "negative value"},
    {"-0s", "negative value"},
    {"nans", "not a number (expected a decimal number followed by a unit)"},
    {"1e999s", "number out of range"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    double v;
    const char *why = NULL;
    g_assert_false(ns_parse_time(bad[i].text, &v, &why));
    g_assert_cmpstr(why, ==, bad[i].why);
  }
}

static void test_size_parse(void)
{
  static const struct {
    const char *text;
    uint64_t value;
  } good[] = {
    {"64KiB", 65536},         {"1MB", 1000000},          {"512B", 512},
    {"1.5KiB", 1536},         {"8b", 1},                 {"1Kib", 128},
    {"1kB", 1000},            {"1KB", 1000},             {"2GiB", UINT64_C(2147483648)},
    {"18446744073709551615B", UINT64_MAX}, {"16777215TiB", UINT64_C(16777215) << 40},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
    uint64_t v = 0;
    const char *why = NULL;
    g_assert_true(ns_parse_size(good[i].text, &v, &why));
    g_assert_cmpuint(v, ==, good[i].value);
  }
  static const struct {
    const char *text, *why;
  } bad[] = {
    {"64", "missing unit (units are never guessed: write e.g. 64KiB)"},
    {"64KB/s", "unknown unit (expected B or b with an optional prefix k, M, G, T, Ki, Mi, Gi, "
               "Ti, e.g. 64KiB)"},
    {"0B", "size must be positive"},
    {"12b", "size is not a whole number of bytes"},
    {"0.5B", "size is not a whole number of bytes"},
    {"18446744073709551616B", "size out of range"},
    {"16777216TiB", "size out of range"},
    {"1e30B", "size out of range"},
    {"-1B", "negative value"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    uint64_t v;
    const char *why = NULL;
    g_assert_false(ns_parse_size(bad[i].text, &v, &why));
    g_assert_cmpstr(why, ==, bad[i].why);
  }
}

static void test_format_exact(void)
{
  static const struct {
    double value;
    const char *text;
  } bw[] = {
    {100e6, "100Mbps"}, {1e9, "1Gbps"}, {1.25e9, "1.25Gbps"}, {1e4, "10kbps"},
    {7, "7bps"},        {3e12, "3Tbps"}, {123456789, "123.456789Mbps"}, {0.5, "0.5bps"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bw); i++) {
    g_autofree char *s = ns_format_bandwidth(bw[i].value);
    g_assert_cmpstr(s, ==, bw[i].text);
  }
  static const struct {
    double value;
    const char *text;
  } tm[] = {
    {1e-5, "10us"}, {5e-6, "5us"}, {1e-3, "1ms"}, {0.2, "200ms"}, {3600, "3600s"},
    {0, "0s"},      {2.5e-9, "2.5ns"}, {1e-13, "0.1ps"}, {1.5, "1.5s"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(tm); i++) {
    g_autofree char *s = ns_format_time(tm[i].value);
    g_assert_cmpstr(s, ==, tm[i].text);
  }
  static const struct {
    uint64_t value;
    const char *text;
  } sz[] = {
    {65536, "64KiB"}, {1000, "1kB"},   {1536, "1536B"},  {1, "1B"},
    {1048576, "1MiB"}, {1000000, "1MB"}, {UINT64_C(5497558138880), "5TiB"},
    {UINT64_C(3000000000000), "3TB"}, {UINT64_MAX, "18446744073709551615B"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(sz); i++) {
    g_autofree char *s = ns_format_size(sz[i].value);
    g_assert_cmpstr(s, ==, sz[i].text);
  }
}

/* Every formatted value parses back to exactly the same number. */
static void test_round_trip(void)
{
  GRand *rng = g_rand_new_with_seed(20240601);
  for (int i = 0; i < 20000; i++) {
    double bw = exp(g_rand_double_range(rng, log(NS_MIN_BANDWIDTH), log(1e16)));
    if (i % 3 == 0)
      bw = floor(bw);
    if (bw <= 0)
      bw = 1;
    g_autofree char *b = ns_format_bandwidth(bw);
    double back = 0;
    const char *why = NULL;
    if (!ns_parse_bandwidth(b, &back, &why))
      g_error("bandwidth %.17g formatted as '%s' does not parse: %s", bw, b, why);
    g_assert_cmpfloat(back, ==, bw);

    double t = exp(g_rand_double_range(rng, log(1e-15), log(1e6)));
    g_autofree char *s = ns_format_time(t);
    if (!ns_parse_time(s, &back, &why))
      g_error("time %.17g formatted as '%s' does not parse: %s", t, s, why);
    g_assert_cmpfloat(back, ==, t);

    uint64_t z = ((uint64_t)g_rand_int(rng) << 32 | g_rand_int(rng)) >> g_rand_int_range(rng, 0, 63);
    if (z == 0)
      z = 1;
    g_autofree char *zs = ns_format_size(z);
    uint64_t zb = 0;
    if (!ns_parse_size(zs, &zb, &why))
      g_error("size %" G_GUINT64_FORMAT " formatted as '%s' does not parse: %s", z, zs, why);
    g_assert_cmpuint(zb, ==, z);
  }
  g_rand_free(rng);
  /* Extremes. */
  const double odd[] = {1e-300, 1e300, 1.0 / 3, 2.0 / 3 * 1e9, 0.1, 1e-20};
  for (gsize i = 0; i < G_N_ELEMENTS(odd); i++) {
    g_autofree char *b = ns_format_bandwidth(odd[i]);
    g_autofree char *t = ns_format_time(odd[i]);
    double back;
    if (odd[i] >= NS_MIN_BANDWIDTH && odd[i] <= NS_MAX_BANDWIDTH) {
      g_assert_true(ns_parse_bandwidth(b, &back, NULL));
      g_assert_cmpfloat(back, ==, odd[i]);
    } else { /* formatted, but outside what a topology may hold */
      g_assert_false(ns_parse_bandwidth(b, &back, NULL));
    }
    g_assert_true(ns_parse_time(t, &back, NULL));
    g_assert_cmpfloat(back, ==, odd[i]);
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/units/bandwidth/parse", test_bandwidth_parse);
  g_test_add_func("/units/bandwidth/reject", test_bandwidth_reject);
  g_test_add_func("/units/time/parse", test_time_parse);
  g_test_add_func("/units/size/parse", test_size_parse);
  g_test_add_func("/units/format/exact", test_format_exact);
  g_test_add_func("/units/format/round-trip", test_round_trip);
  return g_test_run();
}
