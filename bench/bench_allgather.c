/* netsched benchmark: the logical rings of all-gather (dissertation §3.3)
 * on random trees.
 *
 * For each random tree kind (uniform Prüfer trees, stars, chains, deep and
 * unbalanced trees; platforms/shapes.h) and each seed, builds the LR1, LR2
 * and LR3 rings (sched/allgather_ring_common.h) and prints the time each
 * took and the maximum path length it found, then the time of the whole
 * allgather/lr3 planner (ring + the p(p−1)-transfer schedule) and of
 * verifying that schedule. Target (issue #4, 2-core machine): LR3 under
 * 1 s on random trees with 1024 machines and 128 switches. Figures are
 * printed, never asserted.
 *
 * Usage: bench_allgather [MACHINES [SWITCHES [SEEDS]]]
 *        (default: 1024 machines, 128 switches, 5 seeds per kind)
 * Build without sanitizers for meaningful figures (the default build).
 */
#include "platforms/shapes.h"
#include "sched/allgather_ring_common.h"
#include "sched/registry.h"
#include "sched/verify.h"
#include <stdio.h>
#include <stdlib.h>

static double seconds_since(gint64 t0)
{
  return (double)(g_get_monotonic_time() - t0) / 1e6;
}

int main(int argc, char **argv)
{
  int machines = argc > 1 ? atoi(argv[1]) : 1024;
  int switches = argc > 2 ? atoi(argv[2]) : 128;
  int seeds = argc > 3 ? atoi(argv[3]) : 5;
  if (machines < 2 || switches < 1 || seeds < 1) {
    fprintf(stderr, "usage: bench_allgather [MACHINES [SWITCHES [SEEDS]]]\n");
    return 2;
  }
  printf("%-10s %4s %8s %7s %4s %4s %4s %9s %9s %9s %9s %9s\n", "kind", "seed", "switches",
         "depth", "LR1", "LR2", "LR3", "lr1 s", "lr2 s", "lr3 s", "plan s", "verify s");
  double worst_lr3 = 0;
  int *ring = g_new(int, machines);
  for (int kind = NS_RANDOM_UNIFORM; kind <= NS_RANDOM_UNBALANCED; kind++)
    for (int seed = 1; seed <= seeds; seed++) {
      GError *error = NULL;
      g_autoptr(NsTopology) t = ns_shape_random((uint64_t)seed, machines, switches,
                                                (NsRandomKind)kind, 100e6, 10e-6, &error);
      if (t == NULL) {
        fprintf(stderr, "bench_allgather: %s\n", error->message);
        return 2;
      }
      int depth = 0; /* links from the anchor to the farthest node */
      for (int v = 0; v < ns_topology_n_nodes(t); v++)
        depth = MAX(depth, ns_tree_depth(t, v));
      gint64 t0 = g_get_monotonic_time();
      ns_ring_lr1(t, ring);
      double s1 = seconds_since(t0);
      int d1 = ns_ring_max_path_length(t, ring);
      t0 = g_get_monotonic_time();
      gboolean ok2 = ns_ring_lr2(t, ring, NULL);
      double s2 = seconds_since(t0);
      int d2 = ok2 ? ns_ring_max_path_length(t, ring) : -1;
      int d3 = -1;
      t0 = g_get_monotonic_time();
      gboolean ok3 = ns_ring_lr3(t, ring, &d3, &error);
      double s3 = seconds_since(t0);
      if (!ok3) {
        printf("%-10s %4d lr3 refused: %s\n", ns_random_kind_name((NsRandomKind)kind), seed,
               error->message);
        g_clear_error(&error);
        continue;
      }
      worst_lr3 = MAX(worst_lr3, s3);
      NsPlanParams params = { .msize = 65536 };
      t0 = g_get_monotonic_time();
      g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLGATHER, "lr3", &params, &error);
      double sp = seconds_since(t0);
      NsVerifyReport r = { 0 };
      t0 = g_get_monotonic_time();
      gboolean verified = s != NULL && ns_verify(t, s, NULL, &r, &error) &&
                          ns_verify_passed(&r, FALSE) && r.max_path_len == d3;
      double sv = seconds_since(t0);
      ns_verify_report_clear(&r);
      char lr2_text[8];
      g_snprintf(lr2_text, sizeof lr2_text, d2 < 0 ? "-" : "%d", d2);
      printf("%-10s %4d %8d %7d %4d %4s %4d %9.5f %9.5f %9.5f %9.4f %9.4f%s\n",
             ns_random_kind_name((NsRandomKind)kind), seed, ns_topology_n_switches(t), depth,
             d1, lr2_text, d3, s1, s2, s3, sp, sv, verified ? "" : "  VERIFY FAILED");
    }
  g_free(ring);
  printf("\nslowest LR3 ring: %.4f s (target: under 1 s for 1024 machines, 128 switches)\n",
         worst_lr3);
  return 0;
}
