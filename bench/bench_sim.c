/* netsched benchmark: synchronisation sets and SimGrid replay.
 *
 * Prints (never asserts):
 *  - time to compute the sender-all pair-wise sync set (plan + sync) for
 *    64/256/512-machine 3-level trees (issue #3 target: 256 machines < 10 s;
 *    the paper's offline cost is O(|M|^4 |S|^2) + O(|M|^6));
 *  - wall time of the replay of a phased faraj all-to-all with sender-all
 *    under the ideal model, and simulated messages per wall second
 *    (target: 256 machines, 65,280 messages, under 2 s).
 *  - the same 256-machine exchange under smpirun for comparison: SMPI's own
 *    ring MPI_Alltoall versus netsched's replay of the ring schedule, both
 *    under the smpi model (wall times; skipped without smpicc/smpirun).
 *  - the replay's floor (issue #24): netsched's replay of the faraj
 *    all-to-all under --sync none against simgrid_floor, a bare SimGrid
 *    program doing the same communications in the same order on the same
 *    platform: CPU seconds of both (getrusage: the replay child and
 *    simgrid_floor are children), their ratio (goal <= 1.15), the
 *    simulated times (equal), and the bare program's resident memory per
 *    mailbox and per actor; with `--cfg=contexts/nthreads:2` too (and the
 *    bare runs' wall seconds, which mean little on a loaded machine).
 * Usage: bench_sim [MACHINES...] (default 64 256 512);
 *        bench_sim --floor [MACHINES...] (default 256 512): the floor only.
 * Release build.
 */
#include "bench/bench_cpu_internal.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/ir/sync.h"
#include "sim/sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "platforms/io/topology_simgrid.h"

static NsTopology *tree_for(int machines)
{
  int f[3] = { 4, 4, machines / 16 };
  if (machines == 512) { f[0] = 4; f[1] = 8; f[2] = 16; }
  return ns_shape_tree(f, 3, 100e6, 10e-6, NULL);
}

/* Wall seconds of a command (run in `dir`), or -1 when it fails. */
static double timed(const char *dir, char **argv)
{
  gint64 t0 = g_get_monotonic_time();
  int status = 0;
  if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                                         G_SPAWN_STDERR_TO_DEV_NULL,
                    NULL, NULL, NULL, NULL, &status, NULL) ||
      !g_spawn_check_wait_status(status, NULL))
    return -1;
  return (double)(g_get_monotonic_time() - t0) / 1e6;
}

static void versus_smpirun(int machines)
{
  g_autofree char *smpicc = g_find_program_in_path("smpicc");
  g_autofree char *smpirun = g_find_program_in_path("smpirun");
  if (smpicc == NULL || smpirun == NULL) {
    printf("\nsmpirun comparison skipped: smpicc/smpirun not found\n");
    return;
  }
  g_autoptr(NsTopology) t = tree_for(machines);
  g_autofree char *dir = g_dir_make_tmp("netsched-bench-XXXXXX", NULL);
  g_autofree char *xml = g_build_filename(dir, "platform.xml", NULL);
  g_autofree char *hosts = g_build_filename(dir, "hosts", NULL);
  FILE *f = fopen(xml, "w");
  ns_topology_write_simgrid(t, f, NULL);
  fclose(f);
  GString *h = g_string_new(NULL);
  for (int m = 0; m < machines; m++)
    g_string_append_printf(h, "%s\n", ns_topology_machine_name(t, m));
  g_file_set_contents(hosts, h->str, -1, NULL);
  g_string_free(h, TRUE);
  char *cc[] = { smpicc, (char *)"-O1", (char *)NETSCHED_SOURCE_DIR "/tests/mpi/alltoall_time.c",
                 (char *)"-o", (char *)"a2a", NULL };
  g_autofree char *np = g_strdup_printf("%d", machines);
  char *run[] = { smpirun, (char *)"-np", np, (char *)"-platform", xml, (char *)"-hostfile",
                  hosts, (char *)"./a2a", (char *)"65536", (char *)"--cfg=smpi/alltoall:ring",
                  (char *)"--cfg=smpi/simulate-computation:no", (char *)"--log=root.thres:critical",
                  NULL };
  double smpi_wall = timed(dir, cc) < 0 ? -1 : timed(dir, run);

  NsPlanParams params = { .msize = 65536 };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "ring", &params, NULL);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.model = NS_MODEL_SMPI;
  NsSimResult r;
  gint64 t0 = g_get_monotonic_time();
  gboolean ok = ns_simulate(t, s, &opt, &r, NULL);
  double ours = (double)(g_get_monotonic_time() - t0) / 1e6;
  printf("\n%d-machine ring all-to-all, 64KiB, model smpi: netsched replay %.2f s wall "
         "(simulated %.4f s), smpirun (SMPI's own ring MPI_Alltoall) %.2f s wall\n",
         machines, ours, ok ? r.completion : -1, smpi_wall);
  if (ok)
    ns_sim_result_clear(&r);
  ns_sim_options_clear(&opt);
}

/* simgrid_floor on the files in dir, under the replay's `ideal` model
 * (sim/sim.c: no bandwidth or latency factors, no cross-traffic) and an
 * extra option `cfg` (NULL: none): its CPU seconds, its wall seconds in
 * *wall, its output line in *out. */
