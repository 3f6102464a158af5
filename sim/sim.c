/* netsched — simulation driver: options, models, the child process, results.
 * See sim.h. */
#include "sim/sim.h"
#include "analysis/bounds_collective.h"
#include "platforms/error.h"
#include "platforms/topology_simgrid.h"
#include "sched/verify.h"
#include "sim/program.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const model_names[] = {
  [NS_MODEL_IDEAL] = "ideal", [NS_MODEL_TCP] = "tcp", [NS_MODEL_SMPI] = "smpi",
  [NS_MODEL_PACKET] = "packet",
};

gboolean ns_net_model_parse(const char *name, NsNetModel *model, GError **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS(model_names); i++)
    if (g_strcmp0(name, model_names[i]) == 0) {
      *model = (NsNetModel)i;
      return TRUE;
    }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "unknown network model '%s' (ideal, tcp, smpi, packet)", name);
  return FALSE;
}

const char *ns_net_model_name(NsNetModel model) { return model_names[model]; }

void ns_sim_options_init(NsSimOptions *opt)
{
  memset(opt, 0, sizeof *opt);
  opt->model = NS_MODEL_IDEAL;
  opt->sync.kind = NS_SYNC_NONE;
  opt->sync_size = 8;
  opt->queue_packets = 100;
  opt->segment_size = 1000;
  opt->cfg = g_ptr_array_new_with_free_func(g_free);
  opt->ns3 = g_ptr_array_new_with_free_func(g_free);
}

void ns_sim_options_clear(NsSimOptions *opt)
{
  g_free(opt->tcp_variant);
  g_free(opt->trace);
  if (opt->cfg != NULL)
    g_ptr_array_unref(opt->cfg);
  if (opt->ns3 != NULL)
    g_ptr_array_unref(opt->ns3);
  memset(opt, 0, sizeof *opt);
}

char *ns_sim_options_describe(const NsSimOptions *opt)
{
  GString *d = g_string_new(NULL);
  g_string_append_printf(d, "model=%s;msize=%" G_GUINT64_FORMAT ";sync-size=%" G_GUINT64_FORMAT
                         ";hardware-barrier=%d", ns_net_model_name(opt->model), opt->msize,
                         opt->sync_size, opt->hardware_barrier);
  if (opt->model == NS_MODEL_PACKET)
    g_string_append_printf(d, ";queue=%d;tcp=%s;segment-size=%d", opt->queue_packets,
                           opt->tcp_variant ? opt->tcp_variant : "Cubic", opt->segment_size);
  for (guint i = 0; opt->ns3 != NULL && i < opt->ns3->len; i++)
    g_string_append_printf(d, ";ns3:%s", (char *)g_ptr_array_index(opt->ns3, i));
  for (guint i = 0; opt->cfg != NULL && i < opt->cfg->len; i++)
    g_string_append_printf(d, ";cfg:%s", (char *)g_ptr_array_index(opt->cfg, i));
  return g_string_free(d, FALSE);
}

void ns_sim_result_clear(NsSimResult *r)
{
  g_free(r->finish);
  g_free(r->start);
  g_free(r->end);
  memset(r, 0, sizeof *r);
}

/* ---- the child process ------------------------------------------------------ */

