/* netsched — the schedule verifier.
 *
 * Proves a Schedule correct on a Topology, or names what is wrong:
 *   data flow    chunk ownership is replayed symbolically phase by phase: a
 *                machine may only send a chunk it holds (its own, or one it
 *                received in an earlier phase — never one received in the
 *                same phase);
 *   completeness the collective's postcondition: every required (chunk,
 *                destination) delivered exactly once (alltoall: chunk
 *                (o,d) at d; allgather: chunk o at every machine; bcast:
 *                every segment at every machine), and nothing delivered
 *                that the receiver already holds: a chunk back to its
 *                origin, a second copy to a relay, a chunk listed twice in
 *                one transfer (redundant deliveries waste links and hide
 *                planner bugs);
 *   contention   on every directed edge, the rates of a phase's transfers
 *                crossing it sum to at most its bandwidth, a transfer's
 *                rate being the smallest bandwidth on its route — on links
 *                of one speed: no two transfers of a phase share a directed
 *                edge (Faraj & Yuan §3); a posted-at-once schedule is one
 *                phase;
 *   port model   a machine sends, and receives, at most as many transfers
 *                per phase as its ports: 1 (1-port, Faraj & Yuan), k, or
 *                one per link (all-port, Liu Gang et al. §II) — the
 *                topology's model of each machine unless overridden;
 *   shortest     all-to-all: every message reaches its destination over
 *                as many hops as a shortest path, relays included (Liu Gang
 *                et al.'s claim for AR and AT2); informative unless
 *                required;
 *   optimality   the schedule's transmission time — Σ over phases of the
 *                phase's duration: its slowest transfer (bytes over rate),
 *                or its busiest link's bits over bandwidth when contended —
 *                against the
 *                collective's lower bound (sched/bound/lower_bound.h); on a tree
 *                of one link speed that is phases versus the bottleneck
 *                load (Faraj & Yuan §4: load-many phases is optimal and
 *                achievable); informative unless required;
 *   sync         when the schedule carries sync edges: program order plus
 *                the sync edges form no wait cycle (a cycle deadlocks every
 *                execution); and for a pair-wise scheme (sched/ir/sync.h) they
 *                order every pair of contending transfers that the scheme
 *                separates (dissertation §3.2.3.2);
 *   coverage     the schedule's machines are every machine of the topology
 *                (a schedule left stale by a grown or shrunk cluster fails),
 *                or exactly the machines asked for (a sub-communicator), or
 *                any subset when asked (NsVerifyOptions.coverage).
 * A posted schedule whose sync scheme is window:W (Tam & Wang's synchronous
 * shuffle, sched/planners/alltoall/alltoall_shuffle.c) is checked for contention and ports
 * step by step: step k is each sender's k-th transfer in posting order
 * (Algorithm 1's loop "for i: send to φ(myid, i)"); the window lets up to
 * W items of consecutive steps be in flight at once, which eq. 4 sizes to
 * the bottleneck's buffer (§3.2) — queueing the verifier does not count as
 * contention. Any other posted schedule is one phase.
 * Every finding names the phase, the transfers and the edge or machine.
 * Findings are all counted; the first `max_findings` of each kind are
 * recorded in detail.
 */
#ifndef NETSCHED_VERIFY_H
#define NETSCHED_VERIFY_H

#include "platforms/model/topology.h"
#include "sched/bound/lower_bound.h"
#include "sched/planners/registry.h"
#include "sched/ir/route.h"
#include "sched/ir/schedule.h"
#include <stdio.h>

typedef enum {
  NS_PORT_TOPOLOGY,      /* each machine's own model (platforms/model/topology.h) */
  NS_PORT_ONE,           /* every machine 1-port */
  NS_PORT_K,             /* every machine k-port (NsVerifyOptions.k) */
  NS_PORT_ALL,           /* every machine all-port: only contention limits it */
} NsPortModel;

/* Checks that fail verification only when asked for (bits). */
typedef enum {
  NS_REQUIRE_OPTIMAL = 1 << 0,
  NS_REQUIRE_SHORTEST = 1 << 1,
} NsRequire;

