/* netsched benchmark: plan + verify on fabrics beyond switch trees.
 *
 * Cases (issue "Fabrics beyond homogeneous trees"):
 *   shift on a 4-ary 5-tree (1024 machines, dmodk routing): contention-free
 *     and optimal, proven by the verifier on every run;
 *   the direct dimension-order all-to-all (shift) on a 32×32 torus (1024
 *     machines): contended, the verifier says how far from Lemma 1;
 *   faraj packed for mixed speeds on 16 switches × 64 machines with
 *     1 Gbit/s machine links under 10 Gbit/s uplinks.
 * Each case runs in its own child process, so its peak memory is its own.
 * Prints wall times of planning and verifying, peak resident memory,
 * transfers, phases and the verdict. Figures are printed, never asserted;
 * build without sanitizers (the default build) for meaningful figures.
 *
 * Usage: bench_fabrics [CASE...]   (default: every case; CASE = its spec)
 */
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  const char *spec;       /* gen: specification without the prefix */
  const char *algorithm;
} Case;

static const Case cases[] = {
  { "fattree:4,5", "shift" },
  { "torus:32x32", "shift" },
  { "tree:16,64:bandwidth=1Gbps:uplink=10Gbps", "faraj" },
};

static int run_one(const Case *c)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(c->spec, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_fabrics: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = 65536 };
  gint64 t0 = g_get_monotonic_time();
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, c->algorithm, &params, &error);
  gint64 t1 = g_get_monotonic_time();
  NsVerifyReport r = { 0 };
  gboolean ok = s != NULL && ns_verify(t, s, NULL, &r, &error);
  gint64 t2 = g_get_monotonic_time();
  if (!ok) {
    fprintf(stderr, "bench_fabrics: %s\n", error->message);
    return 2;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%-44s %-6s %6d %10" G_GUINT64_FORMAT " %7" G_GUINT64_FORMAT " %8.3f %8.3f %8.1f  %s, "
         "x%.3f of the bound\n",
         c->spec, c->algorithm, ns_topology_n_machines(t), r.n_transfers, r.n_phases,
         (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6, (double)ru.ru_maxrss / 1024.0,
         r.failures[NS_CHECK_CONTENTION] == 0 ? "contention-free" : "contended",
         r.bound_s > 0 ? r.transmission_s / r.bound_s : 0);
  ns_verify_report_clear(&r);
  fflush(stdout); /* the child ends with _exit */
  return 0;
}

int main(int argc, char **argv)
{
  printf("%-44s %-6s %6s %10s %7s %8s %8s %8s  %s\n", "topology", "algo", "mach", "transfers",
         "phases", "plan_s", "verify_s", "peak_MB", "verdict");
  int status = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    gboolean wanted = argc < 2;
    for (int a = 1; a < argc && !wanted; a++)
      wanted = strcmp(argv[a], cases[i].spec) == 0;
    if (!wanted)
      continue;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
      _exit(run_one(&cases[i]));
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
      status = 1;
  }
  return status;
}
