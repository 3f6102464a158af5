/* netsched benchmark: the logical rings of all-gather (dissertation §3.3)
 * on random trees.
 *
 * For each random tree kind (uniform Prüfer trees, stars, chains, deep and
 * unbalanced trees; platforms/gen/shapes.h) and each seed, builds the LR1, LR2
 * and LR3 rings (sched/planners/allgather/allgather_ring_common_internal.h) and
 * prints the time each took and the maximum path length it found, then the time of the whole
 * allgather/lr3 planner (ring + the p(p−1)-transfer schedule) and of
 * verifying that schedule. Target (issue #4, 2-core machine): LR3 under
 * 1 s on random trees with 1024 machines and 128 switches.
 *
 * Then deep trees, where the ring builder's cost must stay near-linear in
 * the tree: LR3 rings on chains of 1k, 2k, 4k, 8k and 100k switches with
 * 4 machines at each end (optimum: the chain's length), and on random deep
 * trees of 100k switches (NS_RANDOM_DEEP, before pruning) with MACHINES
 * and with 100 000 machines. Figures are printed, never asserted.
 *
 * Usage: bench_allgather [MACHINES [SWITCHES [SEEDS [DEEP]]]]
 *        (default: 1024 machines, 128 switches, 5 seeds per kind; DEEP
 *        caps the deep trees' switches, default 100000, 0 skips them)
 * Build without sanitizers for meaningful figures (the default build).
 */
#include "platforms/gen/shapes.h"
#include "sched/planners/allgather/allgather_ring_common_internal.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"
#include <stdio.h>
#include <stdlib.h>

static double seconds_since(gint64 t0)
{
  return (double)(g_get_monotonic_time() - t0) / 1e6;
}

/* A chain of `switches` switches, `per_end` machines on each end switch. */
static NsTopology *chain_with_ends(int switches, int per_end)
{
  NsTopology *t = ns_topology_new("bench:chain-ends");
  for (int v = 0; v < switches; v++) {
    char name[32];
    g_snprintf(name, sizeof name, "s%d", v);
    ns_topology_add_node(t, name, NS_NODE_SWITCH, 0, NULL);
    if (v > 0)
      ns_topology_add_link(t, v, v - 1, 100e6, 10e-6, 0, NULL);
  }
  for (int k = 0; k < 2 * per_end; k++) {
    char name[32];
    g_snprintf(name, sizeof name, "n%d", k);
    int id = ns_topology_add_node(t, name, NS_NODE_MACHINE, 0, NULL);
    ns_topology_add_link(t, id, k < per_end ? 0 : switches - 1, 100e6, 10e-6, 0, NULL);
  }
  GError *error = NULL;
  if (!ns_topology_finalize(t, NULL, NULL, &error)) {
    fprintf(stderr, "bench_allgather: %s\n", error->message);
    exit(2);
  }
  return t;
}

/* Times the LR3 ring on t (the best of three runs) and prints one line. */
static void deep_line(const char *what, const NsTopology *t)
{
  int p = ns_topology_n_machines(t), *ring = g_new(int, p), d3 = -1, depth = 0;
  for (int v = 0; v < ns_topology_n_nodes(t); v++)
    depth = MAX(depth, ns_tree_depth(t, v));
  GError *error = NULL;
  gboolean ok = TRUE;
  double s3 = G_MAXDOUBLE;
  for (int run = 0; run < 3 && ok; run++) {
    gint64 t0 = g_get_monotonic_time();
    ok = ns_ring_lr3(t, ring, &d3, &error);
    s3 = MIN(s3, seconds_since(t0));
  }
  if (!ok) {
    printf("%-18s lr3 refused: %s\n", what, error->message);
    g_error_free(error);
  } else {
    gboolean consistent = ns_ring_max_path_length(t, ring) == d3;
    printf("%-18s %8d %7d %8d %7d %9.4f%s\n", what, ns_topology_n_switches(t), depth, p, d3,
           s3, consistent ? "" : "  INCONSISTENT");
  }
  g_free(ring);
}

int main(int argc, char **argv)
{
  int machines = argc > 1 ? atoi(argv[1]) : 1024;
  int switches = argc > 2 ? atoi(argv[2]) : 128;
  int seeds = argc > 3 ? atoi(argv[3]) : 5;
  int deep = argc > 4 ? atoi(argv[4]) : 100000;
  if (machines < 2 || switches < 1 || seeds < 1 || deep < 0) {
    fprintf(stderr, "usage: bench_allgather [MACHINES [SWITCHES [SEEDS [DEEP]]]]\n");
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

  if (deep > 0) {
    printf("\ndeep trees: LR3 ring only (best of 3)\n%-18s %8s %7s %8s %7s %9s\n", "tree",
           "switches", "depth", "machines", "LR3", "lr3 s");
    const int lengths[] = { 1000, 2000, 4000, 8000, 100000 };
    for (gsize i = 0; i < G_N_ELEMENTS(lengths); i++) {
      if (lengths[i] > deep)
        continue;
      NsTopology *t = chain_with_ends(lengths[i], 4);
      char what[32];
      g_snprintf(what, sizeof what, "chain %dk ends", lengths[i] / 1000);
      deep_line(what, t);
      ns_topology_free(t);
    }
    const int populations[] = { machines, 100000 };
    for (gsize i = 0; i < G_N_ELEMENTS(populations) && deep >= 100000; i++) {
      GError *error = NULL;
      NsTopology *t = ns_shape_random(1, populations[i], 100000, NS_RANDOM_DEEP, 100e6, 10e-6,
                                      &error);
      if (t == NULL) {
        fprintf(stderr, "bench_allgather: %s\n", error->message);
        return 2;
      }
      char what[32];
      g_snprintf(what, sizeof what, "deep 100k seed 1");
      deep_line(what, t);
      ns_topology_free(t);
    }
  }
  return 0;
}
