/* netsched benchmark: schedule files at scale.
 *
 * 1. The file round trip a CI check makes: `netsched plan -o FILE` then
 *    `netsched verify FILE`, each a process of its own, for alltoall/faraj
 *    on 3-level trees, in JSON, JSON Lines and zstd-compressed JSON Lines.
 *    Prints each step's wall time and peak resident memory (the child's
 *    ru_maxrss from wait4(), the figure /usr/bin/time -v prints as "Maximum
 *    resident set size") and the file's size.
 * 2. Plan + verify in one process: faraj on a 3-level tree and shift on a
 *    fat tree, streamed (ns_verify_planned: the phases go from the planner
 *    straight into the verifier, the schedule is never held whole) and,
 *    with --whole, also planned whole then verified (ns_plan, ns_verify).
 *
 * Usage: bench_schedule_io [--dir DIR] [--netsched PATH] [--skip-files]
 *                          [--skip-memory] [--whole] [MACHINES...]
 *   MACHINES: 1024, 4096 or 16384 (default 1024 4096); DIR holds the files
 *   (default $TMPDIR or /tmp; 16384 machines need about 7 GB for JSON);
 *   PATH is the netsched program (default: ../netsched beside this one).
 * Goals (issue "Scale"): round trip at 4096 under 5 s and 1 GB, at 16384
 * under 60 s and 4 GB; one process at 16384 under 20 s and 6 GB. Figures
 * are printed, never asserted. Build without sanitizers (Release).
 */
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The 3-level tree of each size: root -> F1 switches -> F2 switches -> F3
 * machines each. */
static const char *tree_for(int machines)
{
  switch (machines) {
  case 1024: return "tree:4,8,32";
  case 4096: return "tree:8,16,32";
  case 16384: return "tree:16,32,32";
  default: return NULL;
  }
}

/* The fat tree of each size (4-ary n-trees: 4^n machines). */
static const char *fattree_for(int machines)
{
  switch (machines) {
  case 1024: return "fattree:4,5";
  case 4096: return "fattree:4,6";
  case 16384: return "fattree:4,7";
  default: return NULL;
  }
}

/* Runs argv[] with stdout and stderr to /dev/null; wall seconds, peak RSS
 * in MiB and exit status. */
static int run(char *const argv[], double *seconds, double *peak_mib)
{
  gint64 t0 = g_get_monotonic_time();
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    FILE *null = fopen("/dev/null", "w");
    if (null != NULL) {
      dup2(fileno(null), STDOUT_FILENO);
      dup2(fileno(null), STDERR_FILENO);
    }
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
    ;
  *seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
  *peak_mib = (double)ru.ru_maxrss / 1024.0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void round_trip(const char *netsched, const char *dir, int machines, const char *format)
{
  const char *shape = tree_for(machines);
  g_autofree char *topo = g_strdup_printf("gen:%s", shape);
  g_autofree char *file = g_strdup_printf("%s/bench-%d.%s", dir, machines, format);
  char *plan[] = { (char *)netsched, "plan", "-T", topo, "-a", "faraj", "-o", file, NULL };
  char *verify[] = { (char *)netsched, "verify", "-q", "-T", topo, file, NULL };
  double ps = 0, pm = 0, vs = 0, vm = 0;
  int p = run(plan, &ps, &pm);
  struct stat st;
  double mb = stat(file, &st) == 0 ? (double)st.st_size / 1e6 : 0;
  int v = p == 0 ? run(verify, &vs, &vm) : -1;
  unlink(file);
  printf("%8d  %-14s %-9s %10.0f %9.2f %9.0f %9.2f %9.0f %9.2f  %s\n", machines, shape, format,
         mb, ps, pm, vs, vm, ps + vs,
         p != 0 ? "plan FAILED" : v == 0 ? "PASS" : v == 1 ? "check failed" : "verify FAILED");
  fflush(stdout);
}

/* Plan and verify in this process (run in a child, for its own peak):
 * `streamed`, the planner's phases go straight into the verifier
 * (ns_verify_planned); else the schedule is planned whole, then verified. */
static int one_process(const char *spec, const char *algorithm, gboolean streamed)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(spec, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_schedule_io: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = 65536 };
  gint64 t0 = g_get_monotonic_time(), t1;
  NsVerifyReport r = { 0 };
  gboolean ok;
  if (streamed) {
    g_autoptr(NsVerifySession) vs =
        ns_verify_planned(t, NS_COLL_ALLTOALL, algorithm, &params, NULL, NULL, NULL, &r, &error);
    ok = vs != NULL;
    t1 = t0; /* planning and verifying interleave */
  } else {
    g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, algorithm, &params, &error);
    t1 = g_get_monotonic_time();
    ok = s != NULL && ns_verify(t, s, NULL, &r, &error);
  }
  gint64 t2 = g_get_monotonic_time();
  if (!ok) {
    fprintf(stderr, "bench_schedule_io: %s\n", error->message);
    return 2;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double plan_s = (double)(t1 - t0) / 1e6, verify_s = (double)(t2 - t1) / 1e6;
  g_autofree char *plan = streamed ? g_strdup("-") : g_strdup_printf("%.2f", plan_s);
  g_autofree char *verify = streamed ? g_strdup("-") : g_strdup_printf("%.2f", verify_s);
  printf("%8d  %-14s %-8s %-8s %12" G_GUINT64_FORMAT " %9s %9s %9.2f %9.0f  %s\n",
         ns_topology_n_machines(t), spec, algorithm, streamed ? "streamed" : "whole",
         r.n_transfers, plan, verify, plan_s + verify_s, (double)ru.ru_maxrss / 1024.0,
         ns_verify_passed(&r, 0) ? "PASS" : "FAILED");
  int status = ns_verify_passed(&r, 0) ? 0 : 1;
  ns_verify_report_clear(&r);
  return status;
}

