/* netsched — simulation driver: options, models, the child process, results.
 * See sim.h. */
#include "sim/sim.h"
#include "platforms/model/units.h"
#include "analysis/bounds_collective.h"
#include "analysis/progress_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/text_internal.h"
#include "platforms/io/topology_simgrid.h"
#include "sched/ir/route.h"
#include "sched/verify/verify.h"
#include "sim/child.h"
#include "sim/export_trace.h"
#include "sim/pair_routes_internal.h"
#include "sim/ns3_attributes.h"
#include "sim/ns3_net.h"
#include "sim/program.h"
#include "sched/lower/routine_internal.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const model_names[] = {
  [NS_MODEL_IDEAL] = "ideal", [NS_MODEL_TCP] = "tcp", [NS_MODEL_SMPI] = "smpi",
  [NS_MODEL_PACKET] = "packet", [NS_MODEL_NS3] = "ns3",
};

gboolean ns_net_model_parse(const char *name, NsNetModel *model, GError **error)
{
  int i = ns_name_index(model_names, G_N_ELEMENTS(model_names), name);
  if (i >= 0) {
    *model = (NsNetModel)i;
    return TRUE;
  }
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "unknown network model '%s' (ideal, tcp, smpi, packet, ns3)", name);
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
  opt->ns3_transport = NS_NS3_TCP_PERSISTENT;
  opt->ns3_init_cwnd = 10;
  opt->ns3_min_rto = 0.2;
  opt->ns3_mtu = 1500;
  opt->ns3_scheduler = NS_NS3_SCHED_MAP; /* the fastest at every size measured (docs/simulator.md, "Speed") */
  opt->ns3_retransmit_timeout = NS_NS3_RETRANSMIT_TIMEOUT;
  opt->eager_threshold = NS_SIM_EAGER_DEFAULT;
  opt->reduce_rate = NS_SIM_REDUCE_RATE_DEFAULT;
  opt->cfg = g_ptr_array_new_with_free_func(g_free);
  opt->ns3 = g_ptr_array_new_with_free_func(g_free);
}

void ns_sim_options_clear(NsSimOptions *opt)
{
  g_free(opt->lat_factor);
  g_free(opt->bw_factor);
  g_free(opt->tcp_variant);
  ns_arrival_free(opt->arrival);
  if (opt->cfg != NULL)
    g_ptr_array_unref(opt->cfg);
  if (opt->ns3 != NULL)
    g_ptr_array_unref(opt->ns3);
  memset(opt, 0, sizeof *opt);
}

uint32_t ns_sim_run_perturbation(int run)
{
  if (run <= 0)
    return 0;
  /* Knuth's multiplicative hash of k: distinct for k < 2^32, never 0. */
  uint32_t salt = (uint32_t)run * UINT32_C(2654435761);
  return salt != 0 ? salt : 1;
}