/* SimGrid options for the model; NS_ATTRIBUTE_DEFAULT for ns-3 in *env. */
static void model_args(const NsSimOptions *opt, uint64_t msize, GPtrArray *argv, char **env)
{
  *env = NULL;
  switch (opt->model) {
  case NS_MODEL_IDEAL:
    g_ptr_array_add(argv, g_strdup("--cfg=network/bandwidth-factor:1"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/latency-factor:1"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/weight-S:0"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/crosstraffic:0"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/TCP-gamma:0"));
    break;
  case NS_MODEL_TCP:
    break; /* SimGrid's default LV08 */
  case NS_MODEL_SMPI:
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:SMPI"));
    break;
  case NS_MODEL_PACKET: {
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:ns-3"));
    /* SimGrid's option knows NewReno (and Reno/Tahoe, which abort in 3.32);
     * leaving it unset keeps ns-3's own default, Cubic. */
    if (opt->tcp_variant != NULL && g_strcmp0(opt->tcp_variant, "Cubic") != 0)
      g_ptr_array_add(argv, g_strdup_printf("--cfg=ns3/TcpModel:%s", opt->tcp_variant));
    /* SimGrid hands a whole message to the TCP socket at once and aborts
     * when it does not fit the send buffer (128 KiB by default): size it
     * for the message. The receive buffer (TCP's window) keeps ns-3's
     * default. */
    uint64_t buf = MAX((uint64_t)131072, msize + 65536);
    GString *attrs = g_string_new(NULL);
    g_string_printf(attrs,
                    "ns3::TcpSocket::SndBufSize=%" G_GUINT64_FORMAT
                    ";ns3::TcpSocket::SegmentSize=%d;ns3::DropTailQueue<Packet>::MaxSize=%dp",
                    buf, opt->segment_size, opt->queue_packets);
    for (guint i = 0; opt->ns3 != NULL && i < opt->ns3->len; i++)
      g_string_append_printf(attrs, ";%s", (char *)g_ptr_array_index(opt->ns3, i));
    *env = g_string_free(attrs, FALSE);
    break;
  }
  }
#if defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer does not follow SimGrid's own stack switching. */
  g_ptr_array_add(argv, g_strdup("--cfg=contexts/factory:thread"));
#endif
  g_ptr_array_add(argv, g_strdup("--log=root.thres:warning"));
  if (opt->trace != NULL) {
    g_ptr_array_add(argv, g_strdup("--cfg=tracing:yes"));
    g_ptr_array_add(argv, g_strdup("--cfg=tracing/platform:yes"));
    g_ptr_array_add(argv, g_strdup("--cfg=tracing/uncategorized:yes"));
    g_ptr_array_add(argv, g_strdup_printf("--cfg=tracing/filename:%s", opt->trace));
  }
  for (guint i = 0; opt->cfg != NULL && i < opt->cfg->len; i++)
    g_ptr_array_add(argv, g_strdup_printf("--cfg=%s", (char *)g_ptr_array_index(opt->cfg, i)));
}

/* ---- the child's life ----------------------------------------------------
 * While a simulation runs, SIGINT, SIGTERM and SIGHUP only set a flag: the
 * waiting loop then kills the child, reaps it, and ns_simulate() restores
 * the caller's handlers and raises the signal again once everything it
 * made is gone, so an interrupted run leaves no process and no file behind.
 * The child dies with its parent (PR_SET_DEATHSIG) and never dumps core
 * (netsched-replay disables it). */

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

typedef struct {
  struct sigaction old[G_N_ELEMENTS(stop_signals)];
} SignalGuard;

static void signals_catch(SignalGuard *g)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  stop_signal = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &sa, &g->old[i]);
}

/* Restores the caller's handlers; re-raises a signal that arrived. */
static void signals_release(SignalGuard *g)
{
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &g->old[i], NULL);
  if (stop_signal != 0)
    raise(stop_signal);
}

/* Waits for the child; kills it after `limit` seconds of wall time or when
 * a stop signal arrived. With `progress`, redraws "simulate: 340/992
 * messages, 1.2 s simulated, 12 s" on stderr twice a second from what the
 * child publishes. */
static int wait_child(pid_t pid, double limit, const Program *prog, gboolean progress,
                      gboolean *timed_out)
{
  gint64 start = g_get_monotonic_time();
  gint64 deadline = limit > 0 ? start + (gint64)(limit * 1e6) : 0;
  gint64 next_draw = start + 500000;
  gboolean drawn = FALSE;
  int status = 0;
  *timed_out = FALSE;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR))
      break;
    gint64 now = g_get_monotonic_time();
    if (stop_signal != 0 || (deadline && now > deadline)) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      *timed_out = stop_signal == 0;
      break;
    }
    if (progress && now >= next_draw) {
      fprintf(stderr, "\rsimulate: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                      " messages, %.3f s simulated, %.0f s   ",
              prog->header->transfers_done, prog->n_all, prog->header->clock,
              (double)(now - start) / 1e6);
      fflush(stderr);
      drawn = TRUE;
      next_draw = now + 500000;
    }
    g_usleep(10000);
  }
  if (drawn)
    fprintf(stderr, "\r%*s\r", 72, "");
  return status;
}

/* The replay executable: $NETSCHED_REPLAY, else next to this program,
 * else where the build put it. */
static char *replay_path(void)
{
  const char *env = g_getenv("NETSCHED_REPLAY");
  if (env != NULL && *env != '\0')
    return g_strdup(env);
  g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
  if (self != NULL) {
    g_autofree char *dir = g_path_get_dirname(self);
    char *beside = g_build_filename(dir, "netsched-replay", NULL);
    if (g_file_test(beside, G_FILE_TEST_IS_EXECUTABLE))
      return beside;
    g_free(beside);
  }
  return g_strdup(NETSCHED_REPLAY_PATH);
}

