/* netsched benchmark: synchronisation sets and SimGrid replay.
 *
 * Prints (never asserts):
 *  - time to compute the sender-all pair-wise sync set (plan + sync) for
 *    64/256/512-machine 3-level trees (issue #3 target: 256 machines < 10 s;
 *    the paper's offline cost is O(|M|^4 |S|^2) + O(|M|^6));
 *  - wall time of the replay of a phased faraj all-to-all with sender-all
 *    under the ideal model, and simulated messages per wall second
 *    (target: 256 machines, 65,280 messages, under 2 s).
 * Usage: bench_sim [MACHINES...] (default 64 256 512). Release build.
 */
#include "platforms/shapes.h"
#include "sched/registry.h"
#include "sched/sync.h"
#include "sim/sim.h"
#include <stdio.h>
#include <stdlib.h>

static NsTopology *tree_for(int machines)
{
  int f[3] = { 4, 4, machines / 16 };
  if (machines == 512) { f[0] = 4; f[1] = 8; f[2] = 16; }
  return ns_shape_tree(f, 3, 100e6, 10e-6, NULL);
}

int main(int argc, char **argv)
{
  int defaults[] = { 64, 256, 512 };
  int n = argc > 1 ? argc - 1 : 3;
  printf("alltoall/faraj + sender-all on 3-level trees, msize 64KiB, model ideal\n");
  printf("%8s %10s %8s %10s %10s %10s %10s %12s %9s\n", "machines", "messages", "phases",
         "sync_s", "syncs", "implied", "reduced", "replay_wall", "msg/s");
  for (int i = 0; i < n; i++) {
    int machines = argc > 1 ? atoi(argv[i + 1]) : defaults[i];
    g_autoptr(NsTopology) t = tree_for(machines);
    if (t == NULL || machines % 16 != 0) {
      fprintf(stderr, "bench_sim: %d: use a multiple of 16\n", machines);
      return 2;
    }
    NsPlanParams params = { .msize = 65536 };
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, NULL);
    NsSyncScheme sc = { NS_SYNC_SENDER_ALL, 0 };
    NsSyncStats st;
    gint64 t0 = g_get_monotonic_time();
    ns_schedule_compute_sync(t, s, &sc, &st, NULL);
    double sync_s = (double)(g_get_monotonic_time() - t0) / 1e6;
    NsSimOptions opt;
    ns_sim_options_init(&opt);
    opt.sync = sc;
    opt.sync_set = TRUE;
    NsSimResult r;
    GError *error = NULL;
    if (!ns_simulate(t, s, &opt, &r, &error)) {
      fprintf(stderr, "bench_sim: %s\n", error->message);
      return 2;
    }
    printf("%8d %10" G_GUINT64_FORMAT " %8u %10.3f %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
           " %10" G_GUINT64_FORMAT " %12.3f %9.0f\n",
           machines, r.n_transfers, ns_schedule_n_phases(s), sync_s, st.kept, st.implied,
           st.redundant, r.wall_seconds, (double)r.n_transfers / r.wall_seconds);
    fflush(stdout);
    ns_sim_result_clear(&r);
    ns_sim_options_clear(&opt);
  }
  return 0;
}
