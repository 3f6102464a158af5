/* netsched — SimGrid replay of a Schedule on a Topology.
 *
 * One SimGrid actor per machine executes its part of the schedule:
 * receives and sends through mailboxes, in its posting order, phase after
 * phase under a synchronisation scheme (sched/ir/sync.h). Synchronisation and
 * barrier messages are real (small) messages in the simulation.
 *
 * Every simulation runs in a child process: SimGrid can be initialised only
 * once per process, and its ns-3 backend crashes at exit, aborts on large
 * messages and can crash under heavy loss. The parent turns any such end
 * into a clear error (never a lost run, never a core dump counted as a
 * result); results come back through shared memory.
 *
 * Network models (measured behaviour in docs/simulator.md):
 *   ideal   fluid max-min sharing with every correction factor off: a
 *           contention-free schedule completes at the bound (+ latencies)
 *   tcp     SimGrid's default fluid model LV08 (latency x13.01, 97 % of
 *           bandwidth, cross-traffic)
 *   smpi    SimGrid's SMPI piece-wise factors (what smpirun uses)
 *   packet  store-and-forward Ethernet through SimGrid's ns-3 backend:
 *           packets forwarded hop by hop, queued in the FqCoDel queue disc
 *           ns-3 puts before every device (then a drop-tail device queue),
 *           one TCP connection per message; trees only
 *   ns3     ns-3 driven by netsched's own child (sim/ns3/, netsched-ns3):
 *           netsched's routes on every fabric, drop-tail switch queues,
 *           one TCP connection per machine pair opened before the
 *           collective (tcp-persistent, MPI's TCP transport)
 * In a fluid model posting everything at once already reaches the bound —
 * max-min sharing has no congestion loss, retransmission timeouts or
 * head-of-line blocking. The contention penalties the papers measured only
 * appear at packet level, so `packet` is the model for comparing algorithms
 * on Ethernet; the fluid models give bounds-level sanity and speed.
 */
#ifndef NETSCHED_SIM_H
#define NETSCHED_SIM_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"
#include "platforms/io/topology_simgrid.h"
#include "sched/ir/route.h"
#include "sched/ir/sync.h"
#include "analysis/row_facts_internal.h"
#include "sim/arrival.h"

typedef enum { NS_MODEL_IDEAL, NS_MODEL_TCP, NS_MODEL_SMPI, NS_MODEL_PACKET, NS_MODEL_NS3 } NsNetModel;

/* The most machines a simulation runs. SimGrid gives every machine's actor
 * a stack and a guard page (two memory mappings), and Linux's default
 * vm.max_map_count (65,530) stops a process near 32,000 actors ("Failed to
 * protect stack"); below that the set-up grows with the square of the
 * machines (a broadcast on a star of 8,192 machines takes 26 s, 16,384
 * about 100 s). docs/simulator.md, "Limits". */
#define NS_SIM_MAX_MACHINES 16384

/* The longest route a simulation follows, in links. SimGrid's max-min
 * solver walks the links that flows share recursively
 * (lmm::System::update_modified_cnst_set_rec): a flow across the 100,000
 * switches of a chain overflowed its stack (SIGSEGV after minutes), and
 * its time grows with the square of the route (a 30,000-switch chain took
 * 45 s). The replay's stack is also raised (NS_SIM_STACK_BYTES) for many
 * short routes that share links one after another. */
#define NS_SIM_MAX_ROUTE_LINKS 4096
#define NS_SIM_STACK_BYTES ((uint64_t)1 << 30)
/* The up-front check of a simulation's size, made by ns_simulate() and by
 * the commands that simulate many runs before the first one:
 * NS_ERROR_UNSUPPORTED naming the limit when `topo` has more than
 * NS_SIM_MAX_MACHINES machines or routes that may be longer than
 * NS_SIM_MAX_ROUTE_LINKS links. O(1). */
gboolean ns_sim_size_check(const NsTopology *topo, GError **error);

gboolean ns_net_model_parse(const char *name, NsNetModel *model, GError **error);
const char *ns_net_model_name(NsNetModel model);

/* The longest wall-time limit a simulation takes: about 31.7 years, far
 * below the 9.2e12 s that microseconds in 64 bits can count (a longer one,
 * or inf, is an error rather than a deadline in the past; 0 means none). */
#define NS_SIM_MAX_WALL_LIMIT 1e9

/* What comes before each invocation when a replay repeats the collective
 * (NsSimOptions.iterations). */
typedef enum { NS_ITERATION_NOTHING, NS_ITERATION_BARRIER, NS_ITERATION_COMPUTE } NsIterationGap;