static double run_floor(const char *program, const char *dir, const char *cfg, double *wall,
                        char **out)
{
  g_autofree char *xml = g_build_filename(dir, "platform.xml", NULL);
  g_autofree char *list = g_build_filename(dir, "transfers", NULL);
  char *argv[] = { (char *)program, xml, list, (char *)"--log=root.thres:critical",
                   (char *)"--cfg=network/bandwidth-factor:1",
                   (char *)"--cfg=network/latency-factor:1", (char *)"--cfg=network/weight-S:0",
                   (char *)"--cfg=network/crosstraffic:0", (char *)"--cfg=network/TCP-gamma:0",
                   (char *)cfg, NULL };
  double c0 = bench_cpu_seconds_with_children();
  gint64 t0 = g_get_monotonic_time();
  int status = 0;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, out, NULL, &status,
                    NULL) ||
      !g_spawn_check_wait_status(status, NULL))
    return -1;
  *wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  g_strchomp(*out);
  return bench_cpu_seconds_with_children() - c0;
}

/* The replay against the bare SimGrid program, on the faraj all-to-all. */
static void versus_floor(const char *program, int machines)
{
  g_autoptr(NsTopology) t = tree_for(machines);
  NsPlanParams params = { .msize = 65536 };
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, NULL);
  g_autofree char *dir = g_dir_make_tmp("netsched-floor-XXXXXX", NULL);
  g_autofree char *xml = g_build_filename(dir, "platform.xml", NULL);
  g_autofree char *list = g_build_filename(dir, "transfers", NULL);
  FILE *f = fopen(xml, "w");
  ns_topology_write_simgrid(t, f, NULL);
  fclose(f);
  f = fopen(list, "w");
  for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
    uint64_t first, count;
    ns_schedule_phase_range(s, p, &first, &count);
    for (uint64_t i = first; i < first + count; i++) {
      const NsTransfer *tr = ns_schedule_transfer(s, i);
      fprintf(f, "%u %s %s %llu\n", p, ns_topology_machine_name(t, tr->src),
              ns_topology_machine_name(t, tr->dst),
              (unsigned long long)tr->n_chunks * params.msize);
    }
  }
  fclose(f);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.sync = (NsSyncScheme){ NS_SYNC_NONE, 0 };
  opt.sync_set = TRUE;
  NsSimResult r;
  GError *error = NULL;
  double c0 = bench_cpu_seconds_with_children();
  gboolean ok = ns_simulate(t, s, &opt, &r, &error);
  double ours = bench_cpu_seconds_with_children() - c0;
  g_autofree char *bare_out = NULL, *par_out = NULL;
  double bare_wall = 0, par_wall = 0;
  double bare = run_floor(program, dir, NULL, &bare_wall, &bare_out);
  double par = run_floor(program, dir, "--cfg=contexts/nthreads:2", &par_wall, &par_out);
  if (!ok || bare <= 0) {
    fprintf(stderr, "bench_sim: floor at %d machines: %s\n", machines,
            ok ? "simgrid_floor failed" : error->message);
    g_clear_error(&error);
  } else {
    printf("%8d %10" G_GUINT64_FORMAT " %10.2f %10.2f %7.3f %14.9f  %s (%.2f s wall)\n",
           machines, r.n_transfers, ours, bare, ours / bare, r.completion, bare_out, bare_wall);
    printf("%8s %10s %10s %10.2f %7s %14s  nthreads:2: %s (%.2f s wall)\n", "", "", "", par, "",
           "", par > 0 ? par_out : "failed", par_wall);
    ns_sim_result_clear(&r);
  }
  fflush(stdout);
  ns_sim_options_clear(&opt);
  g_unlink(xml);
  g_unlink(list);
  g_rmdir(dir);
}

static int floor_only(const char *self, int argc, char **argv)
{
  g_autofree char *here = g_path_get_dirname(self);
  g_autofree char *program = g_build_filename(here, "simgrid_floor", NULL);
  if (!g_file_test(program, G_FILE_TEST_IS_EXECUTABLE)) {
    fprintf(stderr, "bench_sim: %s: not built\n", program);
    return 2;
  }
  printf("replay floor: faraj all-to-all, 64KiB, --sync none, 3-level trees; CPU seconds\n");
  printf("%8s %10s %10s %10s %7s %14s  %s\n", "machines", "transfers", "netsched",
         "bare", "ratio", "simulated_s", "bare SimGrid program");
  int defaults[] = { 256, 512 };
  int n = argc > 0 ? argc : 2;
  for (int i = 0; i < n; i++) {
    int machines = argc > 0 ? atoi(argv[i]) : defaults[i];
    if (machines < 16 || machines % 16 != 0) {
      fprintf(stderr, "bench_sim: %d: use a multiple of 16\n", machines);
      return 2;
    }
    versus_floor(program, machines);
  }
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--floor") == 0)
    return floor_only(argv[0], argc - 2, argv + 2);
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
  versus_smpirun(256);
  printf("\n");
  return floor_only(argv[0], 0, NULL);
}
