/* bench_sweep — the sweep engine's throughput, and the shard/merge
 * identity at scale.
 *
 *   bench_sweep [TOPOLOGIES [MACHINES [JOBS]]]     (default 1000 1000 2)
 *
 * Sweeps TOPOLOGIES random topologies of MACHINES machines — GT-ITM Waxman
 * switch graphs at the dissertation's 5:1 machine-to-switch ratio and
 * average switch degree 4, each reduced to its random (Kruskal) spanning
 * tree — computing every metric of a row (path lengths and their
 * distribution, the all-to-all bottleneck and bound, LR1/LR2/LR3, the
 * Algorithm 4/5 trees; no simulation) on JOBS worker processes, and prints
 * the wall time, topologies per second and the CPU time per topology (the
 * wall time depends on what else the machine runs; the CPU time much
 * less). Then runs the same sweep as 4 shards, merges them, and checks that
 * the aggregate and the rows are byte-identical to the unsharded run's
 * (exit status 1 otherwise). Prints figures; it is no test. */
#include "analysis/sweep_internal.h"
#include "bench/bench_cpu_internal.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rm_rf(const char *path)
{
  GDir *d = g_dir_open(path, 0, NULL);
  if (d != NULL) {
    const char *name;
    while ((name = g_dir_read_name(d)) != NULL) {
      g_autofree char *p = g_build_filename(path, name, NULL);
      g_unlink(p);
    }
    g_dir_close(d);
  }
  g_rmdir(path);
}

static gboolean same_file(const char *a_dir, const char *b_dir, const char *name)
{
  g_autofree char *a = g_build_filename(a_dir, name, NULL);
  g_autofree char *b = g_build_filename(b_dir, name, NULL);
  g_autofree char *ta = NULL, *tb = NULL;
  gsize la = 0, lb = 0;
  return g_file_get_contents(a, &ta, &la, NULL) && g_file_get_contents(b, &tb, &lb, NULL) &&
         la == lb && memcmp(ta, tb, la) == 0;
}

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 1000, machines = argc > 2 ? atoi(argv[2]) : 1000,
      jobs = argc > 3 ? atoi(argv[3]) : 2;
  if (count < 1 || machines < 10 || jobs < 1) {
    fprintf(stderr, "usage: bench_sweep [TOPOLOGIES [MACHINES [JOBS]]]\n");
    return 2;
  }
  g_autofree char *seeds = g_strdup_printf("seeds=1..%d", count);
  g_autofree char *generator = g_strdup_printf("waxman:machines=%d:ratio=5:degree=4", machines);
  const char *settings[] = { seeds, "trees=kruskal", "metrics=all", NULL };
  const char *generators[] = { generator, NULL };
  GError *error = NULL;
  g_autoptr(NsSweep) sw = ns_sweep_new(settings, generators, &error);
  g_autofree char *whole = g_dir_make_tmp("bench_sweep-XXXXXX", NULL);
  g_autofree char *parts = g_dir_make_tmp("bench_sweep-XXXXXX", NULL);
  if (sw == NULL || whole == NULL || parts == NULL) {
    fprintf(stderr, "bench_sweep: %s\n", error ? error->message : "no temporary directory");
    return 2;
  }
  printf("sweep: %d GT-ITM Waxman topologies of %d machines (%d switches, degree 4), random "
         "spanning trees, all metrics, %d worker process%s\n",
         count, machines, machines / 5, jobs, jobs == 1 ? "" : "es");
  double cpu0 = bench_cpu_seconds_with_children();
  gint64 t0 = g_get_monotonic_time();
  NsSweepRunOptions opt = { .outdir = whole, .jobs = jobs, .progress = NULL };
  gboolean ok = ns_sweep_run(sw, &opt, &error);
  double wall = (g_get_monotonic_time() - t0) / 1e6, cpu = bench_cpu_seconds_with_children() - cpu0;
  if (ok) {
    printf("  %.1f s wall, %.2f topologies/s; CPU %.1f s, %.1f ms per topology "
           "(%.1f s of CPU per core)\n",
           wall, count / wall, cpu, 1000 * cpu / count, cpu / jobs);
    for (int i = 0; ok && i < 4; i++) {
      NsSweepRunOptions shard = { .outdir = parts, .shard = i, .n_shards = 4, .jobs = jobs,
                                  .progress = NULL };
      ok = ns_sweep_run(sw, &shard, &error);
    }
    ok = ok && ns_sweep_merge(sw, parts, NULL, NULL, NULL, NULL, &error);
  }
  int status = 0;
  if (!ok) {
    fprintf(stderr, "bench_sweep: %s\n", error->message);
    g_error_free(error);
    status = 2;
  } else {
    const char *files[] = { "aggregate.json", "aggregate.csv", "rows.jsonl", "rows.csv" };
    for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
      gboolean same = same_file(whole, parts, files[i]);
      printf("  4 shards merged: %s %s\n", files[i],
             same ? "byte-identical to the unsharded run" : "DIFFERS from the unsharded run");
      if (!same)
        status = 1;
    }
  }
  rm_rf(whole);
  rm_rf(parts);
  return status;
}