typedef struct {
  NsNetModel model;
  NsSyncScheme sync;       /* phased schedules; posted ones ignore it */
  gboolean sync_set;       /* FALSE: use the schedule's sync_scheme (its
                              algorithm's default), else none */
  uint64_t msize;          /* bytes per chunk; 0 = the schedule's */
  uint64_t sync_size;      /* bytes of a synchronisation/barrier message (default 8) */
  gboolean hardware_barrier; /* barriers as dedicated hardware (Purdue PAPERS, Faraj &
                                Yuan §5): all machines leave together, no network
                                messages; default: dissemination barrier of messages */
  /* packet model */
  int queue_packets;       /* drop-tail switch queue, packets (default 100) */
  char *tcp_variant;       /* ns-3 TCP: "Cubic" (default) or "NewReno" */
  int segment_size;        /* TCP segment size in bytes (default 1000, SimGrid's) */
  GPtrArray *ns3;          /* extra ns-3 attributes "ns3::Class::Attr=value" */
  /* the ns3 model (sim/ns3_net.h; docs/simulator.md, "The ns3 model"); it
   * also takes queue_packets and tcp_variant (NULL: Cubic) */
  int ns3_transport;       /* NsNs3Transport (default tcp-persistent) */
  int ns3_init_cwnd;       /* TCP initial window, segments (default 10, Linux's) */
  double ns3_min_rto;      /* TCP minimum retransmission timeout, s (default 0.2, Linux's) */
  gboolean ns3_no_delayed_ack; /* ACK every segment (default: every second, or 40 ms) */
  int ns3_mtu;             /* bytes of an IP packet (default 1500; 9000: jumbo frames);
                              the TCP segment is MTU − 52 (IP, TCP, timestamps) */
  int ns3_scheduler;       /* NsNs3Scheduler: ns-3's event scheduler (default map) */
  int ns3_window;          /* udp-window: items outstanding per machine (Tam & Wang's W_g);
                              0 (default): the schedule's window:W_g, else 5 */
  int ns3_window_count;    /* udp-window: NsNs3WindowCount, what the window counts
                              (default auto: Tam & Wang's η under window:W_g, else unacked) */
  double ns3_retransmit_timeout; /* udp-window: least s before an item is sent again
                                    (default 0.02; RFC 6298's estimate above it) */
  /* calibration (analysis/calibrate_internal.h): SimGrid's smpi/lat-factor and
   * smpi/bw-factor strings, validated by ns_cal_factors_parse(). When
   * either is set the SMPI network model is used, whatever `model` says,
   * with these factors and without TCP-gamma window limit or cross-traffic
   * (a calibration is the whole point-to-point cost); NULL: SimGrid's. */
  char *lat_factor, *bw_factor;
  /* pass-through */
  GPtrArray *cfg;          /* extra SimGrid options "name:value" (without --cfg=) */
  FILE *trace;             /* the Paje trace for ViTE is written here once the replay has
                              completed (NULL: none; not owned). SimGrid writes it into
                              an anonymous memory file, copied with checked writes:
                              a full disk is NS_ERROR_IO "NAME: cannot write the trace: ..." */
  const char *trace_name;  /* its name in messages (not owned) */
  double wall_limit;       /* seconds of wall time before the child is killed (0: none;
                              at most NS_SIM_MAX_WALL_LIMIT) */
  uint64_t store_forward_packet; /* fluid models: bytes of the packet each store-and-forward
                                    switch delays a message by (0: cut-through semantics,
                                    platforms/io/topology_simgrid.h) */
  gboolean allow_invalid;  /* replay a schedule that fails data flow, completeness or
                              the sync check (result marked invalid); default: refuse */
  struct NsProgress *progress; /* the reporter (analysis/progress_internal.h) told the fraction of
                                  messages delivered while simulating; NULL: none */
  /* Repetitions (packet model). ns-3's only source of variation on
   * SimGrid's path is FqCoDel's flow hash: the salt
   * (FqCoDelQueueDisc::Perturbation) decides which flows share a queue,
   * and so which packets are dropped. Run 0 is ns-3's default (salt 0);
   * run k >= 1 uses a fixed nonzero salt derived from k. The fluid models
   * are deterministic: run is ignored there. */
  int run;
  int runs;                /* for measurements of several runs (compare, design):
                              runs per row, 0 or 1 = one; ns_simulate runs once */
  const NsRowFacts *known; /* the verification, the bound and the route table the caller
                              already derived from this very (topology, schedule) at the
                              chunk size simulated (analysis/row_facts_internal.h): used instead of
                              deriving them again; NULL: ns_simulate derives them */
  /* Back-to-back invocations (Faraj's dissertation §4.1.1.2, Figure 4.3,
   * the timing mechanisms of `netsched tune`): every machine runs its
   * program `iterations` times (0 or 1: once), before each invocation
   * nothing (Mpptest), a barrier (Mpptest + barrier) or a computation of
   * iteration_compute_s seconds (Mpptest + computation). The completion
   * is the whole loop's. Not with the window scheme. */
  int iterations;
  NsIterationGap iteration_gap;
  double iteration_compute_s;
  /* Exports of the replayed program for other simulators (sim/export_trace.h),
   * written once the replay has completed: NULL, none. Not owned. */
  const struct NsSimExport *export_to;
  /* The process arrival pattern (sim/arrival.h, Faraj's dissertation §4.2):
   * machine i starts its program a_i seconds in. NULL: every machine at 0,
   * no pattern reported. Owned (ns_sim_options_clear frees it). */
  NsArrival *arrival;
  /* Eager sends (docs/simulator.md, "Eager and rendezvous"): a data transfer
   * of fewer bytes than this completes at its sender when posted (a detached
   * send), so the sender's next step and the syncs its completion releases
   * do not wait for delivery; its receive completes as before. 0: every send
   * completes when received (rendezvous). Default NS_SIM_EAGER_DEFAULT. */
  uint64_t eager_threshold;
  /* Reductions (docs/simulator.md, "Reductions and variable sizes"): the rate, in
   * bytes per second, at which a machine combines received data with its
   * own (MPI_Reduce_local). Every combining transfer (NsTransfer.combine)
   * keeps its receiver busy bytes/rate seconds once its data has arrived,
   * before the receiver's next step; 0: combining is free. Default
   * NS_SIM_REDUCE_RATE_DEFAULT. */
  double reduce_rate;
} NsSimOptions;