static gboolean run_child(Program *prog, int platform_fd, const NsSimOptions *opt,
                          uint64_t msize, GError **error)
{
  g_autofree char *exe = replay_path();
  int program_fd = ns_program_to_fd(prog);
  if (program_fd < 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot hand the program to the replay: %s",
                    g_strerror(errno));
    return FALSE;
  }
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(argv, g_strdup(exe));
  g_ptr_array_add(argv, g_strdup_printf("%d", program_fd));
  g_ptr_array_add(argv, g_strdup_printf("%d", prog->results_fd));
  g_ptr_array_add(argv, g_strdup_printf("/proc/self/fd/%d", platform_fd));
  char *ns3 = NULL;
  model_args(opt, msize, argv, &ns3);
  g_ptr_array_add(argv, NULL);
  char **envp = g_get_environ();
  envp = ns3 != NULL ? g_environ_setenv(envp, "NS_ATTRIBUTE_DEFAULT", ns3, TRUE)
                     : g_environ_unsetenv(envp, "NS_ATTRIBUTE_DEFAULT");
  g_free(ns3);
  fflush(NULL);
  if (stop_signal != 0) { /* interrupted while the program was built */
    g_strfreev(envp);
    close(program_fd);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation interrupted by %s",
                    g_strsignal(stop_signal));
    return FALSE;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    /* Die with the parent, even if it is killed outright. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
      _exit(127);
    execve(exe, (char **)argv->pdata, envp);
    g_snprintf(prog->header->error, sizeof prog->header->error, "cannot run %s: %s", exe,
               g_strerror(errno));
    _exit(127);
  }
  g_strfreev(envp);
  close(program_fd);
  if (pid < 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot fork the simulation: %s",
                    g_strerror(errno));
    return FALSE;
  }
  gboolean timed_out;
  int status = wait_child(pid, opt->wall_limit, prog, opt->progress, &timed_out);
  if (timed_out) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "simulation stopped after the wall-time limit of %.0f s", opt->wall_limit);
    return FALSE;
  }
  if (stop_signal != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation interrupted by %s",
                    g_strsignal(stop_signal));
    return FALSE;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && prog->header->done)
    return TRUE;
  const char *hint = opt->model == NS_MODEL_PACKET
                         ? " (ns-3 is known to crash under heavy packet loss with small switch "
                           "queues: try a larger --queue, NewReno (--tcp NewReno) or a smaller "
                           "message)"
                         : "";
  if (prog->header->error[0] != '\0')
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation failed: %s", prog->header->error);
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "simulation aborted (SimGrid's message above says why)%s", hint);
  else if (WIFSIGNALED(status))
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation died of signal %d (%s)%s",
                    WTERMSIG(status), g_strsignal(WTERMSIG(status)), hint);
  else
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "simulation ended with status %d before completing%s (SimGrid's messages "
                    "above say why)",
                    WIFEXITED(status) ? WEXITSTATUS(status) : -1, hint);
  return FALSE;
}

/* The checks a replay needs to mean anything: what is sent is held, what
 * is required arrives, and nothing waits in a cycle. Contention and the
 * port model are what simulations measure, not preconditions. FALSE with
 * the first failing finding in `why`, or an input error. */
static gboolean replayable(const NsTopology *topo, const NsSchedule *s, gboolean *ok, char *why,
                           gsize why_size, GError **error)
{
  NsVerifyOptions vo;
  ns_verify_options_init(&vo);
  vo.port = NS_PORT_ALL;
  vo.max_findings = 1;
  vo.sync_order = FALSE;
  NsVerifyReport r = { 0 };
  if (!ns_verify(topo, s, &vo, &r, error)) {
    ns_verify_report_clear(&r);
    return FALSE;
  }
  *ok = TRUE;
  const NsCheck needed[] = { NS_CHECK_DATAFLOW, NS_CHECK_COMPLETE, NS_CHECK_SYNC };
  for (gsize i = 0; i < G_N_ELEMENTS(needed) && *ok; i++) {
    if (r.failures[needed[i]] == 0)
      continue;
    *ok = FALSE;
    for (guint k = 0; k < r.findings->len; k++) {
      const NsFinding *f = &g_array_index(r.findings, NsFinding, k);
      if (ns_finding_check(f->kind) != needed[i])
        continue;
      g_autofree char *d = ns_finding_describe(f, topo, s);
      g_snprintf(why, why_size, "%s: %s (%" G_GUINT64_FORMAT " finding%s)",
                 ns_check_name(needed[i]), d, r.failures[needed[i]],
                 r.failures[needed[i]] == 1 ? "" : "s");
      break;
    }
  }
  ns_verify_report_clear(&r);
  return TRUE;
}

