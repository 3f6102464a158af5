/* Process arrival patterns (sim/arrival.h, Faraj's dissertation §4.2.1):
 * the seeded random construction hits δ̄/T and ω/T exactly, specs and
 * arrival files are refused with exact messages, the measures of a run
 * are those computed by hand. */
#include "platforms/model/error.h"
#include "sim/arrival.h"
#include "tests/testutil.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* δ̄/T and ω/T of offsets in seconds, as a run reports them. */
static void factors(const double *offsets, int n, double unit, double *avg, double *max)
{
  NsArrivalStats st;
  ns_arrival_stats(offsets, offsets, n, unit, &st);
  *avg = st.avg_imbalance;
  *max = st.max_imbalance;
}

/* 200 seeds × machine counts × (AVG, MAX) pairs, the extremes included:
 * exact to 1e-9, the earliest at 0, every offset in [0, MAX·T]. */
static void test_random_exact(void)
{
  const double unit = 0.00524288; /* 64 KiB at 100 Mbit/s */
  const int ns[] = { 32, 16, 5, 3 };
  const double maxes[] = { 1, 2, 4, 8, 16 };
  for (gsize in = 0; in < G_N_ELEMENTS(ns); in++) {
    int n = ns[in];
    double *off = g_new(double, n);
    for (gsize im = 0; im < G_N_ELEMENTS(maxes); im++) {
      double max = maxes[im];
      double k = (double)(n / 2);
      double avgs[] = { max / 4, max / n, 2 * k * (n - k) * max / ((double)n * n),
                        (max / n + max / 4) / 2 };
      for (gsize ia = 0; ia < G_N_ELEMENTS(avgs); ia++) {
        double avg = avgs[ia];
        if (avg < max / n || avg > 2 * k * (n - k) * max / ((double)n * n))
          continue; /* max/4 below max/n on 3 machines */
        for (guint32 seed = 1; seed <= 200; seed++) {
          GError *error = NULL;
          g_assert_true(ns_arrival_random_offsets(n, avg, max, seed, off, &error));
          g_assert_no_error(error);
          double lo = G_MAXDOUBLE;
          for (int i = 0; i < n; i++) {
            off[i] *= unit;
            lo = MIN(lo, off[i]);
            g_assert_cmpfloat(off[i], >=, 0);
            g_assert_cmpfloat(off[i], <=, max * unit);
          }
          g_assert_cmpfloat(lo, ==, 0);
          double got_avg, got_max;
          factors(off, n, unit, &got_avg, &got_max);
          g_assert_cmpfloat_with_epsilon(got_avg, avg, 1e-9);
          g_assert_cmpfloat_with_epsilon(got_max, max, 1e-9);
        }
      }
    }
    g_free(off);
  }
}

/* The seed decides the pattern: the same seed gives the same offsets, two
 * seeds two patterns. */
static void test_random_seeded(void)
{
  double a[32], b[32], c[32];
  g_assert_true(ns_arrival_random_offsets(32, 1, 4, 7, a, NULL));
  g_assert_true(ns_arrival_random_offsets(32, 1, 4, 7, b, NULL));
  g_assert_true(ns_arrival_random_offsets(32, 1, 4, 8, c, NULL));
  g_assert_cmpmem(a, sizeof a, b, sizeof b);
  g_assert_true(memcmp(a, c, sizeof a) != 0);
  /* ω = 0: everybody at 0 (balanced) */
  g_assert_true(ns_arrival_random_offsets(32, 0, 0, 1, a, NULL));
  for (int i = 0; i < 32; i++)
    g_assert_cmpfloat(a[i], ==, 0);
  /* two machines: δ̄ = ω/2 is the only pattern */
  g_assert_true(ns_arrival_random_offsets(2, 1.5, 3, 1, a, NULL));
  g_assert_cmpfloat(MAX(a[0], a[1]), ==, 3);
  g_assert_cmpfloat(MIN(a[0], a[1]), ==, 0);
}

static void assert_parse_error(const char *spec, const char *message)
{
  GError *error = NULL;
  g_autoptr(NsArrival) a = ns_arrival_parse(spec, &error);
  g_assert_null(a);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==, message);
  g_error_free(error);
}