static int in_child(const char *spec, const char *algorithm, gboolean streamed)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int code = one_process(spec, algorithm, streamed);
    fflush(NULL);
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int main(int argc, char **argv)
{
  const char *dir = g_getenv("TMPDIR") != NULL ? g_getenv("TMPDIR") : "/tmp";
  g_autofree char *bin_dir = g_path_get_dirname(argv[0]);
  g_autofree char *netsched = g_build_filename(bin_dir, "..", "netsched", NULL);
  gboolean files = TRUE, memory = TRUE, whole = FALSE;
  int sizes[8], n = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else if (strcmp(argv[i], "--netsched") == 0 && i + 1 < argc) {
      g_free(netsched);
      netsched = g_strdup(argv[++i]);
    } else if (strcmp(argv[i], "--skip-files") == 0)
      files = FALSE;
    else if (strcmp(argv[i], "--skip-memory") == 0)
      memory = FALSE;
    else if (strcmp(argv[i], "--whole") == 0)
      whole = TRUE;
    else if (n < (int)G_N_ELEMENTS(sizes) && tree_for(atoi(argv[i])) != NULL)
      sizes[n++] = atoi(argv[i]);
    else {
      fprintf(stderr, "usage: %s [--dir DIR] [--netsched PATH] [--skip-files] [--skip-memory] "
                      "[--whole] [1024|4096|16384...]\n", argv[0]);
      return 2;
    }
  }
  if (n == 0) {
    sizes[n++] = 1024;
    sizes[n++] = 4096;
  }
  int worst = 0;
  if (files) {
    if (access(netsched, X_OK) != 0) {
      fprintf(stderr, "bench_schedule_io: no netsched at %s (--netsched PATH)\n", netsched);
      return 2;
    }
    printf("file round trip: netsched plan -o FILE, then netsched verify FILE "
           "(alltoall/faraj, 64KiB)\n");
    printf("%8s  %-14s %-9s %10s %9s %9s %9s %9s %9s  %s\n", "machines", "topology", "format",
           "file_MB", "plan_s", "plan_MiB", "verify_s", "verif_MiB", "total_s", "verdict");
    for (int i = 0; i < n; i++) {
      round_trip(netsched, dir, sizes[i], "json");
      round_trip(netsched, dir, sizes[i], "jsonl");
      round_trip(netsched, dir, sizes[i], "jsonl.zst");
    }
  }
  if (memory) {
    printf("\nplan + verify in one process (streamed: planned into the verifier; whole: "
           "ns_plan, then ns_verify)\n");
    printf("%8s  %-14s %-8s %-8s %12s %9s %9s %9s %9s  %s\n", "machines", "topology",
           "algorithm", "schedule", "transfers", "plan_s", "verify_s", "total_s", "peak_MiB",
           "verdict");
    for (int i = 0; i < n; i++)
      for (int streamed = 1; streamed >= (whole ? 0 : 1); streamed--) {
        int a = in_child(tree_for(sizes[i]), "faraj", streamed); /* not inside MAX() */
        int b = in_child(fattree_for(sizes[i]), "shift", streamed);
        worst = MAX(worst, MAX(a, b));
      }
  }
  return worst;
}
