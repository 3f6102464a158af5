/* netsched benchmark: plan + verify alltoall/faraj on 3-level switch trees.
 *
 * Prints, for each size, the wall time of planning and of verification,
 * the peak resident memory of the run and messages per second. Each size
 * runs in its own child process so the peak memory is that size's alone.
 * Targets (issue #2, 2-core machine): 1024 machines under 1 s; 4096
 * machines under 30 s and 2 GB. Figures are printed, never asserted.
 *
 * Usage: bench_faraj [MACHINES...]   (default: 256 1024 4096)
 * Build without sanitizers for meaningful figures (the default build).
 */
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* 3-level trees: root switch -> F1 switches -> F2 switches -> F3 machines. */
static gboolean shape_for(int machines, int fanout[3])
{
  switch (machines) {
  case 256: fanout[0] = 4; fanout[1] = 4; fanout[2] = 16; return TRUE;
  case 1024: fanout[0] = 4; fanout[1] = 8; fanout[2] = 32; return TRUE;
  case 4096: fanout[0] = 8; fanout[1] = 16; fanout[2] = 32; return TRUE;
  default:
    /* Any other size: 4 x 4 x machines/16 when divisible. */
    if (machines % 16 != 0)
      return FALSE;
    fanout[0] = 4; fanout[1] = 4; fanout[2] = machines / 16;
    return TRUE;
  }
}

static int run_one(int machines)
{
  int fanout[3];
  if (!shape_for(machines, fanout)) {
    fprintf(stderr, "bench_faraj: %d machines: use a multiple of 16\n", machines);
    return 2;
  }
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_tree(fanout, 3, 100e6, 10e-6, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_faraj: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = 65536 };
  gint64 t0 = g_get_monotonic_time();
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error);
  gint64 t1 = g_get_monotonic_time();
  NsVerifyReport r = { 0 };
  gboolean ok = s != NULL && ns_verify(t, s, NULL, &r, &error);
  gint64 t2 = g_get_monotonic_time();
  if (!ok) {
    fprintf(stderr, "bench_faraj: %s\n", error->message);
    return 2;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double plan_s = (double)(t1 - t0) / 1e6, verify_s = (double)(t2 - t1) / 1e6;
  double total = plan_s + verify_s;
  uint64_t messages = (uint64_t)machines * (machines - 1);
  printf("%8d  %-12s %12" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %9.3f %9.3f %9.3f %9.1f "
         "%12.0f  %s\n",
         machines, ns_topology_source(t) + 4, messages, r.n_phases, plan_s, verify_s, total,
         (double)ru.ru_maxrss / 1024.0, (double)messages / total,
         ns_verify_passed(&r, TRUE) ? "optimal" : "FAILED");
  int status = ns_verify_passed(&r, TRUE) ? 0 : 1;
  ns_verify_report_clear(&r);
  return status;
}

int main(int argc, char **argv)
{
  int defaults[] = { 256, 1024, 4096 };
  int n = argc > 1 ? argc - 1 : (int)G_N_ELEMENTS(defaults);
  printf("alltoall/faraj: plan + verify on 3-level trees (msize 64KiB, 100Mbps)\n");
  printf("%8s  %-12s %12s %8s %9s %9s %9s %9s %12s  %s\n", "machines", "shape", "messages",
         "phases", "plan_s", "verify_s", "total_s", "peak_MiB", "messages/s", "verdict");
  fflush(stdout);
  int worst = 0;
  for (int i = 0; i < n; i++) {
    int machines = argc > 1 ? atoi(argv[i + 1]) : defaults[i];
    pid_t pid = fork();
    if (pid == 0) {
      int code = run_one(machines);
      fflush(NULL); /* _exit does not flush stdio */
      _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    worst = MAX(worst, code);
  }
  return worst;
}
