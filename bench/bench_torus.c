/* netsched benchmark: plan + verify Liu Gang et al.'s AT2 on 64 × 64 and
 * 128 × 128 all-port tori (4096 and 16,384 machines) and AR on a ring of
 * 1024, as `netsched verify -a` does: the planner's phases go straight
 * into the verifier (ns_verify_planned), one at a time, and the relays are
 * checked store-and-forward (one holder per message).
 *
 * Prints, for each case, machines, transfers, chunk moves, phases, the
 * CPU time (user + system: the machine may be shared, so wall time is
 * printed beside it but is not the figure), the peak resident memory of
 * the run and the verdict (contention-free, shortest paths, transmission
 * against Lemma 1), and issue #24's goals: AT2 64 × 64 under 20 s,
 * 128 × 128 under 3 minutes and 8 GB. Each case runs in its own child
 * process so the peak memory is that case's alone. Figures are printed,
 * never asserted.
 *
 * Usage: bench_torus [SPEC...]  (default: gen:torus:64x64
 * gen:torus:128x128 gen:ring:1024; a SPEC is torus:RxC or ring:P, with or
 * without "gen:"). Build without sanitizers (-DCMAKE_BUILD_TYPE=Release)
 * for meaningful figures.
 */
#include "bench/bench_each_internal.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int run_one(const char *spec)
{
  const char *shape = g_str_has_prefix(spec, "gen:") ? spec + 4 : spec;
  const char *algo = g_str_has_prefix(shape, "ring:") ? "ar" : "at2";
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(shape, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_torus: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = 65536 };
  struct rusage ru0, ru;
  getrusage(RUSAGE_SELF, &ru0);
  gint64 t0 = g_get_monotonic_time();
  NsVerifyReport r = { 0 };
  NsVerifySession *vs =
      ns_verify_planned(t, NS_COLL_ALLTOALL, algo, &params, NULL, NULL, NULL, &r, &error);
  gint64 t1 = g_get_monotonic_time();
  if (vs == NULL) {
    fprintf(stderr, "bench_torus: %s\n", error->message);
    return 2;
  }
  ns_verify_session_free(vs);
  getrusage(RUSAGE_SELF, &ru);
  double cpu = (double)(ru.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
               (double)(ru.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6 +
               (double)(ru.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
  gboolean passed = ns_verify_passed(&r, NS_REQUIRE_OPTIMAL | NS_REQUIRE_SHORTEST);
  int p = ns_topology_n_machines(t);
  const char *goal = strcmp(algo, "at2") != 0 ? ""
                     : p == 4096              ? "  (goal < 20 s)"
                     : p == 16384             ? "  (goal < 180 s, < 8192 MiB)"
                                              : "";
  printf("%-4s %-14s %8d %10" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
         " %9.2f %9.2f %9.1f  x%.4f %s%s\n",
         algo, shape, p, r.n_transfers, r.n_chunk_moves, r.n_phases, cpu,
         (double)(t1 - t0) / 1e6, (double)ru.ru_maxrss / 1024.0, r.transmission_s / r.bound_s,
         passed ? "optimal" : "FAILED", goal);
  ns_verify_report_clear(&r);
  return passed ? 0 : 1;
}

int main(int argc, char **argv)
{
  const char *defaults[] = { "gen:torus:64x64", "gen:torus:128x128", "gen:ring:1024" };
  int n = argc > 1 ? argc - 1 : (int)G_N_ELEMENTS(defaults);
  printf("alltoall/at2 and alltoall/ar: plan + verify, streamed (msize 64KiB, 100Mbps "
         "all-port)\n");
  printf("%-4s %-14s %8s %10s %12s %6s %9s %9s %9s  %s\n", "algo", "topology", "machines",
         "transfers", "chunk_moves", "phases", "cpu_s", "wall_s", "peak_MiB", "vs bound");
  return bench_each_in_process(n, argc > 1 ? (const char *const *)argv + 1 : defaults, run_one);
}