char *ns_sim_options_describe(const NsSimOptions *opt)
{
  GString *d = g_string_new(NULL);
  gboolean calibrated = opt->lat_factor != NULL || opt->bw_factor != NULL;
  g_string_append_printf(d, "model=%s;msize=%" G_GUINT64_FORMAT ";sync-size=%" G_GUINT64_FORMAT
                         ";hardware-barrier=%d;store-forward=%" G_GUINT64_FORMAT,
                         ns_net_model_name(calibrated ? NS_MODEL_SMPI : opt->model), opt->msize,
                         opt->sync_size, opt->hardware_barrier, opt->store_forward_packet);
  if (opt->eager_threshold > 0) /* absent at 0: the rendezvous replay, the digests of before */
    g_string_append_printf(d, ";eager=%" G_GUINT64_FORMAT, opt->eager_threshold);
  if (opt->reduce_rate != NS_SIM_REDUCE_RATE_DEFAULT) /* absent at the default: the digests
                                                         of before (no reduction was replayed) */
    g_string_append_printf(d, ";reduce-rate=%.17g", opt->reduce_rate);
  if (calibrated)
    g_string_append_printf(d, ";lat-factor=%s;bw-factor=%s", opt->lat_factor ? opt->lat_factor : "",
                           opt->bw_factor ? opt->bw_factor : "");
  if (opt->model == NS_MODEL_PACKET) {
    /* rcvbuf: the receive window sized for the message (model_args), which
     * changed results of messages above 64 KiB: rows simulated before it
     * belong to another configuration. */
    g_string_append_printf(d, ";queue=%d;tcp=%s;segment-size=%d;rcvbuf=msize+64KiB",
                           opt->queue_packets, opt->tcp_variant ? opt->tcp_variant : "Cubic",
                           opt->segment_size);
    if (opt->runs > 1)
      g_string_append_printf(d, ";runs=%d", opt->runs);
  }
  if (opt->model == NS_MODEL_NS3) /* the scheduler changes no time: left out */
    g_string_append_printf(d, ";transport=%s;queue=%d;tcp=%s;init-cwnd=%d;min-rto=%g;"
                           "delayed-ack=%d;mtu=%d",
                           ns_ns3_transport_name((NsNs3Transport)opt->ns3_transport),
                           opt->queue_packets, opt->tcp_variant ? opt->tcp_variant : "Cubic",
                           opt->ns3_init_cwnd, opt->ns3_min_rto, !opt->ns3_no_delayed_ack,
                           opt->ns3_mtu);
  /* tcp-persistent's connection model: one connection per machine pair
   * carrying both directions, retried as Linux does (15 retransmissions).
   * Rows simulated before (a connection per direction, ns-3's 6 retries)
   * belong to another configuration. */
  if (opt->model == NS_MODEL_NS3 && opt->ns3_transport == NS_NS3_TCP_PERSISTENT)
    g_string_append(d, ";connections=per-pair;data-retries=15");
  if (opt->model == NS_MODEL_NS3 && opt->ns3_transport == NS_NS3_UDP_WINDOW)
    g_string_append_printf(d, ";window=%d;retransmit-timeout=%g", opt->ns3_window,
                           opt->ns3_retransmit_timeout);
  /* The gate (issue 23): rows of before counted unacknowledged items
   * under every schedule; they belong to another configuration. */
  if (opt->model == NS_MODEL_NS3 && opt->ns3_transport == NS_NS3_UDP_WINDOW)
    g_string_append_printf(d, ";window-count=%s",
                           ns_ns3_window_count_name((NsNs3WindowCount)opt->ns3_window_count));
  for (guint i = 0; opt->ns3 != NULL && i < opt->ns3->len; i++)
    g_string_append_printf(d, ";ns3:%s", (char *)g_ptr_array_index(opt->ns3, i));
  for (guint i = 0; opt->cfg != NULL && i < opt->cfg->len; i++)
    g_string_append_printf(d, ";cfg:%s", (char *)g_ptr_array_index(opt->cfg, i));
  if (opt->arrival != NULL) /* absent without a pattern: the digests of before */
    g_string_append_printf(d, ";arrival=%s", opt->arrival->canonical);
  return g_string_free(d, FALSE);
}

void ns_sim_result_clear(NsSimResult *r)
{
  g_free(r->finish);
  g_free(r->start);
  g_free(r->end);
  g_free(r->arrival);
  ns_router_free(r->routes);
  memset(r, 0, sizeof *r);
}

/* ---- the child process ------------------------------------------------------ */

gboolean ns_sim_model_cfg(GPtrArray *argv, const NsSimOptions *opt)
{
  gboolean calibrated = opt->lat_factor != NULL || opt->bw_factor != NULL;
  switch (calibrated ? NS_MODEL_SMPI : opt->model) {
  case NS_MODEL_IDEAL:
    /* SimGrid's default for the replay; named, since smpirun's is SMPI */
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:LV08"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/bandwidth-factor:1"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/latency-factor:1"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/weight-S:0"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/crosstraffic:0"));
    g_ptr_array_add(argv, g_strdup("--cfg=network/TCP-gamma:0"));
    break;
  case NS_MODEL_TCP: /* SimGrid's default LV08, named as above */
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:LV08"));
    break;
  case NS_MODEL_SMPI:
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:SMPI"));
    /* A calibration: its factors (validated strings, one argv element
     * each, no shell), and nothing else on a lone message's time. */
    if (opt->lat_factor != NULL)
      g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/lat-factor:%s", opt->lat_factor));
    if (opt->bw_factor != NULL)
      g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/bw-factor:%s", opt->bw_factor));
    if (calibrated) {
      g_ptr_array_add(argv, g_strdup("--cfg=network/TCP-gamma:0"));
      g_ptr_array_add(argv, g_strdup("--cfg=network/crosstraffic:0"));
    }
    break;
  default:
    return FALSE; /* packet: model_args; ns3: netsched-ns3's own (ns3_args) */
  }
  return TRUE;
}

void ns_sim_user_cfg(GPtrArray *argv, const NsSimOptions *opt)
{
  for (guint i = 0; opt->cfg != NULL && i < opt->cfg->len; i++)
    g_ptr_array_add(argv, g_strdup_printf("--cfg=%s", (char *)g_ptr_array_index(opt->cfg, i)));
}

