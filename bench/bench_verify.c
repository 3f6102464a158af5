/* netsched benchmark: the verifier beside its floors (issue "Close to the
 * floor").
 *
 * 1. Plan + verify in one process (ns_verify_planned: the planner's phases
 *    go straight into the verifier), faraj on a 3-level tree and shift on
 *    a 4-ary n-tree, beside
 *    - plan: the same planner streaming into a sink that does nothing;
 *    - walk floor: the planner streaming into a bare loop that marks every
 *      transfer's route once as the verifier's first try does
 *      (ns_route_table_mark: the route table of sched/ir/route.h, a byte
 *      per directed edge, a group of marks a phase) and nothing else.
 *    verify / walk is the gap to the floor (goal: 2x or less).
 * 2. With --file F (a schedule file, e.g. .jsonl.zst) and the netsched
 *    program: `netsched verify -q -T TOPOLOGY F` beside `zstd -d -c F |
 *    wc -l` (goal: 2x or less, under 100 MiB), and the reader alone (every
 *    phase read and checked, nothing verified: what the reading costs of
 *    the verify figure). --file-only prints these rows only.
 *
 * Each figure is a child process of its own: CPU seconds (user + sys,
 * from wait4: the machine may be shared, wall time is printed too but
 * means little there) and peak resident memory. Goals: faraj 16,384
 * machines under 5 s wall on 2 cores, shift on gen:fattree:4,7 under 6 s.
 * Figures are printed, never asserted. Build without sanitizers (Release).
 *
 * Each figure is the median of --runs N runs (default 3), run interleaved;
 * every goal is printed beside its figure, met or MISSED, and the load
 * average at the start in the heading.
 *
 * Usage: bench_verify [--small] [--runs N] [--only faraj|shift] [--netsched PATH]
 *                     [--file F --topology SPEC [--file-only]]
 *   --small: tree:8,16,32 and fattree:4,6 (4,096 machines) instead of
 *   tree:16,32,32 and fattree:4,7 (16,384).
 */
#include "platforms/gen/shapes.h"
#include "sched/io/schedule_stream.h"
#include "sched/ir/route.h"
#include "sched/ir/route_table_internal.h"
#include "sched/planners/registry.h"
#include "sched/verify/verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef enum { PLAN_ONLY, WALK, VERIFY } Mode;
static const char *const mode_names[] = { "plan", "walk floor", "plan+verify" };

/* The walk floor's sink: each transfer's route marked as the verifier's
 * first try marks it (ns_route_table_mark: read from the route table, a
 * byte per directed edge, a group of marks a phase), and nothing else. */
typedef struct {
  const NsTopology *topo;
  NsRouteTable *table;
  int *node, *route;
  NsEdgeMarks marks;
  uint64_t touches, hits;
} Walk;

static gboolean walk_begin(const NsSchedule *header, gpointer data, GError **error)
{
  Walk *w = data;
  w->node = ns_schedule_machine_nodes(w->topo, header, error);
  return w->node != NULL;
}

static gboolean walk_phase(const NsPhase *phase, gpointer data, GError **error)
{
  (void)error;
  Walk *w = data;
  ns_edge_marks_next_group(&w->marks);
  for (uint64_t i = 0; i < phase->n; i++) {
    const NsTransfer *tr = &phase->transfers[i];
    int len;
    w->hits += ns_route_table_mark(w->table, w->node[tr->src], w->node[tr->dst], &w->marks,
                                   w->route, &len) != 0;
    w->touches += (uint64_t)len;
  }
  return TRUE;
}

static gboolean nothing_begin(const NsSchedule *header, gpointer data, GError **error)
{
  (void)header, (void)data, (void)error;
  return TRUE;
}

static gboolean nothing_phase(const NsPhase *phase, gpointer data, GError **error)
{
  (void)error;
  *(uint64_t *)data += phase->n;
  return TRUE;
}

static double rusage_cpu(const struct rusage *ru)
{
  return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + (double)ru->ru_stime.tv_sec +
         ru->ru_stime.tv_usec / 1e6;
}