static void test_spec_errors(void)
{
  assert_parse_error("uniform", "'uniform': expected balanced, random:AVG,MAX[,seed=S] or "
                                "file:PATH");
  assert_parse_error("random:1", "'random:1': expected random:AVG,MAX[,seed=S]");
  assert_parse_error("random:x,2", "'random:x,2': AVG 'x' is not a number from 0 to 1e+06 "
                                   "(random:AVG,MAX[,seed=S], AVG = δ̄/T, MAX = ω/T)");
  assert_parse_error("random:1,nan", "'random:1,nan': MAX 'nan' is not a number from 0 to "
                                     "1e+06 (random:AVG,MAX[,seed=S], AVG = δ̄/T, MAX = ω/T)");
  assert_parse_error("random:1,-2", "'random:1,-2': MAX '-2' is not a number from 0 to 1e+06 "
                                    "(random:AVG,MAX[,seed=S], AVG = δ̄/T, MAX = ω/T)");
  assert_parse_error("random:3,4", "'random:3,4': no arrival pattern has δ̄/T = 3 and ω/T = 4 "
                                   "(δ̄/T is 0 exactly when ω/T is, and at most half of it)");
  assert_parse_error("random:0,4", "'random:0,4': no arrival pattern has δ̄/T = 0 and ω/T = 4 "
                                   "(δ̄/T is 0 exactly when ω/T is, and at most half of it)");
  assert_parse_error("random:1,4,seed=-1",
                     "'random:1,4,seed=-1': the third item is seed=S, S from 0 to 4294967295");
  assert_parse_error("random:1,4,7", "'random:1,4,7': the third item is seed=S, S from 0 to "
                                     "4294967295");
  /* Feasible for some machine count, not for this one. */
  GError *error = NULL;
  g_autoptr(NsArrival) a = ns_arrival_parse("random:0.1,4", &error);
  g_assert_no_error(error);
  g_assert_cmpstr(a->canonical, ==, "random:0.1,4,seed=1");
  g_assert_false(ns_arrival_check(a, 32, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "random:0.1,4,seed=1: on 32 machines with ω/T = 4, δ̄/T is between ω/T/n = "
                  "0.125 and 2·⌊n/2⌋·⌈n/2⌉·(ω/T)/n² = 2, not 0.1");
  g_clear_error(&error);
  g_assert_true(ns_arrival_check(a, 40, &error));
  g_autoptr(NsArrival) b = ns_arrival_parse("balanced", &error);
  g_assert_nonnull(b);
  g_assert_cmpint(b->kind, ==, NS_ARRIVAL_BALANCED);
}

/* Writes `text` to a temporary file; returns its path (g_free). */
static char *write_file(const char *text)
{
  char *path = NULL;
  int fd = g_file_open_tmp("arrival-XXXXXX.txt", &path, NULL);
  g_assert_cmpint(fd, >=, 0);
  close(fd);
  g_assert_true(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* The file's error, with its path replaced by FILE. */
static void assert_file_error(const char *text, const char *message)
{
  g_autofree char *path = write_file(text);
  g_autofree char *spec = g_strconcat("file:", path, NULL);
  GError *error = NULL;
  g_autoptr(NsArrival) a = ns_arrival_parse(spec, &error);
  g_assert_null(a);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_true(g_str_has_prefix(error->message, path));
  g_assert_cmpstr(error->message + strlen(path), ==, message);
  g_error_free(error);
  g_unlink(path);
}

static NsSchedule *schedule_of(int n, const char *const *names)
{
  return ns_schedule_new(NS_COLL_ALLTOALL, "test", n, names, 1024);
}

static void test_file(void)
{
  assert_file_error("n0 0\nn1 1 2\n", ":2: expected 'NAME SECONDS' or 'SECONDS'");
  assert_file_error("# times\n0.5\nn1 1\n", ":3: a named line among unnamed lines: give every "
                                           "machine's name, or none");
  assert_file_error("n0 0\n\nn0 1\n", ":3: machine 'n0' has a time already (line 1)");
  assert_file_error("n0 0\nn1 1e400\n", ":2: '1e400' is not a time in seconds");
  assert_file_error("n0 0\nn1 1s\n", ":2: '1s' is not a time in seconds");
  assert_file_error("# nothing\n\n", ": no arrival times");
  assert_file_error("0\n2e6\n", ": times spread over 2e+06 s, more than 1e+06 s");

  const char *names[] = { "n0", "n1", "n2", NULL };
  g_autoptr(NsSchedule) s = schedule_of(3, names);
  GError *error = NULL;
  /* Named lines in any order, times shifted so that the earliest is 0
   * (MPI_Wtime values as measured). */
  g_autofree char *named = write_file("n2 1000.5 # late\nn0 1000.25\n n1\t1000.0\n");
  g_autofree char *spec = g_strconcat("file:", named, NULL);
  g_autoptr(NsArrival) a = ns_arrival_parse(spec, &error);
  g_assert_no_error(error);
  g_autofree double *off = ns_arrival_offsets(a, s, 1, &error);
  g_assert_no_error(error);
  g_assert_cmpfloat(off[0], ==, 0.25);
  g_assert_cmpfloat(off[1], ==, 0);
  g_assert_cmpfloat(off[2], ==, 0.5);
  /* A machine the schedule does not have, a machine without a time. */
  const char *other[] = { "n0", "n1", "n3", NULL };
  g_autoptr(NsSchedule) s2 = schedule_of(3, other);
  g_assert_null(ns_arrival_offsets(a, s2, 1, &error));
  g_autofree char *want = g_strdup_printf("%s:1: 'n2' is not a machine of the schedule", named);
  g_assert_cmpstr(error->message, ==, want);
  g_clear_error(&error);
  const char *four[] = { "n0", "n1", "n2", "n3", NULL };
  g_autoptr(NsSchedule) s4 = schedule_of(4, four);
  g_assert_null(ns_arrival_offsets(a, s4, 1, &error));
  g_autofree char *want2 = g_strdup_printf("%s: no arrival time for machine 'n3'", named);
  g_assert_cmpstr(error->message, ==, want2);
  g_clear_error(&error);
  /* Unnamed lines: machine order, one per machine. */
  g_autofree char *plain = write_file("0.002\n0\n0.001\n");
  g_autofree char *spec2 = g_strconcat("file:", plain, NULL);
  g_autoptr(NsArrival) b = ns_arrival_parse(spec2, &error);
  g_assert_no_error(error);
  g_autofree double *off2 = ns_arrival_offsets(b, s, 1, &error);
  g_assert_cmpfloat(off2[0], ==, 0.002);
  g_assert_cmpfloat(off2[2], ==, 0.001);
  g_assert_false(ns_arrival_check(b, 4, &error));
  g_autofree char *want3 = g_strdup_printf("%s: 3 arrival times for 4 machines (one line per "
                                           "machine, in the schedule's machine order, or NAME "
                                           "SECONDS lines)", plain);
  g_assert_cmpstr(error->message, ==, want3);
  g_clear_error(&error);
  g_unlink(named);
  g_unlink(plain);
}

/* ē, δ̄/T, ω/T and the span by hand: arrivals 0, 1, 3 s, finishes 4, 5,
 * 6 s, T = 0.5 s. ā = 4/3; δ̄ = (4/3 + 1/3 + 5/3)/3 = 10/9 s, δ̄/T = 20/9;
 * ω/T = 3/0.5 = 6; ē = (4 + 4 + 3)/3 = 11/3 s; span = 6 − 0 = 6 s. */
static void test_stats_by_hand(void)
{
  const double arrival[] = { 0, 1, 3 }, finish[] = { 4, 5, 6 };
  NsArrivalStats st;
  ns_arrival_stats(arrival, finish, 3, 0.5, &st);
  g_assert_cmpfloat_with_epsilon(st.avg_imbalance, 20.0 / 9, 1e-12);
  g_assert_cmpfloat_with_epsilon(st.max_imbalance, 6, 1e-12);
  g_assert_cmpfloat_with_epsilon(st.mean_node_s, 11.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon(st.span_s, 6, 1e-12);
  g_assert_cmpfloat(st.unit_s, ==, 0.5);
}

/* T: one message on the slowest port of the schedule's machines. */
static void test_unit(void)
{
  g_autoptr(NsTopology) t = ns_test_topology("faraj-c.topo");
  int p = ns_topology_n_machines(t);
  const char **names = g_new0(const char *, p + 1);
  for (int m = 0; m < p; m++)
    names[m] = ns_topology_machine_name(t, m);
  g_autoptr(NsSchedule) s = schedule_of(p, names);
  int slowest = -2;
  double unit = ns_arrival_unit(t, s, 65536, &slowest);
  g_assert_cmpint(slowest, >=, 0);
  double lowest = G_MAXDOUBLE;
  for (int m = 0; m < p; m++) {
    int node = ns_topology_machine_node(t, m);
    for (int k = 0; k < ns_topology_degree(t, node); k++)
      lowest = MIN(lowest, ns_topology_link(t, ns_topology_incident(t, node)[k])->bandwidth);
  }
  g_assert_cmpfloat(unit, ==, 65536 * 8.0 / lowest);
  g_free(names);
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/arrival/random-exact", test_random_exact);
  g_test_add_func("/arrival/random-seeded", test_random_seeded);
  g_test_add_func("/arrival/spec-errors", test_spec_errors);
  g_test_add_func("/arrival/file", test_file);
  g_test_add_func("/arrival/stats-by-hand", test_stats_by_hand);
  g_test_add_func("/arrival/unit", test_unit);
  return g_test_run();
}