/* SimGrid options for the model; NS_ATTRIBUTE_DEFAULT for ns-3 in *env. */
static void model_args(const NsSimOptions *opt, uint64_t msize, int trace_fd, GPtrArray *argv,
                       char **env)
{
  *env = NULL;
  gboolean fluid = ns_sim_model_cfg(argv, opt);
  if (!fluid && opt->model == NS_MODEL_NS3)
    return; /* netsched-ns3 takes its own options (ns3_args) */
  if (!fluid) { /* the packet model: SimGrid's ns-3 binding */
    g_ptr_array_add(argv, g_strdup("--cfg=network/model:ns-3"));
    /* SimGrid's option knows NewReno (and Reno/Tahoe, which abort in 3.32);
     * leaving it unset keeps ns-3's own default, Cubic. */
    if (opt->tcp_variant != NULL && g_strcmp0(opt->tcp_variant, "Cubic") != 0)
      g_ptr_array_add(argv, g_strdup_printf("--cfg=ns3/TcpModel:%s", opt->tcp_variant));
    /* SimGrid hands a whole message to the TCP socket at once and aborts
     * when it does not fit the send buffer (128 KiB by default): size it
     * for the message. The receive buffer (TCP's advertised window) must
     * exceed the message too: when a message is larger than the window,
     * ns-3 3.37 crashes as soon as the sender has exactly a window of
     * data outstanding while losses leave room in cwnd
     * (TcpTxBuffer::NextSeg returns an empty range, SendDataPacket asks
     * for 0 bytes, CopyFromSequence returns NULL, TcpRateLinux::SkbSent
     * dereferences it; docs/simulator.md, "The packet model's crash").
     * A window above the message never binds, so its exact value does
     * not change results; up to 64 KiB it stays ns-3's default. An
     * explicit --ns3 ns3::TcpSocket::RcvBufSize wins (ns-3 keeps the first
     * of two equal names, so ours is left out then). */
    uint64_t buf = MAX((uint64_t)131072, msize + 65536);
    gboolean own_rcvbuf = FALSE;
    for (guint i = 0; opt->ns3 != NULL && i < opt->ns3->len; i++)
      own_rcvbuf |=
          g_str_has_prefix(g_ptr_array_index(opt->ns3, i), "ns3::TcpSocket::RcvBufSize=");
    GString *attrs = g_string_new(NULL);
    g_string_printf(attrs,
                    "ns3::TcpSocket::SndBufSize=%" G_GUINT64_FORMAT
                    ";ns3::TcpSocket::SegmentSize=%d;ns3::DropTailQueue<Packet>::MaxSize=%dp",
                    buf, opt->segment_size, opt->queue_packets);
    if (!own_rcvbuf)
      g_string_append_printf(attrs, ";ns3::TcpSocket::RcvBufSize=%" G_GUINT64_FORMAT, buf);
    if (opt->run > 0) /* the user's own salt is refused with runs (ns_simulate) */
      g_string_append_printf(attrs, ";ns3::FqCoDelQueueDisc::Perturbation=%" G_GUINT32_FORMAT,
                             ns_sim_run_perturbation(opt->run));
    for (guint i = 0; opt->ns3 != NULL && i < opt->ns3->len; i++)
      g_string_append_printf(attrs, ";%s", (char *)g_ptr_array_index(opt->ns3, i));
    *env = g_string_free(attrs, FALSE);
  }
#if defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer does not follow SimGrid's own stack switching. */
  g_ptr_array_add(argv, g_strdup("--cfg=contexts/factory:thread"));
#endif
  g_ptr_array_add(argv, g_strdup("--log=root.thres:warning"));
  if (trace_fd >= 0) {
    g_ptr_array_add(argv, g_strdup("--cfg=tracing:yes"));
    g_ptr_array_add(argv, g_strdup("--cfg=tracing/platform:yes"));
    /* SimGrid 3.32 aborts drawing the platform graph of a zone whose
     * routes it computes (DijkstraCache): "dynar is not that long" */
    g_ptr_array_add(argv, g_strdup("--cfg=tracing/platform/topology:no"));
    g_ptr_array_add(argv, g_strdup("--cfg=tracing/uncategorized:yes"));
    g_ptr_array_add(argv, g_strdup_printf("--cfg=tracing/filename:/proc/self/fd/%d", trace_fd));
  }
  ns_sim_user_cfg(argv, opt); /* last: the user's win */
}