/* One figure, in this (child) process: exit 0, or 2 on error. */
static int one(const char *spec, const char *algorithm, Mode mode)
{
  GError *error = NULL;
  g_autoptr(NsTopology) t = ns_shape_from_spec(spec, &error);
  if (t == NULL) {
    fprintf(stderr, "bench_verify: %s\n", error->message);
    return 2;
  }
  NsPlanParams params = { .msize = 65536 };
  gboolean ok = FALSE;
  uint64_t transfers = 0;
  const char *verdict = "";
  if (mode == VERIFY) {
    NsVerifyReport r = { 0 };
    g_autoptr(NsVerifySession) vs =
        ns_verify_planned(t, NS_COLL_ALLTOALL, algorithm, &params, NULL, NULL, NULL, &r, &error);
    ok = vs != NULL;
    transfers = r.n_transfers;
    verdict = ok && ns_verify_passed(&r, 0) ? "PASS" : "FAILED";
    ns_verify_report_clear(&r);
    /* the calling thread's own CPU; the link thread's is the rest of the
     * process's (the larger of the two is the wall time on two free cores) */
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0)
      printf("# %s %s: calling thread %.2f s CPU\n", spec, algorithm, rusage_cpu(&ru));
  } else if (mode == WALK) {
    Walk w = { .topo = t, .table = ns_route_table_new(t) };
    w.route = g_new(int, ns_topology_max_route_len(t) + 1);
    ns_edge_marks_init(&w.marks, ns_topology_n_edges(t));
    NsPhaseSink sink = { .begin = walk_begin, .phase = walk_phase, .data = &w };
    g_autoptr(NsSchedule) tail = ns_plan_streamed(t, NS_COLL_ALLTOALL, algorithm, &params,
                                                  &sink, NULL, &transfers, &error);
    ok = tail != NULL;
    verdict = w.touches > 0 ? "walked" : "";
    if (ok)
      printf("# %s: %" G_GUINT64_FORMAT " link touches, %" G_GUINT64_FORMAT " routes crossing "
             "an edge marked in their phase\n", spec, w.touches, w.hits);
    ns_route_table_free(w.table);
    g_free(w.node);
    g_free(w.route);
    ns_edge_marks_clear(&w.marks);
  } else {
    uint64_t seen = 0;
    NsPhaseSink sink = { .begin = nothing_begin, .phase = nothing_phase, .data = &seen };
    g_autoptr(NsSchedule) tail = ns_plan_streamed(t, NS_COLL_ALLTOALL, algorithm, &params,
                                                  &sink, NULL, &transfers, &error);
    ok = tail != NULL;
  }
  if (!ok) {
    fprintf(stderr, "bench_verify: %s\n", error->message);
    return 2;
  }
  printf("# %s %s: %" G_GUINT64_FORMAT " transfers %s\n", spec, algorithm, transfers, verdict);
  return 0;
}

/* The reader alone over a file, in this (child) process, under the limits
 * netsched verify sets: exit 0, or 2 on error. */
static int read_file(const char *path, uint32_t machines)
{
  GError *error = NULL;
  g_autoptr(NsScheduleReader) r = ns_schedule_reader_open(path, &error);
  if (r != NULL) {
    NsScheduleLimits limits = { .need = TRUE, .max_machines = machines };
    ns_schedule_reader_set_limits(r, &limits);
  }
  NsPhase ph;
  int got = r != NULL ? 1 : -1;
  while (got > 0)
    got = ns_schedule_reader_next_phase(r, &ph, &error);
  g_autoptr(NsSchedule) tail = got == 0 ? ns_schedule_reader_finish(r, &error) : NULL;
  if (tail == NULL) {
    fprintf(stderr, "bench_verify: %s\n", error->message);
    return 2;
  }
  printf("# read: %u phases, %" G_GUINT64_FORMAT " transfers\n", ns_schedule_reader_n_phases(r),
         ns_schedule_reader_n_transfers(r));
  return 0;
}

typedef struct {
  double wall, cpu, peak_mib;
  int status;
} Figure;

static Figure wait_child(pid_t pid, gint64 t0)
{
  Figure f = { 0 };
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
    ;
  f.wall = (double)(g_get_monotonic_time() - t0) / 1e6;
  f.cpu = rusage_cpu(&ru);
  f.peak_mib = (double)ru.ru_maxrss / 1024.0;
  f.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return f;
}

/* Runs per figure (--runs): each figure printed is the median of its
 * runs' CPU, wall and peak, each taken on its own. */
static int runs = 3;

