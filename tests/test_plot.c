/* The plot writer's size axis (analysis/plot.c, ns_gnuplot_size_xtics): a
 * tic at every size, labels thinned where they would print over each
 * other — results/allreduce-fig4.10 had 488B and 512B on top of each
 * other, a label at every size. */
#include "analysis/plot_internal.h"
#include "tests/testutil.h"

static char *xtics(const uint64_t *sizes, guint n)
{
  GString *s = g_string_new(NULL);
  ns_gnuplot_size_xtics(s, sizes, n);
  return g_string_free(s, FALSE);
}

/* Figure 4.10's sizes: 15 octaves, a label at least 1.875 octaves from
 * the last: every second octave, 488 B and 512 B (0.93 and 1 octave above
 * 256 B) minor tics without labels. */
static void test_fig410(void)
{
  const uint64_t sizes[] = { 4,    16,   64,   256,   488,   512,   1024,
                             2048, 4096, 8192, 16384, 32768, 65536, 131072 };
  g_autofree char *got = xtics(sizes, G_N_ELEMENTS(sizes));
  g_assert_cmpstr(got, ==,
                  "set xtics ('4B' 4, '16B' 16, '64B' 64, '256B' 256, '' 488 1, '' 512 1, "
                  "'1KiB' 1024, '' 2048 1, '4KiB' 4096, '' 8192 1, '16KiB' 16384, "
                  "'' 32768 1, '64KiB' 65536, '' 131072 1)\n");
}

/* results/tam-wang's sizes: 1 KiB … 1 MiB and 1200 KiB, 10.2 octaves; at
 * a label an octave (12 across) 64KiB … 512KiB touched: every second
 * octave, 1200KiB a minor tic beside 1MiB. */
static void test_tam_wang(void)
{
  const uint64_t sizes[] = { 1024,  2048,   4096,   8192,   16384,   32768,
                             65536, 131072, 262144, 524288, 1048576, 1228800 };
  g_autofree char *got = xtics(sizes, G_N_ELEMENTS(sizes));
  g_assert_cmpstr(got, ==,
                  "set xtics ('1KiB' 1024, '' 2048 1, '4KiB' 4096, '' 8192 1, '16KiB' 16384, "
                  "'' 32768 1, '64KiB' 65536, '' 131072 1, '256KiB' 262144, '' 524288 1, "
                  "'1MiB' 1048576, '' 1228800 1)\n");
}

/* Any order in, increasing out; a narrow axis labels every size; equal
 * sizes one label; one size labelled. */
static void test_orders_and_spans(void)
{
  g_autofree char *unsorted = xtics((const uint64_t[]){ 512, 4, 488 }, 3);
  g_assert_cmpstr(unsorted, ==, "set xtics ('4B' 4, '488B' 488, '' 512 1)\n");
  g_autofree char *narrow = xtics((const uint64_t[]){ 1024, 1536, 2048 }, 3);
  g_assert_cmpstr(narrow, ==, "set xtics ('1KiB' 1024, '1536B' 1536, '2KiB' 2048)\n");
  g_autofree char *twice = xtics((const uint64_t[]){ 64, 64 }, 2);
  g_assert_cmpstr(twice, ==, "set xtics ('64B' 64, '' 64 1)\n");
  g_autofree char *one = xtics((const uint64_t[]){ 64 }, 1);
  g_assert_cmpstr(one, ==, "set xtics ('64B' 64)\n");
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/plot/fig410-labels", test_fig410);
  g_test_add_func("/plot/tam-wang-labels", test_tam_wang);
  g_test_add_func("/plot/orders-and-spans", test_orders_and_spans);
  return g_test_run();
}