/* ---- the child's life ----------------------------------------------------
 * The child runs through ns_child_spawn (sim/child.h): in a process group
 * of its own with a private TMPDIR, dying with its parent; a stop signal
 * (SIGINT, SIGTERM, SIGHUP only set a flag while a simulation runs) or the
 * wall-time limit stops its group, SIGTERM then SIGKILL, and ns_simulate()
 * restores the caller's handlers and raises the signal again once
 * everything it made is gone, so an interrupted run leaves no process and
 * no file behind. It never dumps core (netsched-replay disables it). */

/* Tells the reporter what the child published: "340/992 messages, 1.200 s
 * simulated" and the fraction of messages delivered (the reporter
 * estimates the time left, analysis/progress_internal.h). */
static void report_progress(NsProgress *progress, const Program *prog)
{
  if (!ns_progress_on(progress))
    return;
  uint64_t done = prog->header->transfers_done;
  ns_progress_detail(progress, prog->n_all > 0 ? (double)done / (double)prog->n_all : 0,
                     "%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " messages, %.3f s simulated",
                     done, prog->n_all, prog->header->clock);
}

/* What the replay's ticks need. */
typedef struct {
  Program *prog;
  NsProgress *progress;
} Replay;

/* Five times a second while the child runs. */
static void replay_tick(void *data)
{
  Replay *r = data;
  report_progress(r->progress, r->prog);
}

/* The replay executable: $NETSCHED_REPLAY, else next to this program, else
 * where `cmake --install` puts it (LIBEXECDIR/netsched: relative to this
 * program's directory, then the configured prefix), else where the build
 * put it. */
#ifndef NETSCHED_REPLAY_RELATIVE
#define NETSCHED_REPLAY_RELATIVE NULL
#endif
#ifndef NETSCHED_REPLAY_INSTALLED
#define NETSCHED_REPLAY_INSTALLED NULL
#endif
static char *replay_path(void)
{
  return ns_child_program_path("NETSCHED_REPLAY", "netsched-replay", NETSCHED_REPLAY_RELATIVE,
                               NETSCHED_REPLAY_INSTALLED, NETSCHED_REPLAY_PATH);
}

/* netsched-ns3's options for the ns3 model (sim/ns3/main.cc). */
static void ns3_args(const NsSimOptions *opt, GPtrArray *argv)
{
  g_ptr_array_add(argv, g_strdup("--transport"));
  g_ptr_array_add(argv, g_strdup(ns_ns3_transport_name((NsNs3Transport)opt->ns3_transport)));
  g_ptr_array_add(argv, g_strdup("--tcp"));
  g_ptr_array_add(argv, g_strdup(opt->tcp_variant != NULL ? opt->tcp_variant : "Cubic"));
  g_ptr_array_add(argv, g_strdup("--init-cwnd"));
  g_ptr_array_add(argv, g_strdup_printf("%d", opt->ns3_init_cwnd));
  g_ptr_array_add(argv, g_strdup("--min-rto"));
  g_ptr_array_add(argv, g_strdup_printf("%.17g", opt->ns3_min_rto));
  g_ptr_array_add(argv, g_strdup("--delayed-ack"));
  g_ptr_array_add(argv, g_strdup(opt->ns3_no_delayed_ack ? "0" : "1"));
  g_ptr_array_add(argv, g_strdup("--mtu"));
  g_ptr_array_add(argv, g_strdup_printf("%d", opt->ns3_mtu));
  g_ptr_array_add(argv, g_strdup("--queue"));
  g_ptr_array_add(argv, g_strdup_printf("%d", opt->queue_packets));
  g_ptr_array_add(argv, g_strdup("--scheduler"));
  g_ptr_array_add(argv, g_strdup(ns_ns3_scheduler_name((NsNs3Scheduler)opt->ns3_scheduler)));
  g_ptr_array_add(argv, g_strdup("--window"));
  g_ptr_array_add(argv, g_strdup_printf("%d", opt->ns3_window));
  g_ptr_array_add(argv, g_strdup("--retransmit-timeout"));
  g_ptr_array_add(argv, g_strdup_printf("%.17g", opt->ns3_retransmit_timeout));
  g_ptr_array_add(argv, g_strdup("--window-count"));
  g_ptr_array_add(argv, g_strdup(ns_ns3_window_count_name((NsNs3WindowCount)opt->ns3_window_count)));
}

/* Runs the model's child: netsched-replay on the SimGrid platform in
 * `platform_fd`, or for the ns3 model netsched-ns3 on the network
 * description in it (sim/ns3_net.h). */
