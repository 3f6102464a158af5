/* netsched benchmark: the routed all-to-all loads (ns_a2a_routed_loads,
 * sched/bound/lower_bound.h) on fat trees.
 *
 * For each topology (default gen:fattree:4,6, gen:fattree:4,7 and
 * gen:fattree:3,7): the CPU seconds of ns_a2a_routed_loads as the bound
 * takes it, of each method it may use — the closed form on k-ary n-trees
 * (where it holds), level by level on levelled fat trees, the next-hop trees (the method before the closed form;
 * past NS_ROUTED_LOAD_MAX_WORK, ns_a2a_routed_loads does not run it), and
 * every pair's route walked (with --pairs: minutes at 16,384 machines) —
 * and whether their loads and path lengths agree. Each topology runs in a
 * child process (bench_each_internal.h). Figures are printed, never
 * asserted; exit 1 when two methods disagree. Build without sanitizers
 * (CMAKE_BUILD_TYPE=Release) for meaningful figures.
 *
 * Usage: bench_bound [--pairs] [SPEC...]
 */
#include "bench/bench_cpu_internal.h"
#include "bench/bench_each_internal.h"
#include "platforms/gen/shapes.h"
#include "sched/bound/routed_loads_internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static gboolean with_pairs;

/* One method's loads and paths, and its CPU seconds. */
typedef struct {
  const char *name;
  gboolean ran;
  double seconds;
  uint64_t *edge;
  NsRoutedPaths paths;
} Method;

static gboolean same(const Method *a, const Method *b, int n_edges)
{
  return memcmp(a->edge, b->edge, sizeof(uint64_t) * (gsize)n_edges) == 0 &&
         a->paths.min == b->paths.min && a->paths.max == b->paths.max &&
         fabs(a->paths.mean - b->paths.mean) <= 1e-9 * MAX(1, a->paths.mean);
}

static int run_one(const char *spec)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t =
      ns_shape_from_spec(g_str_has_prefix(spec, "gen:") ? spec + 4 : spec, &error);
  if (t == NULL) {
    fprintf(stderr, "%s: %s\n", spec, error->message);
    g_error_free(error);
    return 2;
  }
  int n_edges = ns_topology_n_edges(t);
  Method m[5] = { { .name = "ns_a2a_routed_loads" }, { .name = "closed form" },
                  { .name = "level by level" }, { .name = "next-hop trees" },
                  { .name = "every pair walked" } };
  for (int i = 0; i < 5; i++) {
    m[i].edge = g_new0(uint64_t, n_edges);
    double t0 = bench_cpu_seconds();
    switch (i) {
    case 0:
      m[i].ran = ns_a2a_routed_loads(t, m[i].edge, &m[i].paths);
      break;
    case 1:
      m[i].ran = ns_fat_closed_loads(t, m[i].edge, &m[i].paths);
      break;
    case 2:
      m[i].ran = ns_updown_loads(t, m[i].edge, &m[i].paths);
      break;
    case 3:
      ns_next_hop_loads(t, m[i].edge, &m[i].paths);
      m[i].ran = TRUE;
      break;
    default:
      if (with_pairs) {
        ns_pair_loads(t, m[i].edge, &m[i].paths);
        m[i].ran = TRUE;
      }
    }
    m[i].seconds = bench_cpu_seconds() - t0;
  }
  printf("%s: %d machines, %d nodes, %d directed edges\n", spec, ns_topology_n_machines(t),
         ns_topology_n_nodes(t), n_edges);
  int code = 0;
  for (int i = 0; i < 5; i++) {
    if (!m[i].ran) {
      printf("  %-20s %s\n", m[i].name,
             i == 0 ? "skipped (past NS_ROUTED_LOAD_MAX_WORK)"
                    : i < 3 ? "does not hold" : "not run (--pairs)");
      continue;
    }
    const char *agree = "";
    if (i > 0 && m[0].ran) {
      agree = same(&m[0], &m[i], n_edges) ? "  same loads and paths" : "  DIFFERENT loads or paths";
      code = same(&m[0], &m[i], n_edges) ? code : 1;
    } else if (i == 4 && m[3].ran) {
      agree = same(&m[3], &m[i], n_edges) ? "  same as the next-hop trees" : "  DIFFERENT";
      code = same(&m[3], &m[i], n_edges) ? code : 1;
    }
    printf("  %-20s %8.3f s CPU  paths %d..%d mean %.5f%s\n", m[i].name, m[i].seconds,
           m[i].paths.min, m[i].paths.max, m[i].paths.mean, agree);
  }
  for (int i = 0; i < 5; i++)
    g_free(m[i].edge);
  return code;
}

int main(int argc, char **argv)
{
  static const char *const fallback[] = { "gen:fattree:4,6", "gen:fattree:4,7", "gen:fattree:3,7" };
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--pairs") == 0) {
    with_pairs = TRUE;
    first = 2;
  }
  if (argc > first)
    return bench_each_in_process(argc - first, (const char *const *)argv + first, run_one);
  return bench_each_in_process(G_N_ELEMENTS(fallback), fallback, run_one);
}