gboolean ns_simulate(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *given,
                     NsSimResult *result, GError **error)
{
  memset(result, 0, sizeof *result);
  gboolean valid = TRUE;
  char why[256] = "";
  if (!replayable(topo, s, &valid, why, sizeof why, error))
    return FALSE;
  if (!valid && !given->allow_invalid) {
    ns_set_error_at(error, NS_ERROR_CHECK, NULL, 0,
                    "%s/%s does not verify, so its replay would mean nothing: %s "
                    "(netsched verify lists every finding; --allow-invalid replays it anyway)",
                    ns_collective_name(s->collective), s->algorithm, why);
    return FALSE;
  }
  /* The scheme: the caller's, else the one the algorithm prescribes. */
  NsSimOptions effective = *given;
  const NsSimOptions *opt = &effective;
  if (!given->sync_set) {
    effective.sync = (NsSyncScheme){ NS_SYNC_NONE, 0 };
    if (s->sync_scheme != NULL && !ns_sync_scheme_parse(s->sync_scheme, &effective.sync, error))
      return FALSE;
  }
  uint64_t msize = opt->msize ? opt->msize : s->msize;
  gboolean pairwise = s->execution == NS_EXEC_PHASED && ns_sync_uses_pairwise(&opt->sync);

  /* Pair-wise schemes need the sync set of that very scheme. */
  NsSchedule tmp = *s;
  gboolean own_sync = FALSE;
  if (pairwise) {
    g_autofree char *want = ns_sync_scheme_to_string(&opt->sync);
    if (g_strcmp0(s->sync_scheme, want) != 0) {
      tmp.sync = g_array_new(FALSE, FALSE, sizeof(NsSyncEdge));
      tmp.sync_scheme = NULL;
      own_sync = TRUE;
      if (!ns_schedule_compute_sync(topo, &tmp, &opt->sync, NULL, error)) {
        g_array_unref(tmp.sync);
        g_free(tmp.sync_scheme);
        return FALSE;
      }
    }
  }
  gboolean ok = FALSE;
  int platform_fd = -1;
  SignalGuard guard;
  signals_catch(&guard);
  Program *prog = ns_program_build(topo, &tmp, opt, msize, error);
  if (prog != NULL && (platform_fd = ns_sim_platform_fd(topo, error)) >= 0)
    ok = run_child(prog, platform_fd, opt, msize, error);
  if (ok) {
    int p = s->n_machines;
    uint64_t n = ns_schedule_n_transfers(s);
    result->completion = prog->header->completion;
    result->bound = ns_collective_bound(topo, s, msize);
    result->ratio = result->bound > 0 ? result->completion / result->bound : 0;
    result->bytes_moved = 0;
    for (uint64_t t = 0; t < n; t++)
      result->bytes_moved += (double)ns_schedule_transfer(s, t)->n_chunks * (double)msize;
    result->throughput = result->completion > 0
                             ? ns_collective_required_bytes(s, msize) * 8.0 / result->completion
                             : 0;
    result->n_machines = p;
    result->finish = g_memdup2(prog->finish, sizeof(double) * (gsize)p);
    result->n_transfers = n;
    result->start = g_memdup2(prog->start, sizeof(double) * (gsize)n);
    result->end = g_memdup2(prog->end, sizeof(double) * (gsize)n);
    result->n_sync_messages = prog->header->n_sync_messages;
    result->n_dummy_messages = prog->n_all - prog->n_real;
    result->wall_seconds = prog->header->wall_seconds;
    g_autofree char *scheme = ns_sync_scheme_to_string(&opt->sync);
    g_strlcpy(result->sync, s->execution == NS_EXEC_POSTED ? "posted" : scheme,
              sizeof result->sync);
    result->valid = valid;
    g_strlcpy(result->invalid_reason, why, sizeof result->invalid_reason);
  }
  if (platform_fd >= 0)
    close(platform_fd);
  ns_program_free(prog);
  if (own_sync) {
    g_array_unref(tmp.sync);
    g_free(tmp.sync_scheme);
  }
  signals_release(&guard);
  return ok;
}

int ns_sim_platform_fd(const NsTopology *topo, GError **error)
{
  int fd = memfd_create("netsched-platform.xml", 0);
  int copy = fd >= 0 ? dup(fd) : -1;
  FILE *f = copy >= 0 ? fdopen(copy, "w") : NULL;
  if (f == NULL) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot create the platform: %s",
                    g_strerror(errno));
    if (copy >= 0)
      close(copy);
    if (fd >= 0)
      close(fd);
    return -1;
  }
  gboolean ok = ns_topology_write_simgrid(topo, f, error);
  if (fclose(f) != 0 && ok) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot write the platform: %s",
                    g_strerror(errno));
    ok = FALSE;
  }
  if (!ok) {
    close(fd);
    return -1;
  }
  return fd;
}