static gboolean run_replay(Program *prog, int platform_fd, int trace_fd, const NsSimOptions *opt,
                           uint64_t msize, GError **error)
{
  gboolean ns3 = opt->model == NS_MODEL_NS3;
  g_autofree char *exe = ns3 ? ns_ns3_child_path(error) : replay_path();
  if (exe == NULL)
    return FALSE;
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
  char *attrs = NULL;
  if (ns3) {
    g_ptr_array_add(argv, g_strdup_printf("%d", platform_fd));
    ns3_args(opt, argv);
  } else {
    g_ptr_array_add(argv, g_strdup_printf("/proc/self/fd/%d", platform_fd));
    model_args(opt, msize, trace_fd, argv, &attrs);
  }
  g_ptr_array_add(argv, NULL);
  char **envp = g_get_environ();
  envp = attrs != NULL ? g_environ_setenv(envp, "NS_ATTRIBUTE_DEFAULT", attrs, TRUE)
                       : g_environ_unsetenv(envp, "NS_ATTRIBUTE_DEFAULT");
  g_free(attrs);
  if (ns_stop_signal() != 0) { /* interrupted while the program was built */
    g_strfreev(envp);
    close(program_fd);
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation interrupted by %s",
                    g_strsignal(ns_stop_signal()));
    return FALSE;
  }
  Replay replay = { prog, opt->progress };
  /* Room for SimGrid's recursive solver on the main thread, which grows
   * its stack up to this limit (NS_SIM_STACK_BYTES, sim.h). */
  NsChildOptions child = {
    .name = "the simulation", .env = envp, .wall_limit = opt->wall_limit,
    .stack_bytes = NS_SIM_STACK_BYTES, .tick = replay_tick, .data = &replay,
  };
  int status = 0;
  NsChildEnd end;
  gboolean started = ns_child_spawn((const char *const *)argv->pdata, &child, &status, &end, error);
  g_strfreev(envp);
  close(program_fd);
  if (!started) {
    /* "cannot run PATH: why" in the model's words, as the replay's own
     * failures are */
    if (end == NS_CHILD_NOT_RUN)
      g_prefix_error(error, ns3 ? "ns3 model: " : "simulation failed: ");
    return FALSE;
  }
  report_progress(opt->progress, prog); /* where it ended */
  ns_progress_clear(opt->progress);     /* the caller prints what the run gave next */
  gboolean timed_out = end == NS_CHILD_LATE && ns_stop_signal() == 0;
  if (timed_out) {
    uint64_t done = prog->header->transfers_done;
    g_autofree char *need =
        done > 0 ? g_strdup_printf("; at that rate it needs about %.0f s in all",
                                   opt->wall_limit * (double)prog->n_all / (double)done)
                 : g_strdup("");
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    "simulation stopped after the wall-time limit of %.0f s: %" G_GUINT64_FORMAT
                    " of %" G_GUINT64_FORMAT " messages delivered, %.3f s simulated%s",
                    opt->wall_limit, done, prog->n_all, prog->header->clock, need);
    return FALSE;
  }
  if (ns_stop_signal() != 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "simulation interrupted by %s",
                    g_strsignal(ns_stop_signal()));
    return FALSE;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && prog->header->done)
    return TRUE;
  if (ns3 && prog->header->error[0] != '\0') {
    ns_set_error_at(error, WIFEXITED(status) && WEXITSTATUS(status) == 2 ? NS_ERROR_UNSUPPORTED
                                                                         : NS_ERROR_IO,
                    NULL, 0, "ns3 model: %s", prog->header->error);
    return FALSE;
  }
  if (ns3) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0,
                    WIFSIGNALED(status) ? "ns3 model: netsched-ns3 died of signal %d (%s)"
                                        : "ns3 model: netsched-ns3 ended with status %d%s before "
                                          "completing (its message above says why)",
                    WIFSIGNALED(status) ? WTERMSIG(status)
                                        : WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                    WIFSIGNALED(status) ? g_strsignal(WTERMSIG(status)) : "");
    return FALSE;
  }
  const char *hint = opt->model == NS_MODEL_PACKET
                         ? " (ns-3 3.37 crashes under heavy loss when a TCP window smaller "
                           "than the message fills: check --ns3 ns3::TcpSocket::RcvBufSize and "
                           "windows; see docs/simulator.md, \"The packet model's crash\")"
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

/* Copies the trace SimGrid wrote into `trace_fd` to `out`, every write
 * checked (a full disk is an error here, not a SimGrid backtrace). */