/* The eager limit of the MPI libraries the replay is set beside, 64 KiB:
 * SimGrid SMPI's smpi/send-is-detached-thresh (65536, `smpirun
 * --help-cfg`) and Open MPI's TCP BTL eager limit btl_tcp_eager_limit
 * (65536, `ompi_info --param btl tcp --level 9`). */
#define NS_SIM_EAGER_MPI UINT64_C(65536)
/* The default is MPI's eager limit (issue #23): small messages complete at
 * their sender as they do under SMPI and Open MPI; 0 (--eager-threshold 0)
 * keeps every send a rendezvous, the replay of before. */
#define NS_SIM_EAGER_DEFAULT NS_SIM_EAGER_MPI
/* udp-window's least retransmission timeout, s (NsSimOptions.
 * ns3_retransmit_timeout; sim/ns3/transport.h says why 20 ms). */
#define NS_NS3_RETRANSMIT_TIMEOUT 0.02

/* The default reduction rate, 3.6e10 bytes/s: Open MPI 4.1.4's
 * MPI_Reduce_local (MPI_SUM over MPI_DOUBLE, 1 MiB buffers: beyond the
 * caches) measured in CPU time on the machine the results of issue #22
 * were made on (docs/simulator.md, "Reductions and variable sizes"). Its
 * digest entry is left out at this value (ns_sim_options_describe), so a
 * change of this constant must put it in. */
#define NS_SIM_REDUCE_RATE_DEFAULT 3.6e10

/* The FqCoDel salt of run k (0 for run 0; distinct nonzero values after). */
uint32_t ns_sim_run_perturbation(int run);

void ns_sim_options_init(NsSimOptions *opt);
void ns_sim_options_clear(NsSimOptions *opt);
/* Every option that changes a simulated time, as one line of text
 * ("model=packet;queue=100;tcp=Cubic;..."), the sync scheme excepted (it
 * belongs to the algorithm variant). Experiments digest it to key their
 * rows. Newly allocated. */
char *ns_sim_options_describe(const NsSimOptions *opt);

/* Appends to argv (a GPtrArray of g_free'd strings) the SimGrid options
 * (--cfg=NAME:VALUE) of opt's fluid network model as the replay runs it:
 * ideal and tcp on LV08 (ideal without its correction factors), smpi on
 * SMPI's factors or a calibration's (which implies smpi). The model is
 * named even where it is SimGrid's default, so that smpirun (whose default
 * is SMPI) runs the same one. FALSE, appending nothing, for the packet and
 * ns3 models. */
gboolean ns_sim_model_cfg(GPtrArray *argv, const NsSimOptions *opt);

