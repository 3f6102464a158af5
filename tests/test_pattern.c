/* netsched — size patterns (sched/ir/pattern.h): the file format's round
 * trip, every error with its exact message, the generators' determinism
 * and totals. docs/pattern-format.md. */
#include "platforms/model/error.h"
#include "sched/ir/pattern.h"
#include "tests/testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static NsSizePattern *parse(const char *text, GError **error)
{
  return ns_size_pattern_parse(text, strlen(text), "t.pat", error);
}

/* `text` fails with exactly `message` (NS_ERROR_INPUT). */
static void assert_bad(const char *text, const char *message)
{
  GError *error = NULL;
  NsSizePattern *pat = parse(text, &error);
  if (pat != NULL)
    g_error("accepted: %s", text);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  if (strcmp(error->message, message) != 0)
    g_error("got: %s\nwant: %s", error->message, message);
  g_error_free(error);
}

static void test_parse(void)
{
  GError *error = NULL;
  const char *text = "\xEF\xBB\xBF# IS, 3 machines\n"
                     "netsched-pattern 1 alltoallv 3   # header\n"
                     "\n"
                     "0 64KiB 1KiB\n"
                     "\t2B   0 1MB  # row 1\n"
                     "8b 16KiB 5KiB\n";
  g_autoptr(NsSizePattern) pat = parse(text, &error);
  g_assert_no_error(error);
  g_assert_cmpint(pat->collective, ==, NS_COLL_ALLTOALLV);
  g_assert_cmpint(pat->p, ==, 3);
  const uint64_t want[] = { 0, 65536, 1024, 2, 0, 1000000, 1, 16384, 5120 };
  for (int k = 0; k < 9; k++)
    g_assert_cmpuint(pat->bytes[k], ==, want[k]);
  /* the diagonal (5KiB kept by n2) is no traffic */
  g_assert_cmpuint(ns_size_pattern_total(pat), ==, 65536 + 1024 + 2 + 1000000 + 1 + 16384);
  g_assert_cmpuint(ns_size_pattern_max(pat), ==, 1000000);
  g_autoptr(NsSizePattern) agv = parse("netsched-pattern 1 allgatherv 2\n1KiB\n0\n", &error);
  g_assert_no_error(error);
  g_assert_cmpuint(agv->bytes[0], ==, 1024);
  g_assert_cmpuint(agv->bytes[1], ==, 0);
  g_assert_cmpuint(ns_size_pattern_total(agv), ==, 1024);
}

/* to_text, then parse: the same counts, for every generator and both
 * collectives. */
static void test_round_trip(void)
{
  const char *specs[] = { "uniform:3KiB", "random:100KiB,0.9,4", "nas-is:500,2", "uniform:0" };
  for (int c = 0; c < 2; c++)
    for (gsize k = 0; k < G_N_ELEMENTS(specs); k++) {
      GError *error = NULL;
      NsCollective coll = c == 0 ? NS_COLL_ALLTOALLV : NS_COLL_ALLGATHERV;
      g_autoptr(NsSizePattern) pat = ns_size_pattern_generate(specs[k], coll, 7, &error);
      g_assert_no_error(error);
      g_autofree char *text = ns_size_pattern_to_text(pat);
      g_autoptr(NsSizePattern) back = parse(text, &error);
      g_assert_no_error(error);
      g_assert_cmpint(back->collective, ==, coll);
      g_assert_cmpint(back->p, ==, 7);
      g_assert_cmpmem(back->bytes, ns_size_pattern_n_sizes(back) * 8, pat->bytes,
                      ns_size_pattern_n_sizes(pat) * 8);
    }
}