typedef enum {
  NS_CHECK_DATAFLOW,     /* sender does not hold a chunk it sends */
  NS_CHECK_COMPLETE,     /* a required chunk missing or delivered twice */
  NS_CHECK_CONTENTION,   /* two transfers of a phase share a directed edge */
  NS_CHECK_PORT,         /* 1-port violated */
  NS_CHECK_OPTIMAL,      /* more phases than the lower bound */
  NS_CHECK_SYNC,         /* sync edges leave contending transfers unordered */
  NS_CHECK_SHORTEST,     /* a message took a longer path than needed */
  NS_CHECK_COVERAGE,     /* the schedule's machines are not those asked for */
  NS_N_CHECKS
} NsCheck;

typedef enum {
  NS_FIND_NOT_HELD,      /* DATAFLOW */
  NS_FIND_MISSING,       /* COMPLETE */
  NS_FIND_DUPLICATE,     /* COMPLETE */
  NS_FIND_EDGE,          /* CONTENTION */
  NS_FIND_PORT_SEND,     /* PORT */
  NS_FIND_PORT_RECV,     /* PORT */
  NS_FIND_PHASES,        /* OPTIMAL */
  NS_FIND_UNORDERED,     /* SYNC */
  NS_FIND_REDUNDANT,     /* COMPLETE: delivered to a machine that holds it already */
  NS_FIND_CYCLE,         /* SYNC: program order + sync edges wait in a cycle */
  NS_FIND_DETOUR,        /* SHORTEST: hops taken vs the shortest path */
  NS_FIND_SLOWER,        /* OPTIMAL: transmission time above the lower bound (fluid) */
  NS_FIND_UNCOVERED,     /* COVERAGE: a machine asked for (of the topology, or listed:
                            `bound` 1) is not in the schedule; `value` its topology
                            machine index */
  NS_FIND_UNLISTED,      /* COVERAGE: a schedule machine not among those listed */
  NS_N_FINDING_KINDS
} NsFindingKind;

typedef struct {
  NsFindingKind kind;
  int64_t phase;         /* -1 when not tied to a phase */
  int64_t step;          /* stepped posted schedules: the step in the phase, else -1 */
  int64_t t1, t2;        /* transfer indices (t2: the earlier transfer it clashes with), -1 */
  int edge;              /* directed edge for NS_FIND_EDGE, else -1 */
  uint32_t count;        /* NS_FIND_EDGE: transfers on the edge in that phase so far;
                            NS_FIND_PORT_*: transfers of the machine so far; its limit
                            is in `bound` */
  int machine;           /* schedule machine index, -1 */
  uint32_t chunk;
  uint64_t value;        /* NS_FIND_PHASES: number of phases; NS_FIND_MISSING:
                            how many (chunk, machine) pairs the finding stands
                            for (1, or a whole never-sent segment);
                            NS_FIND_DETOUR: hops taken; NS_FIND_UNCOVERED: the
                            topology machine */
  uint64_t bound;        /* NS_FIND_PHASES: the bottleneck load; NS_FIND_DETOUR: the
                            shortest path's hops; NS_FIND_PORT_*: the ports;
                            NS_FIND_NOT_HELD, NS_FIND_REDUNDANT of a reduction: 1
                            when `chunk` is a raw chunk (schedule.h, "Raw
                            contributions") */
  const GArray *cycle;   /* NS_FIND_CYCLE: the report's cycle (valid while it lives) */
} NsFinding;

/* Which machines the schedule must cover. */
typedef enum {
  NS_COVER_ALL,          /* every machine of the topology (the default) */
  NS_COVER_SUBSET,       /* any subset of them (a sub-communicator), as asked */
  NS_COVER_LISTED,       /* exactly the machines NsVerifyOptions.machines names */
} NsCoverage;

/* Why the optimality check did not run (NS_OPTIMAL_RAN when it did). */
typedef enum {
  NS_OPTIMAL_RAN,
  NS_OPTIMAL_POSTED,     /* a posted schedule has no phases to count */
  NS_OPTIMAL_SUBSET,     /* the bound is for all the topology's machines */
  NS_OPTIMAL_UNDEFINED,  /* broadcast and reduce: its bound T(msize) is reached only in the
                            limit of infinitely many pipeline segments (dissertation
                            §3.4.1), so no schedule is optimal against it; the ratio
                            is reported, never failed */
  NS_OPTIMAL_INVALID,    /* the schedule fails a correctness check: its time means
                            nothing */
  NS_OPTIMAL_PATTERN,    /* alltoallv, allgatherv: the bound weighs each chunk by its
                            size (netsched bound with the pattern), not checked here */
} NsOptimalSkip;