static int compare_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof(double), compare_double);
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median of runs[] figures; the worst status. */
static Figure median_figure(const Figure *f, int n)
{
  double cpu[n], wall[n], peak[n];
  Figure m = { 0 };
  for (int i = 0; i < n; i++) {
    cpu[i] = f[i].cpu;
    wall[i] = f[i].wall;
    peak[i] = f[i].peak_mib;
    m.status = MAX(m.status, f[i].status);
  }
  m.cpu = median(cpu, n);
  m.wall = median(wall, n);
  m.peak_mib = median(peak, n);
  return m;
}

static Figure in_child(const char *spec, const char *algorithm, Mode mode)
{
  fflush(stdout);
  gint64 t0 = g_get_monotonic_time();
  pid_t pid = fork();
  if (pid == 0) {
    int code = one(spec, algorithm, mode);
    fflush(NULL);
    _exit(code);
  }
  return wait_child(pid, t0);
}

/* read_file in a child process. */
static Figure read_in_child(const char *path, uint32_t machines)
{
  fflush(stdout);
  gint64 t0 = g_get_monotonic_time();
  pid_t pid = fork();
  if (pid == 0) {
    int code = read_file(path, machines);
    fflush(NULL);
    _exit(code);
  }
  return wait_child(pid, t0);
}