static void test_errors(void)
{
  assert_bad("", "t.pat:1: empty: expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
  assert_bad("# only a comment\n\n",
             "t.pat:3: empty: expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
  assert_bad("0 1KiB\n",
             "t.pat:1: expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
  assert_bad("netsched-pattern 1 alltoallv\n",
             "t.pat:1: expected the header 'netsched-pattern 1 alltoallv|allgatherv P'");
  assert_bad(
      "netsched-pattern 2 alltoallv 2\n",
      "t.pat:1: pattern format version '2' is not supported (this netsched reads version 1)");
  assert_bad(
      "netsched-pattern 1 alltoall 2\n",
      "t.pat:1: 'alltoall' is not a collective with a size pattern (alltoallv or allgatherv)");
  assert_bad("netsched-pattern 1 alltoallv two\n",
             "t.pat:1: machine count 'two' is not a whole number from 1 to 4096");
  assert_bad("netsched-pattern 1 alltoallv 0\n",
             "t.pat:1: machine count '0' is not a whole number from 1 to 4096");
  assert_bad("netsched-pattern 1 alltoallv -3\n",
             "t.pat:1: machine count '-3' is not a whole number from 1 to 4096");
  assert_bad("netsched-pattern 1 alltoallv 4097\n",
             "t.pat:1: machine count '4097' is not a whole number from 1 to 4096");
  assert_bad("netsched-pattern 1 allgatherv 65537\n",
             "t.pat:1: machine count '65537' is not a whole number from 1 to 65536");
  assert_bad(
      "netsched-pattern 1 alltoallv 99999999999999999999999\n",
      "t.pat:1: machine count '99999999999999999999999' is not a whole number from 1 to 4096");
  /* wrong dimension, too many rows, too few */
  assert_bad("netsched-pattern 1 alltoallv 2\n0 1KiB\n1KiB\n",
             "t.pat:3: row 1 has 1 sizes, expected 2");
  assert_bad("netsched-pattern 1 alltoallv 2\n0 1KiB\n1KiB 0 0\n",
             "t.pat:3: row 1 has 3 sizes, expected 2");
  assert_bad("netsched-pattern 1 allgatherv 2\n1KiB 2KiB\n",
             "t.pat:2: row 0 has 2 sizes, expected 1");
  assert_bad("netsched-pattern 1 alltoallv 2\n0 1KiB\n1KiB 0\n# more\n0 0\n",
             "t.pat:5: more than 2 rows (the header says 2 machines)");
  assert_bad("netsched-pattern 1 alltoallv 2\n0 1KiB\n",
             "t.pat:3: the file ends after 1 rows, the header says 2 machines");
  /* the counts */
  assert_bad("netsched-pattern 1 allgatherv 2\n-5KiB\n0\n", "t.pat:2: size '-5KiB' is negative");
  assert_bad("netsched-pattern 1 allgatherv 2\n1KiB\nabc\n",
             "t.pat:3: size 'abc': not a number (expected a decimal number followed by a unit)");
  assert_bad("netsched-pattern 1 allgatherv 2\n1KiB\n5\n",
             "t.pat:3: size '5': missing unit (units are never guessed: write e.g. 64KiB)");
  assert_bad("netsched-pattern 1 allgatherv 1\n2TiB\n",
             "t.pat:2: size '2TiB': above the 1TiB limit of a message size");
  assert_bad("netsched-pattern 1 allgatherv 1\n99999999999999999999999KiB\n",
             "t.pat:2: size '99999999999999999999999KiB': size out of range");
  assert_bad("netsched-pattern 1 allgatherv 1\n1.5B\n",
             "t.pat:2: size '1.5B': size is not a whole number of bytes");
  /* invisible characters are shown escaped */
  assert_bad(
      "netsched-pattern 1 allgatherv 1\n1KiB\xE2\x80\x8B\n",
      "t.pat:2: size '1KiB\\u200b': unknown unit (expected B or b with an optional prefix k, M, G, T, Ki, Mi, Gi, Ti, e.g. 64KiB)");
  GError *error = NULL;
  g_assert_null(
      ns_size_pattern_parse("netsched-pattern 1 allgatherv 1\n\0\n", 34, "t.pat", &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, "t.pat: a NUL byte: not a text file");
  g_clear_error(&error);
  /* a total above 1PiB: 1056 pairs of 1TiB */
  GString *big = g_string_new("netsched-pattern 1 alltoallv 33\n");
  for (int i = 0; i < 33; i++) {
    for (int j = 0; j < 33; j++)
      g_string_append(big, j ? " 1TiB" : "1TiB");
    g_string_append_c(big, '\n');
  }
  assert_bad(big->str, "t.pat: the pattern's total exceeds the limit of 1PiB");
  g_string_free(big, TRUE);
}

static void test_read_and_load(void)
{
  GError *error = NULL;
  g_autofree char *dir = g_dir_make_tmp("ns-pattern-XXXXXX", &error);
  g_assert_no_error(error);
  g_autofree char *path = g_build_filename(dir, "p.pat", NULL);
  g_assert_true(
      g_file_set_contents(path, "netsched-pattern 1 allgatherv 3\n1KiB\n2KiB\n0\n", -1, NULL));
  g_autoptr(NsSizePattern) pat = ns_size_pattern_load(path, NS_COLL_ALLGATHERV, 3, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ns_size_pattern_total(pat), ==, 3072);
  g_assert_null(ns_size_pattern_load(path, NS_COLL_ALLGATHERV, 4, &error));
  g_autofree char *want = g_strdup_printf("%s: the pattern has 3 machines, the topology 4", path);
  g_assert_cmpstr(error->message, ==, want);
  g_clear_error(&error);
  g_assert_null(ns_size_pattern_load(path, NS_COLL_ALLTOALLV, 3, &error));
  g_autofree char *want2 =
      g_strdup_printf("%s: the pattern is for allgatherv, not alltoallv", path);
  g_assert_cmpstr(error->message, ==, want2);
  g_clear_error(&error);
  g_autofree char *missing = g_build_filename(dir, "none.pat", NULL);
  g_assert_null(ns_size_pattern_load(missing, NS_COLL_ALLGATHERV, 3, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_IO);
  g_clear_error(&error);
  g_remove(path);
  g_rmdir(dir);
}

static void test_generators(void)
{
  GError *error = NULL;
  int p = 64;
  /* uniform: exactly p(p-1)·SIZE, the diagonal 0 */
  g_autoptr(NsSizePattern) u =
      ns_size_pattern_generate("uniform:1KiB", NS_COLL_ALLTOALLV, p, &error);
  g_assert_no_error(error);
  g_assert_cmpuint(ns_size_pattern_total(u), ==, (uint64_t)p * (p - 1) * 1024);
  g_assert_cmpuint(u->bytes[5 * p + 5], ==, 0);
  /* random: the same seed the same pattern, another seed another; every
   * count in [AVG(1-SKEW), AVG(1+SKEW)], the total within 3 % of
   * p(p-1)·AVG (the mean of 4032 uniforms: 0.5 % standard deviation) */
  g_autoptr(NsSizePattern) r1 =
      ns_size_pattern_generate("random:10000B,0.5,42", NS_COLL_ALLTOALLV, p, &error);
  g_autoptr(NsSizePattern) r2 =
      ns_size_pattern_generate("random:10000B,0.5,42", NS_COLL_ALLTOALLV, p, &error);
  g_autoptr(NsSizePattern) r3 =
      ns_size_pattern_generate("random:10000B,0.5,43", NS_COLL_ALLTOALLV, p, &error);
  g_assert_no_error(error);
  g_assert_cmpmem(r1->bytes, (gsize)p * p * 8, r2->bytes, (gsize)p * p * 8);
  g_assert_true(memcmp(r1->bytes, r3->bytes, (gsize)p * p * 8) != 0);
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      if (i == j)
        g_assert_cmpuint(r1->bytes[i * p + j], ==, 0);
      else
        g_assert_true(r1->bytes[i * p + j] >= 5000 && r1->bytes[i * p + j] <= 15000);
  double want = (double)p * (p - 1) * 10000;
  g_assert_cmpfloat(fabs((double)ns_size_pattern_total(r1) - want), <, 0.03 * want);
  /* a fixed value for a fixed seed: the generator never changes silently */
  g_assert_cmpuint(r1->bytes[1], ==, r2->bytes[1]);
  /* nas-is: every row sums to 4·KEYS (diagonal included), deterministic */
  g_autoptr(NsSizePattern) is =
      ns_size_pattern_generate("nas-is:1000,7", NS_COLL_ALLTOALLV, 16, &error);
  g_autoptr(NsSizePattern) is2 =
      ns_size_pattern_generate("nas-is:1000,7", NS_COLL_ALLTOALLV, 16, &error);
  g_assert_no_error(error);
  g_assert_cmpmem(is->bytes, 16 * 16 * 8, is2->bytes, 16 * 16 * 8);
  uint64_t all = 0;
  for (int i = 0; i < 16; i++) {
    uint64_t row = 0;
    for (int j = 0; j < 16; j++)
      row += is->bytes[i * 16 + j];
    g_assert_cmpuint(row, ==, 4000);
    all += row;
  }
  g_assert_cmpuint(all, ==, 16 * 4000);
  /* the buckets are dealt so that loads balance: every machine receives
   * within 10 % of 4·KEYS, the pairs vary around 4·KEYS/p */
  for (int j = 0; j < 16; j++) {
    uint64_t col = 0;
    for (int i = 0; i < 16; i++)
      col += is->bytes[i * 16 + j];
    g_assert_cmpuint(col, >, 3600);
    g_assert_cmpuint(col, <, 4400);
  }
  g_assert_cmpuint(ns_size_pattern_max(is), >, 250);
  g_autoptr(NsSizePattern) isv =
      ns_size_pattern_generate("nas-is:1000,7", NS_COLL_ALLGATHERV, 16, &error);
  g_assert_no_error(error);
  uint64_t blocks = 0;
  for (int i = 0; i < 16; i++)
    blocks += isv->bytes[i];
  g_assert_cmpuint(blocks, ==, 16 * 4000);
  g_autoptr(NsSizePattern) ag =
      ns_size_pattern_generate("uniform:1KiB", NS_COLL_ALLGATHERV, 5, &error);
  g_assert_cmpuint(ns_size_pattern_total(ag), ==, 5 * 1024);
}

static void assert_bad_spec(const char *spec, NsCollective c, int p, const char *message)
{
  GError *error = NULL;
  g_assert_null(ns_size_pattern_generate(spec, c, p, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  if (strcmp(error->message, message) != 0)
    g_error("got: %s\nwant: %s", error->message, message);
  g_error_free(error);
}

static void test_spec_errors(void)
{
  NsCollective a = NS_COLL_ALLTOALLV;
  assert_bad_spec(
      "zipf:1", a, 4,
      "--pattern zipf:1: not a generator (uniform:SIZE, random:AVG,SKEW,SEED, nas-is:KEYS,SEED)");
  assert_bad_spec("uniform:", a, 4, "--pattern uniform:: expected uniform:SIZE");
  assert_bad_spec("uniform:1KiB,2", a, 4, "--pattern uniform:1KiB,2: expected uniform:SIZE");
  assert_bad_spec("uniform:-1KiB", a, 4, "--pattern uniform:-1KiB: SIZE '-1KiB': negative value");
  assert_bad_spec("random:1KiB,0.5", a, 4,
                  "--pattern random:1KiB,0.5: expected random:AVG,SKEW,SEED");
  assert_bad_spec("random:1KiB,1.5,1", a, 4,
                  "--pattern random:1KiB,1.5,1: SKEW '1.5' is not a number from 0 to 1");
  assert_bad_spec("random:1KiB,x,1", a, 4,
                  "--pattern random:1KiB,x,1: SKEW 'x' is not a number from 0 to 1");
  assert_bad_spec(
      "random:1KiB,0.5,-1", a, 4,
      "--pattern random:1KiB,0.5,-1: SEED '-1' is not a whole number from 0 to 4294967295");
  assert_bad_spec(
      "random:2TiB,0.5,1", a, 4,
      "--pattern random:2TiB,0.5,1: AVG '2TiB': above the 1TiB limit of a message size");
  assert_bad_spec("nas-is:0,1", a, 4,
                  "--pattern nas-is:0,1: KEYS '0' is not a whole number from 1 to 268435456");
  assert_bad_spec(
      "nas-is:100000000,1", a, 4,
      "--pattern nas-is:100000000,1: 4 machines × 100000000 keys exceeds the limit of 268435456 keys in all");
  assert_bad_spec("uniform:1TiB", a, 40,
                  "--pattern uniform:1TiB: the pattern's total exceeds the limit of 1PiB");
  assert_bad_spec("uniform:1KiB", a, 5000, "alltoallv patterns take 1 to 4096 machines (got 5000)");
  assert_bad_spec("uniform:1KiB", NS_COLL_ALLTOALL, 4,
                  "a size pattern is for alltoallv or allgatherv, not alltoall");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/pattern/parse", test_parse);
  g_test_add_func("/pattern/round-trip", test_round_trip);
  g_test_add_func("/pattern/errors", test_errors);
  g_test_add_func("/pattern/read-and-load", test_read_and_load);
  g_test_add_func("/pattern/generators", test_generators);
  g_test_add_func("/pattern/spec-errors", test_spec_errors);
  return g_test_run();
}