typedef struct {
  NsPortModel port;      /* default NS_PORT_TOPOLOGY */
  NsCoverage coverage;   /* default NS_COVER_ALL */
  const char *const *machines; /* NS_COVER_LISTED: NULL-terminated machine names
                            (borrowed: must outlive the verification or session) */
  int k;                 /* NS_PORT_K: ports per machine */
  int max_findings;      /* detailed findings kept per kind (default 20) */
  gboolean sync_order;   /* check that pair-wise sync edges order contending
                            transfers (default TRUE; the wait-cycle check
                            always runs when there are sync edges) */
  uint64_t max_kept;     /* transfers a session keeps at most for sync edges or
                            routes (16 bytes each; default NS_VERIFY_MAX_KEPT;
                            0: only the collective's need bounds them) */
  const NsRouter *router; /* the schedule's routes resolved by the caller
                            (ns_router_for, sched/ir/route.h), shared with its other
                            consumers; NULL, or one built for another schedule:
                            resolved here */
} NsVerifyOptions;

/* Transfers a session keeps by default: 2^24, 256 MiB, an all-to-all of
 * direct transfers on 4,096 machines (16,773,120). Whatever the option, a
 * session keeps no more than a schedule that delivers nothing twice can
 * hold (ns_schedule_max_moves). */
#define NS_VERIFY_MAX_KEPT (G_GUINT64_CONSTANT(1) << 24)

typedef struct {
  /* Which checks ran and how many findings each produced. */
  gboolean ran[NS_N_CHECKS];
  uint64_t failures[NS_N_CHECKS];
  GArray *findings;      /* NsFinding, at most max_findings per kind */
  /* Figures. */
  uint64_t n_phases, n_transfers, n_chunk_moves;
  uint64_t n_required;   /* (chunk, destination) pairs the collective needs */
  uint64_t n_delivered;  /* of those, delivered (at least once) */
  uint64_t lower_bound;  /* phases: the bound's load in whole messages per link, when
                            links have one speed and transfers one chunk (then a
                            phase takes one message time), else 0 */
  NsLowerBound bound;    /* the collective's lower bound, when optimality ran */
  double bound_s;        /* its time for the schedule's chunk size */
  double transmission_s; /* Σ over phases of its duration: the slowest transfer (bytes
                            / rate), or the busiest link (its bits / bandwidth) when
                            transfers share it beyond its bandwidth */
  uint64_t max_edge_use; /* largest number of transfers of one phase on one edge */
  int max_path_len;      /* switches on the longest route used */
  GArray *cycle;         /* uint32 transfer ids of the first wait cycle (NS_FIND_CYCLE),
                            in wait order; NULL when none */
  int n_machines, topo_machines;
  NsCollective collective; /* the schedule's */
  NsCoverage coverage;   /* what the coverage check asked for */
  int n_listed;          /* NS_COVER_LISTED: distinct machines listed */
  NsOptimalSkip optimal_skip; /* why optimality did not run */
  gboolean stepped;      /* posted under window:W, checked step by step */
  uint64_t n_steps;      /* stepped: the largest number of steps of a phase */
} NsVerifyReport;

void ns_verify_options_init(NsVerifyOptions *opt);
void ns_verify_report_clear(NsVerifyReport *r);

/* Verifies `s` on `topo`. Schedule machines are matched to topology
 * machines by name; the coverage check says whether they are the machines
 * asked for (all, a listed sub-communicator, or any subset).
 * Returns FALSE with NS_ERROR_INPUT only when the schedule cannot be
 * checked at all (a machine name unknown to the topology, a listed name
 * that is not a machine of it, indices out of range); check failures are
 * findings in the report, not errors.
 * Time O(Σ route lengths + Σ chunks + required pairs), plus one route per
 * relayed all-to-all message for the shortest-path check; memory
 * O(chunks): one bit per alltoall message plus O(|E| + |M|) stamps. The
 * same checks as a session (below) fed the schedule's phases. */
gboolean ns_verify(const NsTopology *topo, const NsSchedule *s, const NsVerifyOptions *opt,
                   NsVerifyReport *report, GError **error);