/* Appends the user's SimGrid options (opt->cfg), each as --cfg=NAME:VALUE:
 * every SimGrid command line netsched builds ends with them, so that they
 * win over netsched's own (SimGrid applies its options in order). */
void ns_sim_user_cfg(GPtrArray *argv, const NsSimOptions *opt);

typedef struct {
  double completion;       /* s, simulated */
  double bound;            /* s, best-case time of the collective on this topology */
  double ratio;            /* completion / bound */
  double throughput;       /* bit/s: required bytes x 8 / completion */
  int n_machines;
  double *finish;          /* per schedule machine: time its last operation ended */
  uint64_t n_transfers;
  double *start, *end;     /* per transfer: posted by the sender, completed */
  uint64_t n_sync_messages;
  uint64_t n_dummy_messages;
  double wall_seconds;     /* wall time of the child */
  uint64_t packets;        /* the ns3 model: packets queued at every hop (0 elsewhere) */
  uint64_t packet_drops;   /* the ns3 model: of them dropped by full queues */
  double bytes_moved;      /* data bytes of all transfers (floating point: totals of
                              large runs exceed 64 bits) */
  char sync[64];           /* the scheme used ("posted" for posted schedules) */
  gboolean valid;          /* the schedule passed data flow, completeness and sync
                              (FALSE only with allow_invalid) */
  char invalid_reason[256];/* the first failed check's finding when !valid */
  NsRouter *routes;        /* the route table the simulation resolved (sched/ir/route.h),
                              for the caller's link analysis (analysis/link_use_internal.h); NULL
                              when it used the caller's (NsSimOptions.known) */
  double *arrival;         /* per schedule machine: its arrival a_i (s); NULL without a
                              pattern (NsSimOptions.arrival) */
  NsArrivalStats arrival_stats; /* δ̄/T, ω/T, ē and the span from the first arrival, with
                                   a pattern */
} NsSimResult;

void ns_sim_result_clear(NsSimResult *r);

/* Replays `s` on `topo`. The schedule is verified first (sched/verify/verify.h):
 * one that fails data flow, completeness or the sync check (a wait cycle
 * deadlocks) is refused with NS_ERROR_CHECK naming the first finding, unless
 * opt->allow_invalid, when it is replayed and the result marked invalid.
 * Pair-wise schemes need sync edges: when the schedule has none, or has
 * them for another scheme, they are computed here (sched/ir/sync.c) on a
 * private copy. A replay that does not complete every transfer (a deadlock)
 * is an error naming what was left waiting, never a time. Errors:
 * NS_ERROR_INPUT for inconsistent inputs (unknown machine, posted schedule
 * with a pair-wise scheme), NS_ERROR_UNSUPPORTED for a model limitation,
 * NS_ERROR_IO when the simulation died or deadlocked (the message says how
 * and what to change). */
gboolean ns_simulate(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *opt,
                     NsSimResult *result, GError **error);

/* The SimGrid platform of `topo` in an anonymous memory file (memfd, no
 * path on disk, so nothing is left behind on any exit): the caller loads
 * it as "/proc/self/fd/FD" and closes FD. `exp` as in
 * platforms/io/topology_simgrid.h. -1 with NS_ERROR_IO (or
 * NS_ERROR_UNSUPPORTED: too many explicit routes) on failure.
 * O(size of the platform). */
int ns_sim_platform_fd(const NsTopology *topo, const NsSimGridExport *exp, GError **error);

/* Writes the SimGrid platform the replay of `s` runs on: `topo`'s
 * (platforms/io/topology_simgrid.h), with the routes of the schedule's
 * transfers that take routes of their own (AT2 on a torus, explicit-route
 * schedules) in place of the topology's for those machine pairs, so that
 * `smpirun -platform` follows the schedule's routes as the replay does.
 * NS_ERROR_UNSUPPORTED when two transfers of one pair take two routes
 * (SimGrid routes a pair one way); the schedule's machines must be the
 * topology's (NS_ERROR_INPUT). O(size of the platform + transfers). */
gboolean ns_sim_write_platform(const NsTopology *topo, const NsSchedule *s, FILE *out,
                               GError **error);

/* Exports `topo` to SimGrid and compares, for every ordered machine pair,
 * SimGrid's route (sg_host_get_route, asked from an actor in a child
 * process) with netsched's. *pairs receives the number of pairs compared,
 * *mismatches those whose directed edges differ, and *first (when not
 * NULL) a description of the first of them (newly allocated; NULL when
 * none differ). O(|M|² · depth). */
gboolean ns_sim_check_routes(const NsTopology *topo, uint64_t *pairs, uint64_t *mismatches,
                             char **first, GError **error);

#endif
