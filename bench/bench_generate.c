/* netsched benchmark: the routine generator (issue #20 §1; docs/generate.md).
 *
 * For alltoall/faraj on switch trees of 64, 1024 and 4096 machines
 * (gen:tree:4,16, gen:tree:4,16,16, gen:tree:16,16,16) with its sender-all
 * syncs: the time to plan, to lower and write the routine table
 * (ns_routine_build: verification, sync edges, lowering, table), to write
 * the C form, the table and C sizes, and the time `MPICC -O2 -c` takes
 * over the C file (MPICC from the environment, default mpicc; skipped when
 * it is not found). Each size runs in its own child process, so the peak
 * memory printed is that size's alone. Figures are printed, never
 * asserted. Build without sanitizers for meaningful figures.
 *
 * Usage: bench_generate [SPEC...]   (default: the three trees above)
 */
#include "bench/bench_cpu_internal.h"
#include "bench/bench_each_internal.h"
#include "platforms/gen/shapes.h"
#include "sched/lower/routine_internal.h"
#include "sched/planners/registry.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* CPU seconds of this process since `t0` (the machine may be shared). */
static double seconds_since(double t0)
{
  return bench_cpu_seconds() - t0;
}

static double now(void)
{
  return seconds_since(0);
}

/* `mpicc -O2 -c FILE -o FILE.o`: wall seconds, or -1 when it failed. */
static double compile(const char *c_file)
{
  const char *cc = g_getenv("MPICC") != NULL ? g_getenv("MPICC") : "mpicc";
  g_autofree char *path = g_find_program_in_path(cc);
  if (path == NULL)
    return -1;
  g_autofree char *object = g_strconcat(c_file, ".o", NULL);
  char *argv[] = { path, (char *)"-O2", (char *)"-c", (char *)c_file, (char *)"-o", object, NULL };
  struct rusage before, after;
  getrusage(RUSAGE_CHILDREN, &before);
  int status = 0;
  if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                    &status, NULL) ||
      !g_spawn_check_wait_status(status, NULL))
    return -1;
  getrusage(RUSAGE_CHILDREN, &after);
  g_unlink(object);
  return bench_rusage_seconds(&after) - bench_rusage_seconds(&before);
}

static int run_one(const char *spec)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t =
      ns_shape_from_spec(g_str_has_prefix(spec, "gen:") ? spec + 4 : spec, &error);
  NsPlanParams params = { .msize = 65536 };
  double t0 = now();
  g_autoptr(NsSchedule) s =
      t != NULL ? ns_plan(t, NS_COLL_ALLTOALL, "faraj", &params, &error) : NULL;
  double plan_s = seconds_since(t0);
  NsRoutineOptions ro;
  ns_routine_options_init(&ro);
  t0 = now();
  g_autoptr(NsRoutine) r = s != NULL ? ns_routine_build(t, s, &ro, &error) : NULL;
  double table_s = seconds_since(t0);
  if (r == NULL) {
    fprintf(stderr, "bench_generate: %s: %s\n", spec, error->message);
    return 2;
  }
  t0 = now();
  g_autofree char *c = ns_routine_c_source(r, "faraj", "bench_generate");
  double c_s = seconds_since(t0);
  g_autofree char *dir = g_dir_make_tmp("bench-generate-XXXXXX", NULL);
  g_autofree char *file = g_build_filename(dir, "faraj.c", NULL);
  /* A 4096-machine C file is about 1 GiB, which no compiler takes in
   * seconds (docs/generate.md: use the table there); compiled up to
   * NETSCHED_BENCH_MAX_C_MIB (default 128). */
  const char *max_env = g_getenv("NETSCHED_BENCH_MAX_C_MIB");
  double max_mib = max_env != NULL ? g_ascii_strtod(max_env, NULL) : 128;
  gboolean too_big = (double)strlen(c) / 1048576.0 > max_mib;
  double compile_s = !too_big && g_file_set_contents(file, c, -1, NULL) ? compile(file) : -1;
  g_unlink(file);
  g_rmdir(dir);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  char compiled[32] = "-";
  if (too_big)
    g_strlcpy(compiled, "too big", sizeof compiled);
  if (compile_s >= 0)
    g_snprintf(compiled, sizeof compiled, "%.2f", compile_s);
  printf("%8d  %-18s %12" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %8.3f %8.3f %8.3f %10.1f "
         "%10.1f %9s %9.1f\n",
         s->n_machines, spec, ns_schedule_n_transfers(s), (uint64_t)r->schedule->sync->len,
         plan_s, table_s, c_s, (double)r->table->len / 1048576.0, (double)strlen(c) / 1048576.0,
         compiled,
         (double)ru.ru_maxrss / 1024.0);
  return 0;
}

int main(int argc, char **argv)
{
  const char *defaults[] = { "gen:tree:4,16", "gen:tree:4,16,16", "gen:tree:16,16,16" };
  int n = argc > 1 ? argc - 1 : (int)G_N_ELEMENTS(defaults);
  printf("alltoall/faraj, sync sender-all: plan, routine table (verify + lower + write), C form, "
         "mpicc -O2 -c\n");
  printf("%8s  %-18s %12s %10s %8s %8s %8s %10s %10s %9s %9s\n", "machines", "topology",
         "transfers", "syncs", "plan_s", "table_s", "c_s", "table_MiB", "c_MiB", "compile_s",
         "peak_MiB");
  return bench_each_in_process(n, argc > 1 ? (const char *const *)argv + 1 : defaults, run_one);
}