/* ---- sessions: verifying a schedule as its phases arrive ---------------
 *
 *   vs = ns_verify_begin(topo, header, opt, 0, &error);   // no phases in header
 *   for each phase: ns_verify_phase(vs, transfers, n, chunk_pool, &error);
 *   ns_verify_end(vs, tail, &report, &error);              // tail: sync edges, routes
 *   describe findings with ns_verify_session_schedule(vs), then free.
 *
 * A session checks each phase when it comes (data flow, contention, ports,
 * shortest paths, the phase's share of the transmission time) and keeps
 * only what later phases and the final checks need: the holdings (one bit
 * per all-to-all message or per (all-gather block, machine); one bit per
 * (broadcast segment sent, machine)), the relays' holdings of indirect
 * all-to-alls (a hash entry per relayed (message, machine)), O(|E| + |M|)
 * stamps, and the ends of the transfers its recorded findings name. Not
 * the phases. ns_verify() is a session over a schedule held whole.
 *
 * Sync edges (their wait-cycle and ordering checks) and transfers' own
 * routes (resolved against the transfers they route) need every phase: a
 * header carrying either, or the NS_VERIFY_KEEP flag (for files whose sync
 * edges or routes may follow their phases), makes the session keep the
 * phases (16 bytes a transfer) and check the whole schedule at the end.
 */
typedef struct NsVerifySession NsVerifySession;

typedef enum {
  NS_VERIFY_KEEP = 1 << 0, /* keep the phases: sync edges or routes may come in the tail */
} NsVerifyFlags;

/*
 * ns_verify_begin — starts verifying a schedule phase by phase.
 *
 * `header` is a schedule without phases (any it holds are ignored), copied:
 * the collective, machines, sizes, execution, and sync edges or routes when
 * they are known before the phases. `opt` NULL means the defaults;
 * `flags` NsVerifyFlags. NULL with NS_ERROR_INPUT when the header cannot be
 * checked (a machine unknown to the topology, a bad root). Time and memory
 * O(|E| + |M| + holdings).
 */
NsVerifySession *ns_verify_begin(const NsTopology *topo, const NsSchedule *header,
                                 const NsVerifyOptions *opt, unsigned flags, GError **error);
/*
 * ns_verify_whole — verifies a schedule held whole (as ns_verify) and
 * returns an ended session that owns it, for callers that describe
 * findings through sessions. Takes `s` (freed on error too). NULL with
 * ns_verify's errors. Time and memory as ns_verify.
 */
NsVerifySession *ns_verify_whole(const NsTopology *topo, NsSchedule *s,
                                 const NsVerifyOptions *opt, NsVerifyReport *report,
                                 GError **error);
/* Does the session keep the phases (NS_VERIFY_KEEP, sync edges or routes)? */
gboolean ns_verify_session_keeps(const NsVerifySession *vs);

/*
 * ns_verify_phase — checks the next phase: `n` transfers; a multi-chunk
 * transfer's chunk is an offset into `chunk_pool` (as in NsSchedule). The
 * arrays are not kept. FALSE with NS_ERROR_INPUT for an index out of range
 * ("transfer #T ..."); the session can then only be freed. O(Σ route
 * lengths + chunks of the phase).
 */
gboolean ns_verify_phase(NsVerifySession *vs, const NsTransfer *transfers, uint64_t n,
                         const uint32_t *chunk_pool, GError **error);

/*
 * ns_verify_phase_array — ns_verify_phase on the transfers of an array
 * (NsTransfer, all of it), which the session may keep: it then puts an
 * empty NsTransfer array of its own in *transfers (a streamed planner's
 * phase handed to the link thread without a copy, NsPhaseSink.phase_array).
 * Errors and costs as ns_verify_phase.
 */
gboolean ns_verify_phase_array(NsVerifySession *vs, GArray **transfers,
                               const uint32_t *chunk_pool, GError **error);

/*
 * ns_verify_end — the final checks (completeness, optimality, sync) into
 * `report` (cleared first; ns_verify_report_clear it). `tail` (or NULL)
 * brings the sync scheme, and sync edges and routes that came after the
 * phases: a session that does not keep its phases fails with
 * NS_ERROR_UNSUPPORTED when it has any. Otherwise errors as ns_verify. Once
 * per session.
 */
gboolean ns_verify_end(NsVerifySession *vs, const NsSchedule *tail, NsVerifyReport *report,
                       GError **error);