/* A command line with stdout and stderr to /dev/null (sh -c for a pipe). */
static Figure command(char *const argv[])
{
  fflush(stdout);
  gint64 t0 = g_get_monotonic_time();
  pid_t pid = fork();
  if (pid == 0) {
    FILE *null = fopen("/dev/null", "w");
    if (null != NULL) {
      dup2(fileno(null), STDOUT_FILENO);
      dup2(fileno(null), STDERR_FILENO);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  return wait_child(pid, t0);
}

/* A figure's goals (issue #24), 0 where it has none: wall seconds, a
 * factor of its floor (CPU and wall), peak MiB. */
typedef struct {
  double wall_s, floor_x, peak_mib;
} Goal;

static const char *met(gboolean ok) { return ok ? "met" : "MISSED"; }

/* One row: the figure, its ratios to its floor (CPU and wall), and each
 * goal beside it, met or missed. */
static void row(const char *what, const char *spec, const char *algorithm, const Figure *f,
                const Figure *floor, const Goal *goal)
{
  gboolean has_floor = floor != NULL && floor->cpu > 0 && floor->wall > 0;
  double cpu_x = has_floor ? f->cpu / floor->cpu : 0, wall_x = has_floor ? f->wall / floor->wall : 0;
  g_autofree char *cpu_ratio = has_floor ? g_strdup_printf("%.2fx", cpu_x) : g_strdup("-");
  g_autofree char *wall_ratio = has_floor ? g_strdup_printf("%.2fx", wall_x) : g_strdup("-");
  GString *goals = g_string_new("");
  if (goal != NULL && goal->wall_s > 0)
    g_string_append_printf(goals, " wall<%gs:%s", goal->wall_s, met(f->wall < goal->wall_s));
  if (goal != NULL && goal->floor_x > 0 && has_floor)
    g_string_append_printf(goals, " <=%gx floor:cpu %s,wall %s", goal->floor_x,
                           met(cpu_x <= goal->floor_x), met(wall_x <= goal->floor_x));
  if (goal != NULL && goal->peak_mib > 0)
    g_string_append_printf(goals, " <%gMiB:%s", goal->peak_mib, met(f->peak_mib < goal->peak_mib));
  printf("%-16s %-14s %-8s %9.2f %9.2f %9.0f %9s %9s  %-6s%s\n", what, spec, algorithm, f->cpu,
         f->wall, f->peak_mib, cpu_ratio, wall_ratio, f->status == 0 ? "ok" : "FAILED",
         goals->str);
  g_string_free(goals, TRUE);
}

/* Plan, walk floor and plan + verify, `runs` times interleaved (the
 * machine's load then weighs on each alike), medians printed. */
static int planned(const char *spec, const char *algorithm, double goal_wall)
{
  Figure all[3][runs], fig[3];
  for (int i = 0; i < runs; i++)
    for (int m = 0; m < 3; m++)
      all[m][i] = in_child(spec, algorithm, (Mode)m);
  for (int m = 0; m < 3; m++)
    fig[m] = median_figure(all[m], runs);
  Goal goal = { .wall_s = goal_wall, .floor_x = 2 };
  for (int m = 0; m < 3; m++)
    row(mode_names[m], spec, algorithm, &fig[m], m == VERIFY ? &fig[WALK] : NULL,
        m == VERIFY ? &goal : NULL);
  printf("%-16s %-14s %-8s %9.2f %9s %9s %9s %9s  (walk floor - plan: the routes alone)\n",
         "routes alone", spec, algorithm, fig[WALK].cpu - fig[PLAN_ONLY].cpu, "-", "-", "-", "-");
  return MAX(fig[VERIFY].status, fig[WALK].status);
}

int main(int argc, char **argv)
{
  g_autofree char *bin_dir = g_path_get_dirname(argv[0]);
  g_autofree char *netsched = g_build_filename(bin_dir, "..", "netsched", NULL);
  const char *file = NULL, *topology = NULL, *only = NULL;
  gboolean small = FALSE, file_only = FALSE;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--netsched") == 0 && i + 1 < argc) {
      g_free(netsched);
      netsched = g_strdup(argv[++i]);
    } else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc)
      file = argv[++i];
    else if (strcmp(argv[i], "--topology") == 0 && i + 1 < argc)
      topology = argv[++i];
    else if (strcmp(argv[i], "--small") == 0)
      small = TRUE;
    else if (strcmp(argv[i], "--file-only") == 0)
      file_only = TRUE;
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc &&
             (strcmp(argv[i + 1], "faraj") == 0 || strcmp(argv[i + 1], "shift") == 0))
      only = argv[++i];
    else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1 &&
             atoi(argv[i + 1]) <= 99)
      runs = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--small] [--runs N] [--only faraj|shift] [--netsched PATH] "
              "[--file F --topology SPEC [--file-only]]\n", argv[0]);
      return 2;
    }
  }
  double load[3] = { -1, -1, -1 };
  if (getloadavg(load, 3) != 3)
    load[0] = load[1] = load[2] = -1;
  printf("CPU seconds (user + sys) of each step in a process of its own, medians of %d runs; "
         "wall seconds on a shared machine mean little (load average %.2f %.2f %.2f)\n",
         runs, load[0], load[1], load[2]);
  printf("%-16s %-14s %-8s %9s %9s %9s %9s %9s  %-6s%s\n", "step", "topology", "algo", "cpu_s",
         "wall_s", "peak_MiB", "cpu/floor", "wall/flr", "status", " goals");
  int worst = 0;
  if (!file_only || file == NULL) {
    if (only == NULL || strcmp(only, "faraj") == 0)
      worst = planned(small ? "tree:8,16,32" : "tree:16,32,32", "faraj", small ? 0 : 5);
    if (only == NULL || strcmp(only, "shift") == 0) {
      int shift = planned(small ? "fattree:4,6" : "fattree:4,7", "shift", small ? 0 : 6);
      worst = MAX(worst, shift); /* not inside MAX(): evaluated twice */
    }
  }
  if (file != NULL) {
    g_autofree char *topo = g_strdup_printf("gen:%s", topology != NULL ? topology
                                                      : small ? "tree:8,16,32"
                                                              : "tree:16,32,32");
    g_autofree char *quoted = g_shell_quote(file);
    g_autofree char *pipe = g_strdup_printf("zstd -d -c %s | wc -l", quoted);
    char *floor_argv[] = { "sh", "-c", pipe, NULL };
    char *verify_argv[] = { netsched, "verify", "-q", "-T", topo, (char *)file, NULL };
    g_autoptr(NsTopology) t = ns_shape_from_spec(topo + 4, NULL);
    Figure all[3][runs];
    for (int i = 0; i < runs; i++) { /* interleaved */
      all[0][i] = command(floor_argv);
      all[1][i] = command(verify_argv);
      all[2][i] = read_in_child(file, t != NULL ? (uint32_t)ns_topology_n_machines(t) : 0);
    }
    Figure floor = median_figure(all[0], runs), v = median_figure(all[1], runs),
           rd = median_figure(all[2], runs);
    Goal goal = { .floor_x = 2, .peak_mib = 100 };
    row("zstd -d | wc -l", "(file)", "-", &floor, NULL, NULL);
    row("verify FILE", "(file)", "-", &v, &floor, &goal);
    row("read FILE", "(file)", "-", &rd, &floor, NULL);
    worst = MAX(worst, MAX(v.status, rd.status));
  }
  return worst;
}