static gboolean copy_trace(int trace_fd, FILE *out, const char *name, GError **error)
{
  char buf[64 << 10];
  gboolean ok = lseek(trace_fd, 0, SEEK_SET) == 0;
  int e = ok ? 0 : errno;
  for (ssize_t n; ok && (n = read(trace_fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || fwrite(buf, 1, (size_t)n, out) != (size_t)n) {
      e = errno;
      ok = FALSE;
    }
  }
  if (ok && fflush(out) != 0) {
    e = errno;
    ok = FALSE;
  }
  if (!ok)
    ns_set_error_at(error, NS_ERROR_IO, name, 0, "cannot write the trace: %s",
                    g_strerror(e != 0 ? e : EIO));
  return ok;
}

/* Runs the replay; with opt->trace, SimGrid writes its trace into an
 * anonymous memory file that the child inherits, copied to opt->trace
 * once the replay has completed. */
static gboolean run_child(Program *prog, int platform_fd, const NsSimOptions *opt,
                          uint64_t msize, GError **error)
{
  int trace_fd = -1;
  if (opt->trace != NULL && (trace_fd = memfd_create("netsched-trace", 0)) < 0) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot make room for the trace: %s",
                    g_strerror(errno));
    return FALSE;
  }
  gboolean ok = run_replay(prog, platform_fd, trace_fd, opt, msize, error) &&
                (trace_fd < 0 || copy_trace(trace_fd, opt->trace, opt->trace_name, error));
  if (trace_fd >= 0)
    close(trace_fd);
  return ok;
}

/* The schedule's route table, resolved once for every step of a simulation
 * that routes — the check, the sync sets, the own routes' pairs, the bound —
 * and handed to the caller with the result (NsSimResult.routes); or the
 * caller's (NsRowFacts.routes). NULL when the machines or routes do not fit
 * the topology: each step then reports that in its own words. */
typedef struct {
  const NsTopology *topo;
  const NsSchedule *s;
  const NsRouter *given;
  NsRouter *own;
  gboolean failed;
} Routes;

static const NsRouter *routes_get(Routes *r)
{
  if (ns_router_fits(r->given, r->topo, r->s))
    return r->given;
  if (r->own == NULL && !r->failed)
    r->failed = (r->own = ns_router_for(r->topo, r->s, NULL)) == NULL;
  return r->own;
}

gboolean ns_sim_size_check(const NsTopology *topo, GError **error)
{
  int p = ns_topology_n_machines(topo), hops = ns_topology_max_route_len(topo);
  if (p > NS_SIM_MAX_MACHINES) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "simulating %s: %d machines, above the limit of %d machines (SimGrid runs "
                    "one actor per machine, each with its own stack: see docs/simulator.md, "
                    "\"Limits\")", ns_topology_source(topo), p, NS_SIM_MAX_MACHINES);
    return FALSE;
  }
  if (hops > NS_SIM_MAX_ROUTE_LINKS) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "simulating %s: routes of up to %d links, above the limit of %d links "
                    "(SimGrid's solver walks a route's links recursively: see "
                    "docs/simulator.md, \"Limits\")", ns_topology_source(topo), hops,
                    NS_SIM_MAX_ROUTE_LINKS);
    return FALSE;
  }
  return TRUE;
}

/* What the ns3 model does not replay: NS_ERROR_UNSUPPORTED naming it. */
static gboolean ns3_supported(const NsSimOptions *opt, const Program *prog, GError **error)
{
  const char *what = opt->trace != NULL                          ? "a Paje trace (--trace)"
                     : opt->export_to != NULL                    ? "exports for other simulators"
                     : prog->iterations > 1 || prog->gap != NS_ITERATION_NOTHING
                         ? "repeated invocations"
                     : opt->ns3 != NULL && opt->ns3->len > 0     ? "--ns3 attributes"
                     : opt->cfg != NULL && opt->cfg->len > 0     ? "SimGrid options (--cfg)"
                                                                 : NULL;
  if (what == NULL && prog->window > 0 && opt->ns3_transport != NS_NS3_UDP_WINDOW) {
    /* The window gates MTU items, which only the user-level protocol has. */
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the window scheme (window:W) runs under --transport udp-window, not %s",
                    ns_ns3_transport_name((NsNs3Transport)opt->ns3_transport));
    return FALSE;
  }
  if (what == NULL)
    return TRUE;
  ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                  "the ns3 model does not replay %s yet (use -M packet or a fluid model)", what);
  return FALSE;
}