/* A schedule to describe the report's findings with (ns_verify_write_text
 * and the others): the whole schedule when kept; else the header with the
 * transfers the findings name, at their indices (the others are reserved
 * memory, never written nor read). Owned by the session; after end. */
const NsSchedule *ns_verify_session_schedule(NsVerifySession *vs);
void ns_verify_session_free(NsVerifySession *vs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsVerifySession, ns_verify_session_free)

/*
 * ns_verify_planned — plans a collective and verifies the schedule as it
 * is planned (verify_plan.c).
 *
 * The planner's phases go straight into a session (ns_plan_streamed): for
 * a planner that streams, the schedule is never held whole, so memory is
 * the topology, one phase and the holdings (p² bits for all-to-all), not
 * 16 bytes a transfer; for any other planner the schedule is built first.
 * Fills *report as ns_verify_end does and returns the session (it
 * describes the findings: ns_verify_session_schedule; the caller frees
 * it). `progress`, when not NULL, is called after each phase with the
 * transfers verified so far (progress lines). NULL with the planner's
 * error (NS_ERROR_INPUT, NS_ERROR_UNSUPPORTED) or the verifier's. Time:
 * the planner's plus the verifier's.
 */
typedef void (*NsVerifyProgress)(uint64_t transfers, gpointer data);
NsVerifySession *ns_verify_planned(const NsTopology *topo, NsCollective collective,
                                   const char *algorithm, const NsPlanParams *params,
                                   const NsVerifyOptions *opt, NsVerifyProgress progress,
                                   gpointer progress_data, NsVerifyReport *report,
                                   GError **error);

/* Is `s` checked step by step (posted under window:W; see the header)? */
gboolean ns_verify_stepped(const NsSchedule *s);
/* Does a session that did not keep its phases fail to end with `tail`:
 * sync edges or routes, or a sync scheme that changes whether the posted
 * schedule is checked step by step (JSON writes sync_scheme after the
 * phases)? Callers that can read the schedule again then keep its phases. */
gboolean ns_verify_tail_needs_phases(const NsSchedule *header, const NsSchedule *tail);

/* TRUE when every check that ran found nothing, ignoring optimality and
 * shortest paths unless `required` (NsRequire bits) asks for them. */
gboolean ns_verify_passed(const NsVerifyReport *r, unsigned required);

const char *ns_check_name(NsCheck c);
NsCheck ns_finding_check(NsFindingKind k);

/* Reports (verify_report.c). Text for people, JSON (documented in
 * docs/verify.md) and JUnit XML for CI systems. Each names the schedule:
 * `file`, or "(planned)" when NULL. */
void ns_verify_write_text(const NsVerifyReport *r, const NsTopology *topo,
                          const NsSchedule *s, const char *file, unsigned required, FILE *out);
gboolean ns_verify_write_json(const NsVerifyReport *r, const NsTopology *topo,
                              const NsSchedule *s, const char *file, unsigned required,
                              FILE *out, GError **error);
gboolean ns_verify_write_junit(const NsVerifyReport *r, const NsTopology *topo,
                               const NsSchedule *s, const char *file, unsigned required,
                               FILE *out, GError **error);
/* The pieces of a JUnit document with several suites: the header, one
 * suite per verified schedule (named "FILE: collective/algorithm on
 * TOPOLOGY"), one suite with an <error> for an input that could not be
 * verified (`name` the file, `message` why), the footer. */
void ns_verify_junit_begin(FILE *out);
void ns_verify_junit_suite(const NsVerifyReport *r, const NsTopology *topo, const NsSchedule *s,
                           const char *file, unsigned required, FILE *out);
void ns_verify_junit_error(const char *name, const char *message, FILE *out);
void ns_verify_junit_end(FILE *out);
/* The JSON report of one schedule as a node (for arrays of reports). */
struct _JsonNode;
struct _JsonNode *ns_verify_report_json(const NsVerifyReport *r, const NsTopology *topo,
                                        const NsSchedule *s, const char *file,
                                        unsigned required);
/* One line describing a finding, e.g. "phase 3: transfers #12 n0->n5 and
 * #9 n1->n6 share edge s0->s1" (newly allocated). */
char *ns_finding_describe(const NsFinding *f, const NsTopology *topo, const NsSchedule *s);

#endif
