/* netsched benchmark: plan + verify Liu Gang et al.'s AT2 on a 64 × 64
 * all-port torus (4096 machines) and AR on a ring of 1024.
 *
 * Prints, for each case, machines, transfers, chunk moves, phases, the
 * wall time of planning and of verification, the peak resident memory of
 * the run and the verdict (contention-free, shortest paths, transmission
 * against Lemma 1). Each case runs in its own child process so the peak
 * memory is that case's alone. Figures are printed, never asserted.
 *
 * Usage: bench_torus [SPEC...]  (default: gen:torus:64x64 gen:ring:1024;
 * a SPEC is torus:RxC or ring:P, with or without "gen:").
 * Build without sanitizers for meaningful figures.
 */
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
  gint64 t0 = g_get_monotonic_time();
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, algo, &params, &error);
  gint64 t1 = g_get_monotonic_time();
  NsVerifyReport r = { 0 };
  gboolean ok = s != NULL && ns_verify(t, s, NULL, &r, &error);
  gint64 t2 = g_get_monotonic_time();
  if (!ok) {
    fprintf(stderr, "bench_torus: %s\n", error->message);
    return 2;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  gboolean passed = ns_verify_passed(&r, NS_REQUIRE_OPTIMAL | NS_REQUIRE_SHORTEST);
  printf("%-4s %-14s %8d %10" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
         " %9.2f %9.2f %9.1f  x%.4f %s\n",
         algo, shape, ns_topology_n_machines(t), r.n_transfers, r.n_chunk_moves, r.n_phases,
         (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6, (double)ru.ru_maxrss / 1024.0,
         r.transmission_s / r.bound_s, passed ? "optimal" : "FAILED");
  ns_verify_report_clear(&r);
  return passed ? 0 : 1;
}

int main(int argc, char **argv)
{
  const char *defaults[] = { "gen:torus:64x64", "gen:ring:1024" };
  int n = argc > 1 ? argc - 1 : (int)G_N_ELEMENTS(defaults);
  printf("alltoall/at2 and alltoall/ar: plan + verify (msize 64KiB, 100Mbps all-port)\n");
  printf("%-4s %-14s %8s %10s %12s %6s %9s %9s %9s  %s\n", "algo", "topology", "machines",
         "transfers", "chunk_moves", "phases", "plan_s", "verify_s", "peak_MiB", "vs bound");
  fflush(stdout);
  int worst = 0;
  for (int i = 0; i < n; i++) {
    const char *spec = argc > 1 ? argv[i + 1] : defaults[i];
    pid_t pid = fork();
    if (pid == 0) {
      int code = run_one(spec);
      fflush(NULL);
      _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    worst = MAX(worst, WIFEXITED(status) ? WEXITSTATUS(status) : 2);
  }
  return worst;
}