/* The ns3 model's network (sim/ns3_net.h) for the schedule's machines. */
static int ns3_network_fd(const NsTopology *topo, const NsSchedule *s,
                          const NsSimPairRoutes *pairs, GError **error)
{
  int *node = ns_schedule_machine_nodes(topo, s, error);
  if (node == NULL)
    return -1;
  int fd = ns_ns3_net_fd(topo, node, s->n_machines, pairs, error);
  g_free(node);
  return fd;
}

static gboolean simulate(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *given,
                         Routes *routes, NsSimResult *result, GError **error)
{
  memset(result, 0, sizeof *result);
  if (!ns_sim_size_check(topo, error))
    return FALSE;
  /* ns-3 ignores misspelt attributes and crashes on malformed values:
   * every --ns3 assignment is checked before anything runs. */
  if (given->ns3 != NULL && given->ns3->len > 0 &&
      !ns_ns3_attributes_check(given->ns3, given->segment_size, error))
    return FALSE;
  for (guint i = 0; given->run > 0 && given->ns3 != NULL && i < given->ns3->len; i++)
    if (g_str_has_prefix(g_ptr_array_index(given->ns3, i), "ns3::FqCoDelQueueDisc::Perturbation=")) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "repeated runs vary ns3::FqCoDelQueueDisc::Perturbation themselves: do not "
                      "set it with --ns3 as well");
      return FALSE;
    }
  if (!(given->wall_limit >= 0 && given->wall_limit <= NS_SIM_MAX_WALL_LIMIT)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "wall-time limit %g s: give seconds from 0 (no limit) to "
                    G_STRINGIFY(NS_SIM_MAX_WALL_LIMIT), given->wall_limit);
    return FALSE;
  }
  /* The scheme: the caller's, else the one the algorithm prescribes. */
  NsSimOptions effective = *given;
  const NsSimOptions *opt = &effective;
  if (!ns_lower_scheme(s, given->sync_set ? &given->sync : NULL, &effective.sync, error))
    return FALSE;
  uint64_t msize = opt->msize ? opt->msize : s->msize;
  if (s->chunk_bytes != NULL && msize != s->msize) {
    g_autofree char *want = ns_format_size(msize);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "%s/%s has a size per chunk: it replays at its own sizes, not at %s chunks",
                    ns_collective_name(s->collective), s->algorithm, want);
    return FALSE;
  }
  if (!(opt->reduce_rate >= 0 && opt->reduce_rate < G_MAXDOUBLE)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "reduction rate %g bytes/s: give a finite rate, or 0 for free combining",
                    opt->reduce_rate);
    return FALSE;
  }
  gboolean pairwise = s->execution == NS_EXEC_PHASED && ns_sync_uses_pairwise(&opt->sync);
  /* A scheme recorded without edges is a recommendation: its edges are
   * computed below; recorded with them, they are replayed as they are. */
  gboolean stored_sync = pairwise && ns_lower_has_sync(s, &opt->sync);

  gboolean valid = TRUE;
  char why[256] = "";
  if (given->known != NULL && given->known->verified != NULL)
    ns_lower_verdict(given->known->verified, topo, s, stored_sync, &valid, why, sizeof why);
  else if (!ns_lower_check(topo, s, routes_get(routes), stored_sync, &valid, why, sizeof why,
                           error))
    return FALSE;
  if (given->model == NS_MODEL_PACKET && ns_topology_routing(topo) != NS_ROUTING_TREE) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the packet model (ns-3) builds its network from one-hop links and routes "
                    "on its own shortest paths, which need not be %s's %s routes: it simulates "
                    "trees only (take a spanning tree with --spanning, or a fluid model)",
                    ns_topology_source(topo), ns_routing_kind_name(ns_topology_routing(topo)));
    return FALSE;
  }
  if (!valid && !given->allow_invalid) {
    ns_set_error_at(error, NS_ERROR_CHECK, NULL, 0,
                    "%s/%s does not verify, so its replay would mean nothing: %s "
                    "(netsched verify lists every finding; --allow-invalid replays it anyway)",
                    ns_collective_name(s->collective), s->algorithm, why);
    return FALSE;
  }
  /* Pair-wise schemes need the sync set of that very scheme. */
  NsSchedule tmp = *s;
  gboolean own_sync = FALSE;
  if (pairwise) {
    if (!stored_sync) {
      tmp.sync = g_array_new(FALSE, FALSE, sizeof(NsSyncEdge));
      tmp.sync_scheme = NULL;
      own_sync = TRUE;
      if (!ns_schedule_compute_sync_routed(topo, &tmp, routes_get(routes), &opt->sync, NULL,
                                           error)) {
        g_array_unref(tmp.sync);
        g_free(tmp.sync_scheme);
        return FALSE;
      }
    }
  }
  gboolean ok = FALSE;
  int platform_fd = -1;
  /* The arrival pattern in seconds, T being one message on the slowest port. */
  double unit = opt->arrival != NULL ? ns_arrival_unit(topo, s, msize, NULL) : 0;
  double *arrival = opt->arrival != NULL ? ns_arrival_offsets(opt->arrival, s, unit, error) : NULL;
  NsSignalGuard guard;
  ns_signals_catch(&guard);
  Program *prog = opt->arrival == NULL || arrival != NULL
                      ? ns_program_build(topo, &tmp, opt, msize, error)
                      : NULL;
  if (prog != NULL && arrival != NULL)
    memcpy(prog->arrival, arrival, sizeof(double) * (gsize)prog->p);
  NsSimPairRoutes *pairs = prog != NULL ? ns_sim_pair_routes(topo, s, routes_get(routes), error) : NULL;
  NsSimGridExport exp = {
    .store_forward_packet = opt->model == NS_MODEL_PACKET ? 0 : opt->store_forward_packet,
    .pair_route = pairs != NULL && pairs->table != NULL ? ns_sim_pair_route : NULL,
    .pair_data = pairs,
  };
  if (pairs != NULL && pairs->table != NULL && opt->model == NS_MODEL_PACKET) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the packet model (ns-3) routes hop by hop on its own: it cannot follow "
                    "transfers' own routes (use a fluid model)");
  } else if (pairs != NULL && opt->model == NS_MODEL_NS3) {
    ok = ns3_supported(opt, prog, error) &&
         (platform_fd = ns3_network_fd(topo, s, pairs, error)) >= 0 &&
         run_child(prog, platform_fd, opt, msize, error);
  } else if (pairs != NULL && (platform_fd = ns_sim_platform_fd(topo, &exp, error)) >= 0) {
    ok = (opt->export_to == NULL || ns_sim_export_check(prog, opt->export_to, error)) &&
         run_child(prog, platform_fd, opt, msize, error) &&
         (opt->export_to == NULL || ns_sim_export_program(prog, topo, &exp, opt->export_to, error));
  }
  ns_sim_pair_routes_free(pairs);
  if (ok) {
    int p = s->n_machines;
    uint64_t n = ns_schedule_n_transfers(s);
    result->completion = prog->header->completion;
    result->bound = given->known != NULL && msize == s->msize
                        ? given->known->bound_s
                        : ns_collective_bound_routed(topo, s, msize, routes_get(routes));
    result->ratio = result->bound > 0 ? result->completion / result->bound : 0;
    result->bytes_moved = 0;
    for (uint64_t t = 0; t < n; t++)
      result->bytes_moved += (double)ns_schedule_transfer_bytes_at(s, ns_schedule_transfer(s, t), msize);
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
    result->packets = prog->header->packets;
    result->packet_drops = prog->header->packet_drops;
    g_autofree char *scheme = ns_sync_scheme_to_string(&opt->sync);
    g_strlcpy(result->sync, s->execution == NS_EXEC_POSTED ? ns_execution_name(s->execution) : scheme,
              sizeof result->sync);
    result->valid = valid;
    g_strlcpy(result->invalid_reason, why, sizeof result->invalid_reason);
    if (arrival != NULL) {
      ns_arrival_stats(arrival, prog->finish, p, unit, &result->arrival_stats);
      result->arrival = g_steal_pointer(&arrival);
    }
  }
  g_free(arrival);
  if (platform_fd >= 0)
    close(platform_fd);
  ns_program_free(prog);
  if (own_sync) {
    g_array_unref(tmp.sync);
    g_free(tmp.sync_scheme);
  }
  ns_signals_release(&guard);
  return ok;
}

gboolean ns_simulate(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *given,
                     NsSimResult *result, GError **error)
{
  Routes routes = { .topo = topo, .s = s,
                    .given = given->known != NULL ? given->known->routes : NULL };
  gboolean ok = simulate(topo, s, given, &routes, result, error);
  if (ok)
    result->routes = g_steal_pointer(&routes.own);
  ns_router_free(routes.own);
  return ok;
}

int ns_sim_platform_fd(const NsTopology *topo, const NsSimGridExport *exp, GError **error)
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
  gboolean ok = ns_topology_write_simgrid_with(topo, exp, f, error);
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
