/* netsched benchmark: plan + verify of the collectives of issue #22 —
 * reduce, allreduce, alltoallv and allgatherv — at 1024 machines.
 *
 * For every registered planner of those collectives (or the ones named on
 * the command line as COLL/ALGO), on a switch tree of 1024 machines
 * (gen:tree:32,32: 32 switches of 32 machines under a root switch), plan
 * with a 1 MiB vector (reductions; 64 KiB segments for the pipelines)
 * or a random size pattern (random:64KiB,0.5,1: the v-collectives), then
 * verify the schedule held whole. Prints phases, transfers, chunk moves,
 * the plan's and the verification's CPU time (user + system: the machine
 * may be shared; wall time beside it), the peak resident memory of the
 * case and the verdict of the data-flow and completeness checks. Each
 * case runs in a process of its own (bench_each_internal.h). Figures are
 * printed, never asserted; a planner that refuses the topology prints
 * its reason.
 *
 * Usage: bench_collectives [COLL/ALGO...]   Build without sanitizers
 * (-DCMAKE_BUILD_TYPE=Release) for meaningful figures.
 */
#include "bench/bench_cpu_internal.h"
#include "bench/bench_each_internal.h"
#include "platforms/gen/shapes.h"
#include "sched/ir/pattern.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>
#include <string.h>

#define TOPOLOGY "tree:32,32"
#define VECTOR_BYTES (1u << 20)
#define SEGMENT_BYTES (1u << 16)
#define PATTERN "random:64KiB,0.5,1"

static int run_one(const char *spec)
{
  g_auto(GStrv) parts = g_strsplit(spec, "/", 2);
  NsCollective c;
  if (parts[0] == NULL || parts[1] == NULL || !ns_collective_from_name(parts[0], &c)) {
    fprintf(stderr, "bench_collectives: '%s' is not COLL/ALGO\n", spec);
    return 2;
  }
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(TOPOLOGY, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_collectives: %s\n", error->message);
    return 2;
  }
  int p = ns_topology_n_machines(t);
  g_autoptr(NsSizePattern) pattern = NULL;
  if (ns_collective_is_vector(c) &&
      (pattern = ns_size_pattern_generate(PATTERN, c, p, &error)) == NULL) {
    fprintf(stderr, "bench_collectives: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = VECTOR_BYTES, .root = 0, .pattern = pattern,
                          .segment = strstr(parts[1], "pipeline") != NULL ? SEGMENT_BYTES : 0 };
  double c0 = bench_cpu_seconds();
  gint64 w0 = g_get_monotonic_time();
  g_autoptr(NsSchedule) s = ns_plan(t, c, parts[1], &params, &error);
  double c1 = bench_cpu_seconds();
  gint64 w1 = g_get_monotonic_time();
  if (s == NULL) {
    printf("%-26s refused: %s\n", spec, error->message);
    g_error_free(error);
    return 0;
  }
  NsVerifyOptions opt;
  ns_verify_options_init(&opt);
  opt.port = NS_PORT_ALL;
  NsVerifyReport r = { 0 };
  if (!ns_verify(t, s, &opt, &r, &error)) {
    printf("%-26s verify error: %s\n", spec, error->message);
    g_error_free(error);
    return 1;
  }
  double c2 = bench_cpu_seconds();
  gint64 w2 = g_get_monotonic_time();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  gboolean correct = r.failures[NS_CHECK_DATAFLOW] == 0 && r.failures[NS_CHECK_COMPLETE] == 0;
  printf("%-26s %6" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT
         " %8.3f %8.3f %8.3f %8.3f %9.1f  %s%s\n",
         spec, r.n_phases, r.n_transfers, r.n_chunk_moves, c1 - c0, (double)(w1 - w0) / 1e6,
         c2 - c1, (double)(w2 - w1) / 1e6, (double)ru.ru_maxrss / 1024.0,
         correct ? "complete" : "FAILED",
         r.failures[NS_CHECK_CONTENTION] == 0 ? ", contention-free" : "");
  ns_verify_report_clear(&r);
  return correct ? 0 : 1;
}

int main(int argc, char **argv)
{
  GPtrArray *specs = g_ptr_array_new_with_free_func(g_free);
  for (int i = 1; i < argc; i++)
    g_ptr_array_add(specs, g_strdup(argv[i]));
  int n = 0;
  const NsPlanner *all = ns_planners(&n);
  for (int i = 0; argc == 1 && i < n; i++)
    if (ns_collective_is_reduction(all[i].collective) ||
        ns_collective_is_vector(all[i].collective))
      g_ptr_array_add(specs, g_strdup_printf("%s/%s", ns_collective_name(all[i].collective),
                                             all[i].name));
  printf("plan + verify at 1024 machines (gen:%s; reductions: %u KiB vector; v-collectives: "
         "pattern %s)\n", TOPOLOGY, VECTOR_BYTES >> 10, PATTERN);
  printf("%-26s %6s %9s %11s %8s %8s %8s %8s %9s  %s\n", "collective/algorithm", "phases",
         "transfers", "chunk_moves", "plan_cpu", "plan_s", "ver_cpu", "ver_s", "peak_MiB",
         "verdict");
  int worst = bench_each_in_process((int)specs->len, (const char *const *)specs->pdata, run_one);
  g_ptr_array_unref(specs);
  return worst;
}
