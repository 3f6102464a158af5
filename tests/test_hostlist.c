/* platforms/hostlist: Slurm hostlist expressions. */
#include "platforms/io/hostlist_internal.h"
#include "tests/testutil.h"

/* Expands `expr` and compares with the space-separated `expected`. */
static void check(const char *expr, const char *expected)
{
  char *why = NULL;
  char **names = ns_hostlist_expand(expr, &why);
  if (names == NULL)
    g_error("'%s' failed: %s", expr, why);
  g_assert_null(why);
  g_autofree char *joined = g_strjoinv(" ", names);
  g_assert_cmpstr(joined, ==, expected);
  g_strfreev(names);
}

static void check_error(const char *expr, const char *message)
{
  char *why = NULL;
  char **names = ns_hostlist_expand(expr, &why);
  g_assert_null(names);
  g_assert_cmpstr(why, ==, message);
  g_free(why);
}

static void test_expand(void)
{
  check("n0", "n0");
  check("n[0-7,12]", "n0 n1 n2 n3 n4 n5 n6 n7 n12");
  check("rack[1-2]-n[01-03]", "rack1-n01 rack1-n02 rack1-n03 rack2-n01 rack2-n02 rack2-n03");
  check("a,b,c[1-2]", "a b c1 c2");
  check("n[08-10]", "n08 n09 n10");
  check("n[8-10]", "n8 n9 n10");
  check("n[007]", "n007");
  check("n[098-101]", "n098 n099 n100 n101");
  check("n[1-2]x", "n1x n2x");
  check("[1-3]", "1 2 3");
  check("n[3,1,2]", "n3 n1 n2");          /* order is kept */
  check("n[1-2],n[1-2]", "n1 n2 n1 n2");  /* duplicates are the caller's business */
  check("a[0-1]b[0-1]c", "a0b0c a0b1c a1b0c a1b1c");
  check("sw-1.rack_2:x", "sw-1.rack_2:x");
  check("n[0-2,5-6,9]", "n0 n1 n2 n5 n6 n9");
  check("n\xc3\xa9[1-2]", "n\xc3\xa9" "1 n\xc3\xa9" "2");
  /* Several ranges in several groups: the odometer carries correctly. */
  check("a[1,3,5]b[0-1]", "a1b0 a1b1 a3b0 a3b1 a5b0 a5b1");
  check("x[1-2,7]y[08-09,11]",
        "x1y08 x1y09 x1y11 x2y08 x2y09 x2y11 x7y08 x7y09 x7y11");
  check("[0-1][0-1][0-1]", "000 001 010 011 100 101 110 111");
}

static void test_large(void)
{
  char *why = NULL;
  char **names = ns_hostlist_expand("n[0-999999]", &why);
  g_assert_nonnull(names);
  g_assert_cmpuint(g_strv_length(names), ==, NS_HOSTLIST_MAX);
  g_assert_cmpstr(names[0], ==, "n0");
  g_assert_cmpstr(names[999999], ==, "n999999");
  g_strfreev(names);
  names = ns_hostlist_expand("r[0-999]n[000-999]", &why);
  g_assert_nonnull(names);
  g_assert_cmpstr(names[1001], ==, "r1n001");
  g_strfreev(names);
  /* Many ranges times many numbers: linear, not ranges x names. */
  GString *s = g_string_new("n[");
  for (int i = 0; i < 1000; i++)
    g_string_append_printf(s, "%s%d", i ? "," : "", 2 * i);
  g_string_append(s, "]x[0-999]");
  names = ns_hostlist_expand(s->str, &why);
  g_assert_nonnull(names);
  g_assert_cmpuint(g_strv_length(names), ==, 1000000);
  g_assert_cmpstr(names[999999], ==, "n1998x999");
  g_assert_cmpstr(names[1000], ==, "n2x0");
  g_strfreev(names);
  g_string_free(s, TRUE);
}

static void test_errors(void)
{
  check_error("n[0-3", "unbalanced '[' in 'n[0-3'");
  check_error("n0-3]", "unbalanced ']' in 'n0-3]'");
  check_error("n[[1]]", "nested '[' in 'n[[1]]'");
  check_error("n[]", "empty brackets '[]' in 'n[]'");
  check_error("n[5-3]", "descending range '5-3' in 'n[5-3]'");
  check_error("n[a-3]", "bad range 'a-3' (expected N or N-M, 1 to 18 digits each) in 'n[a-3]'");
  check_error("n[1-]", "bad range '1-' (expected N or N-M, 1 to 18 digits each) in 'n[1-]'");
  check_error("n[-1]", "bad range '-1' (expected N or N-M, 1 to 18 digits each) in 'n[-1]'");
  check_error("n[1-2-3]",
              "bad range '1-2-3' (expected N or N-M, 1 to 18 digits each) in 'n[1-2-3]'");
  check_error("n[x]", "bad number 'x' (expected 1 to 18 digits) in 'n[x]'");
  check_error("n[1234567890123456789]",
              "bad number '1234567890123456789' (expected 1 to 18 digits) in "
              "'n[1234567890123456789]'");
  check_error("n[1,,2]", "empty range in brackets in 'n[1,,2]'");
  check_error("a,,b", "empty name in 'a,,b'");
  check_error(",a", "empty name in ',a'");
  check_error("a,", "empty name in 'a,'");
  check_error("a b", "white space or control character in 'a b'");
  check_error("a\tb", "white space or control character in 'a\tb'");
  check_error("", "empty host list");
  check_error(NULL, "empty host list");
  check_error("n\xff", "host list is not valid UTF-8");
  check_error("n[0-999999999]",
              "range '0-999999999' expands to more than 1000000 names in 'n[0-999999999]'");
  check_error("n[0-999999999999999999]",
              "range '0-999999999999999999' expands to more than 1000000 names in "
              "'n[0-999999999999999999]'");
  check_error("n[0-999]x[0-9999]",
              "'n[0-999]x[0-9999]' expands to more than 1000000 names in 'n[0-999]x[0-9999]'");
  check_error("n[0-999999],m[0-1]",
              "host list expands to more than 1000000 names in 'n[0-999999],m[0-1]'");
  check_error("n[0-500000,0-500000]",
              "range '0-500000' expands to more than 1000000 names in 'n[0-500000,0-500000]'");
  /* why may be NULL. */
  g_assert_null(ns_hostlist_expand("n[", NULL));
}

/* Long literal text times many names: refused before allocating. */
static void test_byte_cap(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < 200; i++)
    g_string_append(s, "xxxxxxxxxx");
  g_string_append(s, "[0-999999]");
  char *why = NULL;
  g_assert_null(ns_hostlist_expand(s->str, &why));
  g_assert_true(g_str_has_prefix(why, "host list expands to more than 64 MiB of names in '"));
  g_free(why);
  g_string_free(s, TRUE);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/hostlist/expand", test_expand);
  g_test_add_func("/hostlist/large", test_large);
  g_test_add_func("/hostlist/errors", test_errors);
  g_test_add_func("/hostlist/byte-cap", test_byte_cap);
  return g_test_run();
}
