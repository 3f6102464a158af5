/* netsched benchmark: the verifier beside its floors (issue "Close to the
 * floor").
 *
 * 1. Plan + verify in one process (ns_verify_planned: the planner's phases
 *    go straight into the verifier), faraj on a 3-level tree and shift on
 *    a 4-ary n-tree, beside
 *    - plan: the same planner streaming into a sink that does nothing;
 *    - walk floor: the planner streaming into a bare loop that walks every
 *      transfer's route once over the same arrays the verifier uses (the
 *      route table of sched/ir/route.h, a byte per directed edge) and
 *      nothing else.
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
 * Usage: bench_verify [--small] [--netsched PATH] [--file F --topology SPEC [--file-only]]
 *   --small: tree:8,16,32 and fattree:4,6 (4,096 machines) instead of
 *   tree:16,32,32 and fattree:4,7 (16,384).
 */
#include "platforms/gen/shapes.h"
#include "sched/io/schedule_stream.h"
#include "sched/ir/route.h"
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

/* The walk floor's sink: each transfer's route from the table, each edge
 * touched once (a byte per directed edge, as the verifier's marks). */
typedef struct {
  const NsTopology *topo;
  NsRouteTable *table;
  int *node, *route;
  uint8_t *mark;
  uint64_t touches;
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
  for (uint64_t i = 0; i < phase->n; i++) {
    const NsTransfer *tr = &phase->transfers[i];
    int len = ns_route_table_route(w->table, w->node[tr->src], w->node[tr->dst], w->route);
    for (int k = 0; k < len; k++)
      w->mark[w->route[k]]++;
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
  } else if (mode == WALK) {
    Walk w = { .topo = t, .table = ns_route_table_new(t) };
    w.route = g_new(int, ns_topology_max_route_len(t) + 1);
    w.mark = g_new0(uint8_t, ns_topology_n_edges(t) + 1);
    NsPhaseSink sink = { .begin = walk_begin, .phase = walk_phase, .data = &w };
    g_autoptr(NsSchedule) tail = ns_plan_streamed(t, NS_COLL_ALLTOALL, algorithm, &params,
                                                  &sink, NULL, &transfers, &error);
    ok = tail != NULL;
    verdict = w.touches > 0 ? "walked" : "";
    if (ok)
      printf("# %s: %" G_GUINT64_FORMAT " link touches\n", spec, w.touches);
    ns_route_table_free(w.table);
    g_free(w.node);
    g_free(w.route);
    g_free(w.mark);
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
  f.cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
          ru.ru_stime.tv_usec / 1e6;
  f.peak_mib = (double)ru.ru_maxrss / 1024.0;
  f.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return f;
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

static void row(const char *what, const char *spec, const char *algorithm, const Figure *f,
                const Figure *floor)
{
  g_autofree char *ratio = floor != NULL && floor->cpu > 0
                               ? g_strdup_printf("%.2fx", f->cpu / floor->cpu)
                               : g_strdup("-");
  printf("%-16s %-14s %-8s %9.2f %9.2f %9.0f %9s  %s\n", what, spec, algorithm, f->cpu, f->wall,
         f->peak_mib, ratio, f->status == 0 ? "ok" : "FAILED");
}

static int planned(const char *spec, const char *algorithm)
{
  Figure fig[3];
  for (int m = 0; m < 3; m++)
    fig[m] = in_child(spec, algorithm, (Mode)m);
  for (int m = 0; m < 3; m++)
    row(mode_names[m], spec, algorithm, &fig[m], m == VERIFY ? &fig[WALK] : NULL);
  printf("%-16s %-14s %-8s %9.2f %9s %9s %9s  (walk floor - plan: the routes alone)\n",
         "routes alone", spec, algorithm, fig[WALK].cpu - fig[PLAN_ONLY].cpu, "-", "-", "-");
  return MAX(fig[VERIFY].status, fig[WALK].status);
}

int main(int argc, char **argv)
{
  g_autofree char *bin_dir = g_path_get_dirname(argv[0]);
  g_autofree char *netsched = g_build_filename(bin_dir, "..", "netsched", NULL);
  const char *file = NULL, *topology = NULL;
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
    else {
      fprintf(stderr, "usage: %s [--small] [--netsched PATH] [--file F --topology SPEC "
              "[--file-only]]\n", argv[0]);
      return 2;
    }
  }
  printf("CPU seconds (user + sys) of each step in a process of its own; wall seconds on a "
         "shared machine mean little\n");
  printf("%-16s %-14s %-8s %9s %9s %9s %9s  %s\n", "step", "topology", "algo", "cpu_s",
         "wall_s", "peak_MiB", "vs_floor", "status");
  int worst = 0;
  if (!file_only || file == NULL) {
    worst = planned(small ? "tree:8,16,32" : "tree:16,32,32", "faraj");
    int shift = planned(small ? "fattree:4,6" : "fattree:4,7", "shift"); /* not inside MAX() */
    worst = MAX(worst, shift);
  }
  if (file != NULL) {
    g_autofree char *topo = g_strdup_printf("gen:%s", topology != NULL ? topology
                                                      : small ? "tree:8,16,32"
                                                              : "tree:16,32,32");
    g_autofree char *quoted = g_shell_quote(file);
    g_autofree char *pipe = g_strdup_printf("zstd -d -c %s | wc -l", quoted);
    char *floor_argv[] = { "sh", "-c", pipe, NULL };
    char *verify_argv[] = { netsched, "verify", "-q", "-T", topo, (char *)file, NULL };
    Figure floor = command(floor_argv);
    Figure v = command(verify_argv);
    g_autoptr(NsTopology) t = ns_shape_from_spec(topo + 4, NULL);
    Figure rd = read_in_child(file, t != NULL ? (uint32_t)ns_topology_n_machines(t) : 0);
    row("zstd -d | wc -l", "(file)", "-", &floor, NULL);
    row("verify FILE", "(file)", "-", &v, &floor);
    row("read FILE", "(file)", "-", &rd, &floor);
    worst = MAX(worst, MAX(v.status, rd.status));
  }
  return worst;
}
