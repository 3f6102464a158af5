/* netsched — the schedule verifier: symbolic replay of chunk ownership,
 * completeness, rate-weighted contention on directed edges, port models,
 * shortest paths and optimality against the lower bound. See verify.h. */
#include "sched/verify/verify.h"
#include "sched/io/schedule_stream.h"
#include "platforms/model/error.h"
#include "sched/bound/lower_bound.h"
#include "sched/verify/chunk_bits_internal.h"
#include "sched/verify/relay_set_internal.h"
#include "sched/verify/message_holder_internal.h"
#include "sched/verify/reduction_state_internal.h"
#include "sched/verify/tree_links_internal.h"
#include "sched/ir/counts_internal.h"
#include "sched/ir/route.h"
#include "sched/ir/route_table_internal.h"
#include "sched/ir/sync.h"
#include <pthread.h>
#include <string.h>
#include <time.h>

static const char *const check_names[NS_N_CHECKS] = {
  [NS_CHECK_DATAFLOW] = "dataflow",
  [NS_CHECK_COMPLETE] = "complete",
  [NS_CHECK_CONTENTION] = "contention-free",
  [NS_CHECK_PORT] = "port-model",
  [NS_CHECK_OPTIMAL] = "optimal",
  [NS_CHECK_SYNC] = "sync",
  [NS_CHECK_SHORTEST] = "shortest-path",
  [NS_CHECK_COVERAGE] = "coverage",
};

/**
 * \function ns_check_name
 * \brief A check's name in reports ("dataflow", "contention", ...).
 *
 * \param c The check.
 * \return A static string.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md.
 */
const char *ns_check_name(NsCheck c) { return check_names[c]; }

/**
 * \function ns_finding_check
 * \brief The check a kind of finding belongs to.
 *
 * \param k The finding's kind.
 * \return The check that reports it.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md.
 */
NsCheck ns_finding_check(NsFindingKind k)
{
  switch (k) {
  case NS_FIND_NOT_HELD: return NS_CHECK_DATAFLOW;
  case NS_FIND_MISSING:
  case NS_FIND_DUPLICATE: return NS_CHECK_COMPLETE;
  case NS_FIND_EDGE: return NS_CHECK_CONTENTION;
  case NS_FIND_PORT_SEND:
  case NS_FIND_PORT_RECV: return NS_CHECK_PORT;
  case NS_FIND_PHASES: return NS_CHECK_OPTIMAL;
  case NS_FIND_UNORDERED: return NS_CHECK_SYNC;
  case NS_FIND_REDUNDANT: return NS_CHECK_COMPLETE;
  case NS_FIND_CYCLE: return NS_CHECK_SYNC;
  case NS_FIND_DETOUR: return NS_CHECK_SHORTEST;
  case NS_FIND_SLOWER: return NS_CHECK_OPTIMAL;
  case NS_FIND_UNCOVERED:
  case NS_FIND_UNLISTED: return NS_CHECK_COVERAGE;
  case NS_N_FINDING_KINDS: break;
  }
  return NS_CHECK_OPTIMAL;
}

/**
 * \function ns_verify_options_init
 * \brief Sets verification options to their defaults.
 *
 * Every check on, coverage of all the topology's machines, the default
 * limits on what a session keeps; change fields after this call.
 *
 * \param opt The options to fill.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md.
 */
void ns_verify_options_init(NsVerifyOptions *opt)
{
  opt->port = NS_PORT_TOPOLOGY;
  opt->coverage = NS_COVER_ALL;
  opt->machines = NULL;
  opt->k = 1;
  opt->max_findings = 20;
  opt->sync_order = TRUE;
  opt->max_kept = NS_VERIFY_MAX_KEPT;
  opt->router = NULL;
}

/**
 * \function ns_verify_stepped
 * \brief Whether a schedule is checked step by step.
 *
 * A posted schedule under the sync scheme window:W is checked per step of
 * W transfers a machine, not per phase.
 *
 * \param s The schedule (its header suffices).
 * \return TRUE for posted execution under window:W.
 * \errors none.
 * \complexity O(length of the sync scheme's name).
 * \source docs/verify.md.
 */
gboolean ns_verify_stepped(const NsSchedule *s)
{
  NsSyncScheme scheme;
  return s->execution == NS_EXEC_POSTED && s->sync_scheme != NULL &&
         ns_sync_scheme_parse(s->sync_scheme, &scheme, NULL) && scheme.kind == NS_SYNC_WINDOW;
}

/**
 * \function ns_verify_tail_needs_phases
 * \brief Whether a session that kept no phases cannot end with this tail.
 *
 * True when the tail brings sync edges or routes, or a sync scheme that
 * changes whether the posted schedule is checked step by step (JSON writes
 * sync_scheme after the phases); callers that can read the schedule again
 * then keep its phases.
 *
 * \param header The header the session began with.
 * \param tail What came after the phases.
 * \return TRUE when the phases are needed.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md.
 */
gboolean ns_verify_tail_needs_phases(const NsSchedule *header, const NsSchedule *tail)
{
  if (tail->sync->len > 0 || tail->sync_set || (tail->routes != NULL && tail->routes->len > 0))
    return TRUE;
  if (tail->sync_scheme == NULL || header->execution != NS_EXEC_POSTED)
    return FALSE;
  NsSyncScheme scheme;
  gboolean window = ns_sync_scheme_parse(tail->sync_scheme, &scheme, NULL) &&
                    scheme.kind == NS_SYNC_WINDOW;
  return window != ns_verify_stepped(header); /* the steps change what is checked */
}

/**
 * \function ns_verify_report_clear
 * \brief Frees what a verification report holds and empties it.
 *
 * \param r A report filled by ns_verify() or a session (or zeroed).
 * \errors none.
 * \complexity O(findings kept).
 * \source docs/verify.md.
 */
void ns_verify_report_clear(NsVerifyReport *r)
{
  if (r->findings != NULL)
    g_array_unref(r->findings);
  if (r->cycle != NULL)
    g_array_unref(r->cycle);
  memset(r, 0, sizeof *r);
}

/**
 * \function ns_verify_passed
 * \brief Whether every check that ran found nothing.
 *
 * Optimality and shortest paths are informative unless `required` asks
 * for them.
 *
 * \param r A filled report.
 * \param required NsRequire bits: NS_REQUIRE_OPTIMAL, NS_REQUIRE_SHORTEST.
 * \return TRUE when the schedule passes.
 * \errors none.
 * \complexity O(number of checks).
 * \source docs/verify.md.
 */
gboolean ns_verify_passed(const NsVerifyReport *r, unsigned required)
{
  for (int c = 0; c < NS_N_CHECKS; c++) {
    if (c == NS_CHECK_OPTIMAL && !(required & NS_REQUIRE_OPTIMAL))
      continue;
    if (c == NS_CHECK_SHORTEST && !(required & NS_REQUIRE_SHORTEST))
      continue;
    if (r->ran[c] && r->failures[c] > 0)
      return FALSE;
  }
  return TRUE;
}

/* ---- state of the replay --------------------------------------------- */

/* A directed edge in the phase being replayed (valid when stamp is the
 * phase's): its first transfer, how many cross it, their rates and bits. */
typedef struct {
  uint64_t stamp, owner;
  double rate, bits;
  uint32_t uses;
} EdgeUse;

/* A machine's ports (counted up to 65,534: a machine with more is
 * checked by check_port() once it uses that many) and its sends and
 * receives in the group check_unshared() is checking (valid when the tag
 * is the group's): 8 bytes a machine, the first try's port check in the
 * same pass as its edges. */
typedef struct {
  uint16_t ports, sends, recvs;
  uint8_t send_tag, recv_tag;
} PortMark;

/* Where findings go: a list (at most max_findings of each kind), counts
 * per check, and (streamed) the ends of the transfers the kept ones name,
 * read from the phase being checked. */
typedef struct {
  GArray *findings;
  uint32_t n_kinds[NS_N_FINDING_KINDS];
  uint64_t *failures;        /* NS_N_CHECKS counters */
  int max_findings;
  GHashTable *named;         /* transfer + 1 -> (src << 32 | dst) + 1, or NULL */
  const NsTransfer *tr;      /* the phase being checked: tr[t - first] is transfer t */
  uint64_t first;
} Sink;

/* The link side of the replay: contention, ports, path lengths and the
 * transmission time. Each phase is checked on its own (stamps tell phases
 * apart), so this side may run on a thread of its own, a few phases behind
 * the data flow; its findings are merged back in the order of a sequential
 * replay (a phase's data-flow findings, then its link findings). */
typedef struct {
  const NsTopology *topo;
  const NsRouter *router;         /* borrowed from the replay (read only) */
  const NsRouteTable *table;      /* borrowed from the replay: the routes without a router */
  const int *node;
  double msize_bits;
  const uint64_t *chunk_bytes; /* alltoallv, allgatherv: each chunk's bytes, else NULL */
  uint32_t segments;         /* a reduction's: its raw chunk o·S + s is segment s's size */
  const uint32_t *pool;      /* with chunk_bytes: the chunk pool of the phase checked */
  gboolean ports_check;
  EdgeUse *edge;             /* per directed edge, in the current phase */
  NsEdgeMarks edge_marks;    /* per directed edge: the group that crossed it last (first try) */
  uint8_t mark_tag;          /* the port marks' tag of the group check_unshared() checks */
  int n_edges;
  double *edge_bw;           /* bandwidth of each directed edge's link */
  double uniform_bw;         /* the bandwidth of every link, or 0 when they differ */
  PortMark *port_mark;       /* per schedule machine, for check_unshared() */
  NsTreeLinks tree;          /* check_unshared()'s walk on a tree of one depth, or table NULL */
  int own_levels;            /* 1: check_unshared() leaves the fat-tree closed form's level 0
                                (the machines' own links) unmarked and lets no machine send
                                or receive twice in a group instead; 0: marks every level */
  uint64_t *send_stamp, *recv_stamp, *send_owner, *recv_owner;
  uint32_t *send_count, *recv_count;
  int *ports;                /* per schedule machine: transfers per phase */
  int *route;
  /* posted under window:W: each phase checked step by step (see verify.h) */
  gboolean stepped;
  int n_machines;
  uint32_t *sent;            /* per schedule machine: its transfers so far in the phase */
  uint64_t *step_start;      /* per step: its first entry in `order`, then its end */
  uint32_t *order;           /* the phase's transfers (offsets) grouped by step */
  uint64_t order_cap, steps_cap, n_steps;
  int64_t step;              /* the step being checked, -1 */
  uint64_t group;            /* stamp of the group (phase or step) being checked */
  double transmission;       /* Σ over phases of the phase's duration */
  GArray *durations;         /* DurationRun, or NULL: a batch's group durations, in order, summed
                                into `transmission` when the batch is retired (links_retire) */
  int max_path_len;
  uint64_t max_edge_use;
  uint64_t failures[NS_N_CHECKS];
  Sink sink;
} Links;

/* `count` groups in a row that lasted `seconds` each (bit for bit): a
 * batch's durations, run-length coded — faraj's 15.7 M phases on 16,384
 * machines last the same time each, so a batch keeps one run where it
 * appended a double a phase. */
typedef struct {
  double seconds;
  uint64_t count;
} DurationRun;

/* A batch of phases handed to the link thread: their transfers back to
 * back, or a long phase of a streamed planner in its own array, taken
 * from the planner without a copy (chunk lists are not needed there:
 * batches whose data flow the thread replays hold one-chunk transfers
 * only, and the link checks need the pool only for chunks of their own
 * sizes, which stay inline). */
typedef struct {
  uint32_t phase;
  uint64_t first, offset, n;
  GArray *own;               /* the phase's own array (NsTransfer), or NULL: at offset in transfers */
} BatchPhase;

/* Phases at least this long are taken from a streamed planner in their
 * own array rather than copied (ns_verify_phase_array): shift's 16,384
 * transfers a phase on 16,384 machines cost 1.3 s of copying.
 * NETSCHED_VERIFY_TAKE_TRANSFERS overrides it (tests take every phase). */
#define LINKS_TAKE_MIN 1024

/* The batch's link results when its links were checked apart from the
 * thread's running state (by either thread): each group's duration in
 * order, the findings (each kind capped within the batch) and their
 * counts; links_retire() adds them in batch order, so that the sum, the
 * caps and the order are a sequential replay's. */
typedef struct {
  GArray *transfers;         /* NsTransfer */
  uint64_t n_transfers;      /* in `transfers` and the phases' own arrays */
  GPtrArray *spare;          /* empty NsTransfer arrays, given to the planner for the ones taken */
  GArray *phases;            /* BatchPhase */
  GArray *durations;         /* DurationRun */
  GArray *findings;          /* NsFinding */
  uint64_t failures[NS_N_CHECKS];
  gboolean flow;             /* the link thread replays the batch's data flow too */
  gboolean linked;           /* the calling thread checked the batch's links */
} Batch;

/* A queue of batches between two threads (POSIX mutex and condition
 * variable, which thread sanitizers understand; GLib's futex-based
 * GAsyncQueue they do not). At most LINKS_BATCHES + 1 entries. */
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t ready;
  Batch *item[8];
  unsigned head, count;
} BatchQueue;

static void queue_init(BatchQueue *q)
{
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->ready, NULL);
  q->head = q->count = 0;
}

static void queue_clear(BatchQueue *q)
{
  pthread_mutex_destroy(&q->lock);
  pthread_cond_destroy(&q->ready);
}

static void queue_push(BatchQueue *q, Batch *b)
{
  pthread_mutex_lock(&q->lock);
  g_assert(q->count < G_N_ELEMENTS(q->item));
  q->item[(q->head + q->count++) % G_N_ELEMENTS(q->item)] = b;
  pthread_cond_signal(&q->ready);
  pthread_mutex_unlock(&q->lock);
}

/* Batches waiting in the queue. */
static unsigned queue_waiting(BatchQueue *q)
{
  pthread_mutex_lock(&q->lock);
  unsigned n = q->count;
  pthread_mutex_unlock(&q->lock);
  return n;
}

static Batch *queue_pop(BatchQueue *q)
{
  pthread_mutex_lock(&q->lock);
  while (q->count == 0)
    pthread_cond_wait(&q->ready, &q->lock);
  Batch *b = q->item[q->head];
  q->head = (q->head + 1) % G_N_ELEMENTS(q->item);
  q->count--;
  pthread_mutex_unlock(&q->lock);
  return b;
}

/* Transfers checked on the calling thread before the link side gets a
 * thread of its own (the environment variable
 * NETSCHED_VERIFY_INLINE_TRANSFERS overrides it: tests set 0 to run the
 * thread on small schedules), transfers per batch
 * (NETSCHED_VERIFY_BATCH_TRANSFERS: tests make them small) and batches
 * in flight. */
#define LINKS_INLINE (1u << 20)
#define LINKS_BATCH (1u << 16)
#define LINKS_BATCHES 4

/* Which batches' link checks the calling thread takes on itself
 * (NETSCHED_VERIFY_SPLIT: "never", "alternate" for tests, else dynamic). */
typedef enum { SPLIT_DYNAMIC, SPLIT_NEVER, SPLIT_ALTERNATE } Split;

/* The replay works on one phase at a time, given as an array of transfers
 * and their chunk pool, so the same code checks a schedule held whole
 * (ns_verify) and one that streams in (a session). With a whole schedule
 * (`whole`) transfers may take routes of their own and the sync checks
 * run; a streamed one is routed by the topology alone. */
typedef struct {
  const NsTopology *topo;
  const NsSchedule *s;       /* the header: collective, machines, sizes, execution */
  NsCollective kind;         /* whose chunks the collective's follow (alltoallv: alltoall) */
  gboolean reduction;        /* reduce, allreduce: `red` holds the partial results */
  NsReductionState red;
  const NsSchedule *whole;   /* the whole schedule, when there is one */
  const NsVerifyOptions *opt;
  NsVerifyReport *r;
  int p;                     /* schedule machines */
  int *node;                 /* schedule machine -> topology node */
  /* Holdings, one bit each (set: delivered). alltoall: bit `chunk` for
   * chunk (o,d) at d, and `relay` holds (chunk, machine) for
   * intermediates of indirect algorithms. allgather/bcast: bit
   * chunk * p + machine; bcast rows exist for the segments sent so far
   * (n_counted), added as they come. */
  NsChunkBits delivered;
  uint32_t n_counted;        /* bcast: segments with a count row (those ever sent) */
  uint32_t rows_cap;         /* bcast: rows allocated */
  NsRelaySet *relay;         /* alltoall: (chunk, intermediate) -> hops, once one occurs */
  uint64_t *holder;          /* alltoall with store-and-forward relays: each message's one
                                holder instead of `relay` (message_holder_internal.h) */
  uint64_t n_holder;         /* its words */
  GArray *scratch;           /* uint32: a transfer's chunks, sorted */
  GArray *hops_seen;         /* uint32: check_dataflow's hops of the phase's chunks */
  Sink sink;                 /* the data flow's findings: the report's list */
  int *route;
  const NsRouter *router;    /* with `whole`: transfers' own routes or the topology's */
  NsRouter *own_router;      /* the router when built here (not opt->router) */
  NsRouteTable *table;       /* without `whole`: the topology's routes (ns_route_table_new) */
  gboolean shortest;         /* run the shortest-path check (alltoall) */
  gboolean explicit_routing; /* the topology routes by explicit routes */
  gboolean one_chunk;        /* every transfer so far carries one chunk */
  int *dist;                 /* explicit routing: BFS row of dist_origin */
  int dist_origin;
  int grid_dims;             /* dimension-order routing on a grid: its dimensions, else 0 */
  int grid_size[NS_MAX_DIMS];
  gboolean grid_wrap;
  uint16_t *grid_coord;      /* schedule machine · grid_dims + d: its coordinate */
  const uint32_t *pool;      /* the chunk pool of the phase being replayed */
  uint64_t flow_end;          /* transfers up to here are at sink.tr (prefetching) */
  /* the link side, and its thread once the schedule is large */
  Links links;               /* inline, then the link thread's */
  Links links_calling;       /* the calling thread's, for the batches it checks itself */
  uint64_t links_inline;     /* transfers checked inline so far */
  uint64_t links_inline_max; /* ... before the link thread starts (G_MAXUINT64: never) */
  uint64_t batch_max;        /* transfers per batch */
  uint64_t take_min;         /* phases kept in their own array from this length on */
  Split split;
  uint64_t n_batches;        /* batches handed to the thread */
  gboolean flow_on_worker;   /* the thread replays the data flow too (one-chunk phases) */
  double calling_cpu0;       /* the calling thread's CPU seconds when the thread started */
  gint worker_clock;         /* the thread's CPU clock (clockid_t), once worker_clock_set */
  gint worker_clock_set;
  GThread *worker;
  BatchQueue todo, done;     /* full batches to the thread, empty ones back */
  Batch *filling;
  Batch batches[LINKS_BATCHES];
} Replay;

static inline const NsTransfer *tr_at(const Replay *st, uint64_t t)
{
  return &st->sink.tr[t - st->sink.first];
}

static inline const uint32_t *chunks_of(const Replay *st, const NsTransfer *tr)
{
  return tr->n_chunks == 1 ? &tr->chunk : st->pool + tr->chunk;
}

/* Remembers the ends of a transfer a recorded finding names (streamed: the
 * report describes it after its phase is gone). */
static void name_transfer(Sink *k, int64_t t)
{
  if (k->named == NULL || t < 0 || (uint64_t)t < k->first)
    return;
  const NsTransfer *tr = &k->tr[(uint64_t)t - k->first];
  guint64 v = ((guint64)(uint32_t)tr->src << 32 | (uint32_t)tr->dst) + 1;
  g_hash_table_insert(k->named, GSIZE_TO_POINTER((gsize)t + 1), GSIZE_TO_POINTER((gsize)v));
}

/* Keeps a finding already counted, when its kind is under the cap. */
static void sink_keep(Sink *k, const NsFinding *f)
{
  if (k->n_kinds[f->kind] < (uint32_t)k->max_findings) {
    k->n_kinds[f->kind]++;
    g_array_append_val(k->findings, *f);
    name_transfer(k, f->t1);
    name_transfer(k, f->t2);
  }
}

static void sink_add(Sink *k, NsFinding f)
{
  k->failures[ns_finding_check(f.kind)]++;
  sink_keep(k, &f);
}

static inline void add_finding(Replay *st, NsFinding f)
{
  sink_add(&st->sink, f);
}

static NsFinding finding(NsFindingKind kind, int64_t phase, int64_t t1)
{
  return (NsFinding){ .kind = kind, .phase = phase, .step = -1, .t1 = t1, .t2 = -1, .edge = -1,
                      .machine = -1, .chunk = 0, .value = 0, .bound = 0,
                      .cycle = NULL };
}

/* The directed edges of transfer t into `edges`: its own route or the
 * topology's, read from the router's route table (a schedule held whole)
 * or the replay's (streamed). */
static inline int route_into(const NsRouteTable *table, const NsRouter *router, const int *node,
                             uint64_t t, const NsTransfer *tr, int *edges)
{
  if (router != NULL)
    return ns_router_route(router, t, edges);
  int len = ns_route_table_tree_route(table, node[tr->src], node[tr->dst], edges); /* inline */
  return len >= 0 ? len : ns_route_table_route(table, node[tr->src], node[tr->dst], edges);
}

static inline int route_of(Replay *st, uint64_t t, const NsTransfer *tr)
{
  return route_into(st->table, st->router, st->node, t, tr, st->route);
}

/* Does machine m hold chunk c (before the current phase's receipts)?
 * With it, the hops an all-to-all chunk travelled to reach m in *hops (0
 * at its origin; left alone when not held). */
static gboolean holds(const Replay *st, int m, uint32_t c, uint32_t *hops)
{
  const NsSchedule *s = st->s;
  switch (st->kind) {
  case NS_COLL_ALLTOALL: {
    int o = (int)(c / (uint32_t)st->p), d = (int)(c % (uint32_t)st->p);
    if (st->holder != NULL) { /* store and forward: one holder, until it forwards */
      uint64_t w = st->holder[c];
      if (ns_holder_machine(w, o) != m)
        return FALSE;
      *hops = ns_holder_hops(w);
      return TRUE;
    }
    if (m == o) {
      *hops = 0;
      return TRUE;
    }
    if (m == d && ns_chunk_bits_test(&st->delivered, c)) {
      *hops = 0; /* a destination's hops are never asked for again */
      return TRUE;
    }
    return st->relay != NULL && ns_relay_set_find(st->relay, c, (uint32_t)m, hops);
  }
  case NS_COLL_ALLGATHER:
    return m == (int)c || ns_chunk_bits_test(&st->delivered, (uint64_t)c * st->p + m);
  case NS_COLL_BCAST:
    return m == s->root || ns_chunk_bits_test(&st->delivered, (uint64_t)c * st->p + m);
  default: /* st->kind is one of the three */
    break;
  }
  return FALSE;
}

typedef enum { RECEIVED, RECEIVED_TWICE, RECEIVED_REDUNDANT } Receipt;

/* Chunks ahead of the one checked whose holder words are fetched: a
 * table of p² words is read at random, one DRAM latency a word. */
#define HOLDER_AHEAD 32

/* Store and forward: machine m (not c's destination) receives all-to-all
 * message c and becomes its holder; redundant when it is c's origin or
 * holds c already (it got it earlier in this phase, or held it and did
 * not forward it). */
static Receipt receive_held(Replay *st, int m, uint32_t c, uint32_t hops)
{
  int o = (int)(c / (uint32_t)st->p);
  uint64_t *w = &st->holder[c];
  gboolean had = ns_holder_machine(*w, o) == m;
  *w = ns_holder_word(m, hops);
  return m == o || had ? RECEIVED_REDUNDANT : RECEIVED;
}

/* Machine m receives chunk c: a first delivery, a second delivery to a
 * destination (the postcondition says exactly once), or a redundant one —
 * to the chunk's origin (the allgather block's owner, the bcast root), or a
 * second copy to an intermediate of an indirect algorithm. */
static Receipt receive(Replay *st, int m, uint32_t c, uint32_t hops)
{
  const NsSchedule *s = st->s;
  uint64_t bit;
  if (st->kind == NS_COLL_ALLTOALL) {
    int o = (int)(c / (uint32_t)st->p), d = (int)(c % (uint32_t)st->p);
    if (st->holder != NULL && m != d)
      return receive_held(st, m, c, hops);
    if (st->holder != NULL) /* the destination holds it now (and may forward it on) */
      st->holder[c] = ns_holder_word(m, hops);
    if (m == o)
      return RECEIVED_REDUNDANT;
    if (m != d) { /* an intermediate of an indirect algorithm: it keeps its copy */
      if (st->relay == NULL)
        st->relay = ns_relay_set_new();
      return ns_relay_set_add(st->relay, c, (uint32_t)m, hops) ? RECEIVED : RECEIVED_REDUNDANT;
    }
    bit = c;
  } else {
    if (m == (st->kind == NS_COLL_ALLGATHER ? (int)c : s->root))
      return RECEIVED_REDUNDANT;
    bit = (uint64_t)c * st->p + m;
  }
  if (!ns_chunk_bits_set(&st->delivered, bit))
    return RECEIVED_TWICE;
  st->r->n_delivered++;
  return RECEIVED;
}

static int compare_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The first chunk listed twice in a transfer, or -1. O(k log k). */
static int64_t repeated_chunk(Replay *st, const NsTransfer *tr, const uint32_t *chunks)
{
  if (tr->n_chunks < 2)
    return -1;
  uint32_t run = 1; /* chunks listed in increasing order (combining planners do) need no sort */
  while (run < tr->n_chunks && chunks[run - 1] < chunks[run])
    run++;
  if (run == tr->n_chunks)
    return -1;
  g_array_set_size(st->scratch, tr->n_chunks);
  uint32_t *sorted = (uint32_t *)st->scratch->data;
  memcpy(sorted, chunks, sizeof(uint32_t) * tr->n_chunks);
  qsort(sorted, tr->n_chunks, sizeof(uint32_t), compare_u32);
  for (uint32_t k = 1; k < tr->n_chunks; k++)
    if (sorted[k] == sorted[k - 1])
      return sorted[k];
  return -1;
}

/* Hops of the shortest path between two schedule machines: the length of
 * their route, which is a shortest path under every routing but explicit
 * routes (there: a breadth-first search, one row per origin). */
static uint32_t shortest_hops(Replay *st, int o, int d)
{
  if (st->grid_dims > 0) { /* the route's length without walking it */
    uint32_t hops = 0;
    const uint16_t *a = &st->grid_coord[o * st->grid_dims], *b = &st->grid_coord[d * st->grid_dims];
    for (int k = 0; k < st->grid_dims; k++) {
      int n = st->grid_size[k], delta = abs((int)a[k] - (int)b[k]);
      hops += (uint32_t)(st->grid_wrap && 2 * delta > n ? n - delta : delta);
    }
    return hops;
  }
  if (ns_topology_routing(st->topo) != NS_ROUTING_EXPLICIT)
    return (uint32_t)ns_topology_route(st->topo, st->node[o], st->node[d], st->route);
  if (st->dist == NULL)
    st->dist = g_new(int, ns_topology_n_nodes(st->topo));
  if (st->dist_origin != o) {
    ns_topology_hop_distances(st->topo, st->node[o], st->dist);
    st->dist_origin = o;
  }
  return (uint32_t)st->dist[st->node[d]];
}

/* Dimension-order routing on a grid (platforms/routing/routing_grid.c)
 * takes, along each dimension, the shorter way round a ring or straight
 * along a mesh: a route's length is Σ min(δ, N − δ) (or δ), which the
 * shortest-path check of relayed messages — one per delivery, p² of them
 * for Liu Gang et al.'s exchanges — reads from the machines' coordinates
 * instead of walking the route. */
static void grid_begin(Replay *st)
{
  if (ns_topology_routing(st->topo) != NS_ROUTING_DIMENSION_ORDER)
    return;
  int dims = ns_topology_grid(st->topo, st->grid_size, &st->grid_wrap);
  for (int k = 0; k < dims; k++)
    if (st->grid_size[k] > UINT16_MAX)
      return;
  if (dims <= 0)
    return;
  st->grid_coord = g_new(uint16_t, (gsize)st->p * (gsize)dims);
  for (int i = 0; i < st->p; i++) {
    int c[NS_MAX_DIMS], m = ns_topology_find_machine(st->topo, st->s->machines[i]);
    ns_topology_machine_coords(st->topo, m, c);
    for (int k = 0; k < dims; k++)
      st->grid_coord[i * dims + k] = (uint16_t)c[k];
  }
  st->grid_dims = dims;
}

/* ---- the checks --------------------------------------------------------- */

/* An all-to-all transfer carrying only its own message src -> dst (its
 * sender holds it, it needs no relay bookkeeping; not with
 * store-and-forward relays, where the origin may have forwarded it). */
static inline gboolean direct_a2a(const Replay *st, const NsTransfer *tr)
{
  return st->kind == NS_COLL_ALLTOALL && st->holder == NULL && tr->n_chunks == 1 &&
         tr->chunk == (uint32_t)tr->src * (uint32_t)st->p + (uint32_t)tr->dst;
}

/* Each relayed all-to-all chunk's holder is looked up once, in the first
 * pass over the phase; the hops it travelled wait in `hops_seen` (one per
 * chunk of the phase's transfers that are not direct, in order) for the
 * second. */
/* A reduction's phase: every sender holds a partial result of every
 * segment (its own contribution at least), so nothing is "not held"; each
 * receipt combines or copies the sender's partial as it was before the
 * phase (sched/ir/schedule.h, "Reductions"), and a combine of two sets
 * that share an origin counts that contribution twice. */
/* A raw transfer (schedule.h, "Raw contributions") needs its sender to
 * hold each raw chunk when the phase begins: checked in the first pass,
 * before any receipt of the phase; `bound` 1 marks the finding's chunk
 * as a raw one for its description. */
static void check_raw_held(Replay *st, uint64_t phase, uint64_t t, const NsTransfer *tr,
                           const uint32_t *chunks)
{
  for (uint32_t k = 0; k < tr->n_chunks; k++) {
    if (ns_reduction_raw_held(&st->red, tr->src, chunks[k]))
      continue;
    NsFinding f = finding(NS_FIND_NOT_HELD, (int64_t)phase, (int64_t)t);
    f.machine = tr->src;
    f.chunk = chunks[k];
    f.bound = 1;
    add_finding(st, f);
  }
}

/* The receipts of a raw transfer: the receiver holds each raw chunk from
 * now on; one it held already is a redundant delivery. */
static void receive_raw(Replay *st, uint64_t phase, uint64_t t, const NsTransfer *tr,
                        const uint32_t *chunks)
{
  for (uint32_t k = 0; k < tr->n_chunks; k++) {
    if (ns_reduction_raw_give(&st->red, tr->dst, chunks[k]))
      continue;
    NsFinding f = finding(NS_FIND_REDUNDANT, (int64_t)phase, (int64_t)t);
    f.machine = tr->dst;
    f.chunk = chunks[k];
    f.bound = 1;
    add_finding(st, f);
  }
}

static void check_dataflow_reduction(Replay *st, uint64_t phase, uint64_t first, uint64_t n)
{
  NsReductionState *rs = &st->red;
  ns_reduction_stage_begin(rs);
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = tr_at(st, t);
    const uint32_t *chunks = chunks_of(st, tr);
    if (tr->raw) {
      check_raw_held(st, phase, t, tr, chunks);
      continue;
    }
    for (uint32_t k = 0; k < tr->n_chunks; k++)
      ns_reduction_stage(rs, tr->src, chunks[k]);
  }
  uint64_t staged = 0;
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = tr_at(st, t);
    const uint32_t *chunks = chunks_of(st, tr);
    st->r->n_chunk_moves += tr->n_chunks;
    int64_t listed_twice = repeated_chunk(st, tr, chunks);
    if (listed_twice >= 0) {
      NsFinding f = finding(NS_FIND_REDUNDANT, (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = (uint32_t)listed_twice;
      f.value = 1; /* listed twice in the transfer */
      f.bound = tr->raw;
      add_finding(st, f);
    }
    if (tr->raw) {
      receive_raw(st, phase, t, tr, chunks);
      continue;
    }
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      int twice = ns_reduction_apply(rs, staged++, tr->dst, chunks[k], tr->combine);
      if (twice < 0)
        continue;
      NsFinding f = finding(NS_FIND_DUPLICATE, (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = chunks[k];
      f.value = (uint64_t)twice; /* the origin counted twice */
      add_finding(st, f);
    }
  }
}

/* A phase of direct all-to-all transfers only (each carries its own
 * message src -> dst; routes of the topology, which are shortest): its
 * data flow is a delivery bit a transfer, set in one pass (the bits are
 * prefetched across the batch's phases). FALSE, nothing done, for any
 * other phase. */
static gboolean deliver_direct(Replay *st, uint64_t phase, uint64_t first, uint64_t n)
{
  if (st->kind != NS_COLL_ALLTOALL || st->holder != NULL || st->explicit_routing ||
      st->router != NULL)
    return FALSE;
  uint32_t p = (uint32_t)st->p, indirect = 0;
  const NsTransfer *tr = tr_at(st, first);
  for (uint64_t i = 0; i < n; i++)
    indirect |= (uint32_t)(tr[i].n_chunks != 1) |
                (uint32_t)(tr[i].chunk != (uint32_t)tr[i].src * p + (uint32_t)tr[i].dst);
  if (indirect & 1)
    return FALSE;
  uint64_t delivered = 0;
  for (uint64_t t = first; t < first + n; t++) {
    if (t + 8 < st->flow_end)
      ns_chunk_bits_prefetch(&st->delivered, tr_at(st, t + 8)->chunk);
    uint32_t c = tr_at(st, t)->chunk;
    if (ns_chunk_bits_set(&st->delivered, c)) {
      delivered++;
      continue;
    }
    NsFinding f = finding(NS_FIND_DUPLICATE, (int64_t)phase, (int64_t)t);
    f.machine = tr_at(st, t)->dst;
    f.chunk = c;
    add_finding(st, f);
  }
  st->r->n_chunk_moves += n;
  st->r->n_delivered += delivered;
  return TRUE;
}

static void check_dataflow(Replay *st, uint64_t phase, uint64_t first, uint64_t n)
{
  if (st->reduction) {
    check_dataflow_reduction(st, phase, first, n);
    return;
  }
  if (deliver_direct(st, phase, first, n))
    return;
  gboolean a2a = st->kind == NS_COLL_ALLTOALL;
  g_array_set_size(st->hops_seen, 0);
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = tr_at(st, t);
    if (direct_a2a(st, tr))
      continue; /* the origin holds its message */
    const uint32_t *chunks = chunks_of(st, tr);
    uint32_t *hops = NULL;
    if (a2a) {
      guint at = st->hops_seen->len;
      g_array_set_size(st->hops_seen, at + tr->n_chunks);
      hops = &g_array_index(st->hops_seen, uint32_t, at);
    }
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      uint32_t h = 0;
      if (k + 8 < tr->n_chunks && st->relay != NULL) /* a relay set does not fit any cache */
        ns_relay_set_prefetch(st->relay, chunks[k + 8], (uint32_t)tr->src);
#if defined(__GNUC__)
      if (k + HOLDER_AHEAD < tr->n_chunks && st->holder != NULL)
        __builtin_prefetch(&st->holder[chunks[k + HOLDER_AHEAD]], 1, 3);
#endif
      gboolean held = holds(st, tr->src, chunks[k], &h);
      if (hops != NULL)
        hops[k] = h;
      if (held && st->holder != NULL) /* its copy is consumed: a second forward fails */
        st->holder[chunks[k]] |= NS_HOLDER_FORWARDED;
      if (!held) {
        NsFinding f = finding(NS_FIND_NOT_HELD, (int64_t)phase, (int64_t)t);
        f.machine = tr->src;
        f.chunk = chunks[k];
        add_finding(st, f);
      }
    }
  }
  /* Receipts become visible only after the whole phase was checked. */
  guint seen = 0; /* into hops_seen */
  for (uint64_t t = first; t < first + n; t++) {
    const NsTransfer *tr = tr_at(st, t);
    gboolean direct = direct_a2a(st, tr);
    const uint32_t *hops_held = NULL;
    if (a2a && !direct) {
      hops_held = &g_array_index(st->hops_seen, uint32_t, seen);
      seen += tr->n_chunks;
    }
    /* the holdings of a large all-to-all do not fit any cache */
    if (t + 8 < st->flow_end && a2a) /* the batch's next phases too */
      ns_chunk_bits_prefetch(&st->delivered, tr_at(st, t + 8)->chunk);
    const uint32_t *chunks = chunks_of(st, tr);
    st->r->n_chunk_moves += tr->n_chunks;
    if (direct && !st->explicit_routing &&
        (st->router == NULL || !ns_router_is_own(st->router, t))) {
      /* what receive() does for a message reaching its destination */
      if (ns_chunk_bits_set(&st->delivered, tr->chunk)) {
        st->r->n_delivered++;
        continue;
      }
      NsFinding f = finding(NS_FIND_DUPLICATE, (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = tr->chunk;
      add_finding(st, f);
      continue;
    }
    int64_t twice = repeated_chunk(st, tr, chunks);
    if (twice >= 0) {
      NsFinding f = finding(NS_FIND_REDUNDANT, (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = (uint32_t)twice;
      f.value = 1; /* listed twice in the transfer */
      add_finding(st, f);
    }
    /* A direct message (origin -> destination in one transfer) is on a
     * shortest path whenever its route is: only relays need counting. */
    gboolean relayed = FALSE;
    for (uint32_t k = 0; k < tr->n_chunks && st->shortest && !relayed; k++)
      relayed = chunks[k] != ns_a2a_chunk(st->p, tr->src, tr->dst) || st->explicit_routing ||
                (st->router != NULL && ns_router_is_own(st->router, t));
    uint32_t route_hops = 0;
    if (relayed)
      route_hops = (uint32_t)route_of(st, t, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      uint32_t hops = 0;
      if (k + 8 < tr->n_chunks && st->relay != NULL)
        ns_relay_set_prefetch(st->relay, chunks[k + 8], (uint32_t)tr->dst);
#if defined(__GNUC__)
      if (k + HOLDER_AHEAD < tr->n_chunks && st->holder != NULL)
        __builtin_prefetch(&st->holder[chunks[k + HOLDER_AHEAD]], 1, 3);
#endif
      if (relayed) {
        hops = (hops_held != NULL ? hops_held[k] : 0) + route_hops;
        int o = (int)(chunks[k] / (uint32_t)st->p), d = (int)(chunks[k] % (uint32_t)st->p);
        if (tr->dst == d) {
          uint32_t best = shortest_hops(st, o, d);
          if (hops > best) {
            NsFinding f = finding(NS_FIND_DETOUR, (int64_t)phase, (int64_t)t);
            f.chunk = chunks[k];
            f.value = hops;
            f.bound = best;
            add_finding(st, f);
          }
        }
      }
      Receipt got = receive(st, tr->dst, chunks[k], hops);
      if (got == RECEIVED)
        continue;
      NsFinding f = finding(got == RECEIVED_TWICE ? NS_FIND_DUPLICATE : NS_FIND_REDUNDANT,
                            (int64_t)phase, (int64_t)t);
      f.machine = tr->dst;
      f.chunk = chunks[k];
      add_finding(st, f);
    }
  }
}

/* A group's (phase's or step's) duration into the transmission time, or
 * into the batch being checked, to be added in phase order when it is
 * retired: the sum is a sequential replay's, bit for bit. */
static inline void links_add_time(Links *L, double seconds)
{
  if (L->durations != NULL) {
    GArray *d = L->durations;
    DurationRun *last = d->len > 0 ? &g_array_index(d, DurationRun, d->len - 1) : NULL;
    if (last != NULL && memcmp(&last->seconds, &seconds, sizeof seconds) == 0)
      last->count++;
    else {
      DurationRun run = { .seconds = seconds, .count = 1 };
      g_array_append_val(d, run);
    }
  } else
    L->transmission += seconds;
}

/* Bits a transfer moves: its chunks at msize, or at their own sizes
 * (alltoallv, allgatherv; a reduction's segments, raw chunks included). */
static inline double transfer_bits(const Links *L, const NsTransfer *tr)
{
  if (L->chunk_bytes == NULL)
    return (double)tr->n_chunks * L->msize_bits;
  const uint32_t *c = tr->n_chunks == 1 ? &tr->chunk : L->pool + tr->chunk;
  double bytes = 0;
  for (uint32_t k = 0; k < tr->n_chunks; k++)
    bytes += (double)L->chunk_bytes[tr->raw ? c[k] % L->segments : c[k]];
  return bytes * 8.0;
}

/* Transfer t of the phase shares directed edge e beyond its capacity. */
static void edge_finding(Links *L, uint64_t phase, uint64_t t, int e, const EdgeUse *u)
{
  NsFinding f = finding(NS_FIND_EDGE, (int64_t)phase, (int64_t)t);
  f.step = L->step;
  f.t2 = (int64_t)u->owner;
  f.edge = e;
  f.count = u->uses;
  sink_add(&L->sink, f);
}

/* A machine's sends or receives of the phase beyond its ports. */
static void check_port(Links *L, uint64_t stamp, uint64_t phase, uint64_t t, int m,
                       gboolean sending)
{
  uint64_t *stamps = sending ? L->send_stamp : L->recv_stamp;
  uint64_t *owner = sending ? L->send_owner : L->recv_owner;
  uint32_t *count = sending ? L->send_count : L->recv_count;
  if (stamps[m] != stamp) {
    stamps[m] = stamp;
    owner[m] = t;
    count[m] = 0;
  }
  if (++count[m] <= (uint32_t)L->ports[m])
    return;
  NsFinding f = finding(sending ? NS_FIND_PORT_SEND : NS_FIND_PORT_RECV, (int64_t)phase,
                        (int64_t)t);
  f.step = L->step;
  f.t2 = (int64_t)owner[m];
  f.machine = m;
  f.count = count[m];
  f.bound = (uint64_t)L->ports[m];
  sink_add(&L->sink, f);
}

/* One more transfer of the group at a machine's port: FALSE past its
 * ports. */
static inline gboolean port_fits(uint8_t *tag, uint16_t *used, uint8_t group, uint16_t ports)
{
  if (*tag != group) {
    *tag = group;
    *used = 0;
  }
  return ++*used <= ports;
}

/* Marks the edges of transfer t for the first try; nonzero when one was
 * marked in the group already. From the route table's rows
 * (`table`: every transfer takes the table's route) without a copy of
 * the route, else from route_into(). */
static inline uint64_t mark_route(Links *L, const NsRouteTable *table, uint64_t t,
                                  const NsTransfer *tr, int *len)
{
  if (table != NULL)
    return ns_route_table_mark_from(table, L->node[tr->src], L->node[tr->dst], L->own_levels,
                                    &L->edge_marks, L->route, len);
  uint64_t hit = 0;
  *len = route_into(L->table, L->router, L->node, t, tr, L->route);
  for (int k = 0; k < *len; k++)
    hit |= ns_edge_marks_set(&L->edge_marks, L->route[k], 1);
  return hit;
}

/* The first try on links of one speed: marks every directed edge a
 * transfer of the phase crosses, and counts the ports each machine uses,
 * in one pass over the transfers' routes (read from the route table);
 * gives up (FALSE, nothing recorded) at the first transfer that crosses
 * an edge marked already, and the full check below then runs the phase
 * again. Without sharing, its results are simple: one transfer an edge,
 * the phase lasts its largest routed transfer's bits over the bandwidth;
 * only a phase whose ports overflow takes a second pass, to record them.
 * A mark is a byte where an EdgeUse is 32 (NsEdgeMarks), tagged with
 * the group and cleared once every 255 groups, not per group; a tree
 * route is marked in a fixed-length walk of two rows with no branch on
 * the route (ns_route_table_mark). Contention-free schedules — the ones
 * that matter at scale — are checked in this loop alone. */
static gboolean check_unshared(Links *L, uint64_t phase, uint64_t first, const NsTransfer *trs,
                               const uint32_t *idx, uint64_t n)
{
  if (++L->mark_tag == 0 && L->tree.table == NULL) { /* the tags wrapped: none is current */
    for (int m = 0; m < L->n_machines; m++)
      L->port_mark[m].send_tag = L->port_mark[m].recv_tag = 0;
    L->mark_tag = 1;
  }
  ns_edge_marks_next_group(&L->edge_marks);
  uint8_t tag = L->mark_tag;
  int max_len = L->max_path_len;
  double most_bits = 0;
  gboolean ports_over = FALSE;
  /* the table's rows when no transfer takes a route of its own */
  const NsRouteTable *table = L->router != NULL ? ns_router_table(L->router) : L->table;
  if (L->tree.table != NULL) {
    /* a tree of one depth (the table of every transfer), chunks of one
     * size: the records of tree_links.c, which need no port marks */
    NsTreeLinksResult res = { .max_len = max_len };
    if (!ns_tree_links_unshared(&L->tree, &L->edge_marks, trs, idx, n, &res))
      return FALSE;
    max_len = res.max_len;
    most_bits = (double)res.most_chunks * L->msize_bits; /* rounding is monotonic: the largest */
  } else
    for (uint64_t i = 0; i < n; i++) {
      uint64_t off = idx != NULL ? idx[i] : i, t = first + off;
      const NsTransfer *tr = &trs[off];
      int len;
      if (mark_route(L, table, t, tr, &len) != 0)
        return FALSE;
      if (L->own_levels > 0) {
        /* the machines' own links, unmarked: each machine sends and
         * receives once at most, else the full check runs the group (as
         * a second mark on its own link would have sent it there) */
        PortMark *s = &L->port_mark[tr->src], *d = &L->port_mark[tr->dst];
        if (!port_fits(&s->send_tag, &s->sends, tag, 1) ||
            !port_fits(&d->recv_tag, &d->recvs, tag, 1))
          return FALSE;
        ports_over |= L->ports_check && (s->ports == 0 || d->ports == 0);
      } else if (L->ports_check && !ports_over) {
        PortMark *s = &L->port_mark[tr->src], *d = &L->port_mark[tr->dst];
        ports_over = !port_fits(&s->send_tag, &s->sends, tag, s->ports) ||
                     !port_fits(&d->recv_tag, &d->recvs, tag, d->ports);
      }
      if (len > 0) {
        max_len = MAX(max_len, len - 1);
        most_bits = MAX(most_bits, transfer_bits(L, tr));
      }
    }
  L->max_path_len = max_len;
  if (most_bits > 0) {
    L->max_edge_use = MAX(L->max_edge_use, 1);
    links_add_time(L, most_bits / L->uniform_bw);
  }
  if (ports_over) /* check_port() records who went past their ports */
    for (uint64_t i = 0; i < n; i++) {
      uint64_t off = idx != NULL ? idx[i] : i;
      check_port(L, L->group, phase, first + off, trs[off].src, TRUE);
      check_port(L, L->group, phase, first + off, trs[off].dst, FALSE);
    }
  return TRUE;
}

/* Rates crossing each directed edge sum to at most its bandwidth; a
 * transfer's rate is the smallest bandwidth on its route. On links of one
 * speed: one transfer per edge. Also accumulates the phase's duration for
 * the transmission time: its slowest transfer (bits over rate), or its
 * busiest link (bits over bandwidth). Transfers [first, first + n), tr[0]
 * being `first`.
 *
 * On links of one speed B every rate is B and the checks reduce to counts
 * (rates sum to k·B, exactly, and exceed B·(1 + 1e-9) when k >= 2), and
 * the phase's duration is the largest bit count over B: IEEE division is
 * correctly rounded, hence monotonic, so dividing the largest count once
 * gives the largest quotient. Same results, without a division per edge. */
static void check_contention(Links *L, uint64_t phase, uint64_t first, const NsTransfer *trs,
                             const uint32_t *idx, uint64_t n)
{
  L->group++; /* a fresh stamp: edges and ports count this group's transfers only */
  if (L->uniform_bw > 0 && check_unshared(L, phase, first, trs, idx, n))
    return;
  uint64_t stamp = L->group;
  double phase_time = 0, uniform = L->uniform_bw, most_bits = 0;
  int max_len = L->max_path_len;
  uint64_t max_use = L->max_edge_use;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t off = idx != NULL ? idx[i] : i, t = first + off;
    const NsTransfer *tr = &trs[off];
    int len = route_into(L->table, L->router, L->node, t, tr, L->route);
    max_len = MAX(max_len, len - 1);
    double bits = transfer_bits(L, tr);
    if (uniform > 0) {
      for (int k = 0; k < len; k++) {
        int e = L->route[k];
        EdgeUse *u = &L->edge[e];
        if (u->stamp != stamp)
          *u = (EdgeUse){ .stamp = stamp, .owner = t, .uses = 0, .rate = 0, .bits = 0 };
        u->uses++;
        u->bits += bits;
        most_bits = MAX(most_bits, u->bits);
        if (u->uses > 1) {
          edge_finding(L, phase, t, e, u);
        }
        max_use = MAX(max_use, u->uses);
      }
    } else {
      double rate = G_MAXDOUBLE;
      for (int k = 0; k < len; k++)
        rate = MIN(rate, L->edge_bw[L->route[k]]);
      if (len > 0)
        phase_time = MAX(phase_time, bits / rate);
      for (int k = 0; k < len; k++) {
        int e = L->route[k];
        double capacity = L->edge_bw[e];
        EdgeUse *u = &L->edge[e];
        if (u->stamp != stamp)
          *u = (EdgeUse){ .stamp = stamp, .owner = t, .uses = 0, .rate = 0, .bits = 0 };
        u->uses++;
        u->rate += rate;
        /* A phase lasts at least as long as its busiest link needs for its
         * bytes: with contention, longer than its slowest transfer alone. */
        u->bits += bits;
        phase_time = MAX(phase_time, u->bits / capacity);
        if (u->rate > capacity * (1 + 1e-9)) {
          edge_finding(L, phase, t, e, u);
        }
        max_use = MAX(max_use, u->uses);
      }
    }
    if (L->ports_check) {
      check_port(L, stamp, phase, t, tr->src, TRUE);
      check_port(L, stamp, phase, t, tr->dst, FALSE);
    }
  }
  if (uniform > 0 && most_bits > 0)
    phase_time = most_bits / uniform; /* edge bits >= every routed transfer's bits */
  L->max_path_len = max_len;
  L->max_edge_use = max_use;
  links_add_time(L, phase_time);
}

/* The link checks of a phase: the whole phase as one group, or, posted
 * under window:W, step by step — step k is each sender's k-th transfer in
 * posting order (Tam & Wang §3.1, Algorithm 1). The steps are a counting
 * sort of the phase's transfers: O(n + p) time, 4 bytes a transfer. */
static void check_links(Links *L, uint64_t phase, uint64_t first, const NsTransfer *trs,
                        uint64_t n)
{
  L->sink.tr = trs;
  L->sink.first = first;
  L->step = -1;
  if (!L->stepped || n > G_MAXUINT32) {
    check_contention(L, phase, first, trs, NULL, n);
    return;
  }
  memset(L->sent, 0, sizeof(uint32_t) * (gsize)L->n_machines);
  uint64_t steps = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t sent = ++L->sent[trs[i].src]; /* not inside MAX(): evaluated twice */
    steps = MAX(steps, sent);
  }
  L->n_steps = MAX(L->n_steps, steps);
  if (steps + 1 > L->steps_cap) {
    L->steps_cap = steps + 1;
    L->step_start = g_renew(uint64_t, L->step_start, L->steps_cap);
  }
  if (n > L->order_cap) {
    L->order_cap = n;
    L->order = g_renew(uint32_t, L->order, L->order_cap);
  }
  /* step k holds one transfer of every machine that sends more than k */
  memset(L->step_start, 0, sizeof(uint64_t) * (gsize)(steps + 1));
  for (int m = 0; m < L->n_machines; m++)
    for (uint32_t k = 0; k < L->sent[m]; k++)
      L->step_start[k + 1]++;
  for (uint64_t k = 0; k < steps; k++)
    L->step_start[k + 1] += L->step_start[k];
  memset(L->sent, 0, sizeof(uint32_t) * (gsize)L->n_machines);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t k = L->sent[trs[i].src]++;
    L->order[L->step_start[k]++] = (uint32_t)i;
  }
  /* step_start[k] is now the end of step k, the start of step k + 1 */
  uint64_t begin = 0;
  for (uint64_t k = 0; k < steps; k++) {
    L->step = (int64_t)k;
    check_contention(L, phase, first, trs, L->order + begin, L->step_start[k] - begin);
    begin = L->step_start[k];
  }
  L->step = -1;
}

/* ---- the link thread ----------------------------------------------------- */

/* The transfers of a batch's phase. */
static const NsTransfer *batch_transfers(const Batch *b, const BatchPhase *ph)
{
  const GArray *a = ph->own != NULL ? ph->own : b->transfers;
  return (const NsTransfer *)(void *)a->data + ph->offset;
}

/* The link checks of a batch's phases, their results kept in the batch
 * (durations, findings capped within it, counts) for links_retire(). */
static void links_batch(Links *L, Batch *b)
{
  Sink running = L->sink;
  L->sink = (Sink){ .findings = b->findings, .failures = b->failures,
                    .max_findings = running.max_findings };
  L->durations = b->durations;
  for (guint i = 0; i < b->phases->len; i++) {
    const BatchPhase *ph = &g_array_index(b->phases, BatchPhase, i);
    check_links(L, ph->phase, ph->first, batch_transfers(b, ph), ph->n);
  }
  L->durations = NULL;
  L->sink = running;
}

/* A checked batch's link results into the running ones, in batch order:
 * the durations added one by one as a sequential replay adds them, the
 * findings under the caps of the kinds, named from the batch's transfers. */
static void links_retire(Links *L, Batch *b)
{
  for (guint i = 0; i < b->durations->len; i++) {
    const DurationRun *run = &g_array_index(b->durations, DurationRun, i);
    for (uint64_t k = 0; k < run->count; k++) /* one by one: a sequential replay's sum */
      L->transmission += run->seconds;
  }
  for (int c = 0; c < NS_N_CHECKS; c++)
    L->failures[c] += b->failures[c];
  guint at = 0; /* the findings' phase (they come in phase order and name its transfers) */
  for (guint i = 0; i < b->findings->len; i++) {
    const NsFinding *f = &g_array_index(b->findings, NsFinding, i);
    while (at + 1 < b->phases->len && g_array_index(b->phases, BatchPhase, at).phase < f->phase)
      at++;
    const BatchPhase *ph = &g_array_index(b->phases, BatchPhase, at);
    L->sink.tr = batch_transfers(b, ph);
    L->sink.first = ph->first;
    sink_keep(&L->sink, f);
  }
}

static void batch_empty(Batch *b)
{
  for (guint i = 0; i < b->phases->len; i++) {
    GArray *own = g_array_index(b->phases, BatchPhase, i).own;
    if (own != NULL) { /* back to the planner, its room kept */
      g_array_set_size(own, 0);
      g_ptr_array_add(b->spare, own);
    }
  }
  g_array_set_size(b->transfers, 0);
  b->n_transfers = 0;
  g_array_set_size(b->phases, 0);
  g_array_set_size(b->durations, 0);
  g_array_set_size(b->findings, 0);
  memset(b->failures, 0, sizeof b->failures);
  b->flow = b->linked = FALSE;
}

static void flow_phase(Replay *st, uint32_t phase, uint64_t first, const NsTransfer *tr,
                       uint64_t n, const uint32_t *pool, uint64_t contiguous);

/* CPU seconds of a thread's clock, 0 when it cannot be read. */
static double thread_cpu(clockid_t clock)
{
  struct timespec ts;
  return clock_gettime(clock, &ts) == 0 ? (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 : 0;
}

/* The link thread: each batch in order, its data flow (when handed over)
 * and its link checks (unless the calling thread did them), then its
 * results retired in order. */
static gpointer links_thread(gpointer data)
{
  Replay *st = data;
  clockid_t clock;
  if (pthread_getcpuclockid(pthread_self(), &clock) == 0) {
    g_atomic_int_set(&st->worker_clock, (gint)clock);
    g_atomic_int_set(&st->worker_clock_set, 1);
  }
  for (;;) {
    Batch *b = queue_pop(&st->todo);
    if (b->phases == NULL) /* the end */
      return NULL;
    if (b->flow)
      for (guint i = 0; i < b->phases->len; i++) {
        const BatchPhase *ph = &g_array_index(b->phases, BatchPhase, i);
        flow_phase(st, ph->phase, ph->first, batch_transfers(b, ph), ph->n, NULL,
                   ph->own != NULL ? ph->n : b->transfers->len - ph->offset);
      }
    if (!b->linked)
      links_batch(&st->links, b);
    links_retire(&st->links, b);
    batch_empty(b);
    queue_push(&st->done, b);
  }
}

static void links_init(Links *L, const Replay *st);

static void worker_start(Replay *st)
{
  queue_init(&st->todo);
  queue_init(&st->done);
  for (int i = 0; i < LINKS_BATCHES; i++) {
    Batch *b = &st->batches[i];
    b->transfers = g_array_new(FALSE, FALSE, sizeof(NsTransfer));
    b->spare = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    b->phases = g_array_new(FALSE, FALSE, sizeof(BatchPhase));
    b->durations = g_array_new(FALSE, FALSE, sizeof(DurationRun));
    b->findings = g_array_new(FALSE, FALSE, sizeof(NsFinding));
    queue_push(&st->done, b);
  }
  links_init(&st->links_calling, st);
  /* The data flow goes with the batches while their transfers carry one
   * chunk each (the batches hold no chunk pools). */
  st->flow_on_worker = TRUE;
  st->calling_cpu0 = thread_cpu(CLOCK_THREAD_CPUTIME_ID);
  st->worker = g_thread_new("verify-links", links_thread, st);
}

/* Whether the calling thread checks the links of the batch it filled:
 * when the thread is behind — a batch waits for it already — and has
 * worked more CPU time since it started than the calling thread, so that
 * the two threads' CPU times, the wall time on two free cores, even out
 * (a load on the machine that slows one thread more than the other does
 * not tip the balance). */
static gboolean check_here(Replay *st)
{
  if (queue_waiting(&st->todo) == 0 || !g_atomic_int_get(&st->worker_clock_set))
    return FALSE;
  double worker = thread_cpu((clockid_t)g_atomic_int_get(&st->worker_clock));
  return thread_cpu(CLOCK_THREAD_CPUTIME_ID) - st->calling_cpu0 < worker;
}

/* Hands the batch being filled to the thread, its link checks done here
 * first when check_here() says so, or for every other batch (tests). */
static void batch_submit(Replay *st)
{
  Batch *b = st->filling;
  st->filling = NULL;
  gboolean here = st->split == SPLIT_ALTERNATE ? st->n_batches % 2 == 1
                  : st->split == SPLIT_DYNAMIC && check_here(st);
  if (here) {
    links_batch(&st->links_calling, b);
    b->linked = TRUE;
  }
  st->n_batches++;
  queue_push(&st->todo, b);
}

/* Waits until the thread has retired every batch handed to it. */
static void worker_drain(Replay *st)
{
  if (st->filling != NULL && st->filling->phases->len > 0)
    batch_submit(st);
  Batch *b[LINKS_BATCHES];
  int n = 0;
  if (st->filling != NULL)
    b[n++] = st->filling;
  st->filling = NULL;
  while (n < LINKS_BATCHES)
    b[n++] = queue_pop(&st->done);
  for (int i = 0; i < n; i++)
    queue_push(&st->done, b[i]);
}

/* A phase's data flow and link checks: inline while the schedule is
 * small, then handed to the link thread in batches (the phase's transfers
 * copied). The thread replays the data flow of one-chunk phases too, and
 * the calling thread checks the links of the batches it fills while the
 * thread is behind: the two halves even out whichever is the larger. A
 * phase with a chunk list brings the data flow back to the calling thread
 * for good, once the thread has caught up. */
static void links_phase(Replay *st, uint32_t phase, uint64_t first, const NsTransfer *trs,
                        uint64_t n, const uint32_t *pool, GArray **own)
{
  if (st->worker == NULL) {
    if (st->links_inline < st->links_inline_max) {
      st->links_inline += n;
      flow_phase(st, phase, first, trs, n, pool, n);
      st->links.pool = pool;
      check_links(&st->links, phase, first, trs, n);
      return;
    }
    worker_start(st);
  }
  if (st->flow_on_worker) {
    gboolean one_chunk = TRUE;
    for (uint64_t i = 0; i < n; i++)
      one_chunk &= trs[i].n_chunks == 1;
    if (!one_chunk) {
      worker_drain(st);
      st->flow_on_worker = FALSE;
    }
  }
  if (!st->flow_on_worker)
    flow_phase(st, phase, first, trs, n, pool, n);
  if (st->filling == NULL) {
    st->filling = queue_pop(&st->done);
    st->filling->flow = st->flow_on_worker;
  }
  Batch *b = st->filling;
  BatchPhase ph = { .phase = phase, .first = first, .offset = b->transfers->len, .n = n };
  if (own != NULL && n > 0 && n >= st->take_min) { /* the planner's array, an empty one in its place */
    ph.own = *own;
    ph.offset = 0;
    *own = b->spare->len > 0 ? g_ptr_array_steal_index_fast(b->spare, b->spare->len - 1)
                             : g_array_new(FALSE, FALSE, sizeof(NsTransfer));
  } else if (n > 0) {
    g_array_append_vals(b->transfers, trs, (guint)n);
  }
  g_array_append_val(b->phases, ph);
  b->n_transfers += n;
  if (b->n_transfers >= st->batch_max)
    batch_submit(st);
}

/* Stops the link thread (after the batches handed to it). */
static void worker_stop(Replay *st)
{
  static Batch end = { 0 };
  queue_push(&st->todo, &end);
  g_thread_join(st->worker);
  st->worker = NULL;
}

/* Waits for the link side and merges its results into the report: its
 * findings among the data flow's in the order of a sequential replay. */
static void links_finish(Replay *st)
{
  Links *L = &st->links;
  if (st->worker != NULL) {
    if (st->filling != NULL && st->filling->phases->len > 0)
      batch_submit(st);
    st->filling = NULL;
    worker_stop(st);
    const Links *C = &st->links_calling; /* its results went through the batches */
    L->max_path_len = MAX(L->max_path_len, C->max_path_len);
    L->max_edge_use = MAX(L->max_edge_use, C->max_edge_use);
    L->n_steps = MAX(L->n_steps, C->n_steps);
  }
  NsVerifyReport *r = st->r;
  GArray *flow = r->findings, *links = L->sink.findings;
  if (links->len > 0) {
    GArray *merged = g_array_sized_new(FALSE, FALSE, sizeof(NsFinding), flow->len + links->len);
    guint i = 0, j = 0;
    while (i < flow->len || j < links->len) {
      const NsFinding *f = i < flow->len ? &g_array_index(flow, NsFinding, i) : NULL;
      const NsFinding *g = j < links->len ? &g_array_index(links, NsFinding, j) : NULL;
      if (g == NULL || (f != NULL && f->phase <= g->phase)) {
        g_array_append_val(merged, *f);
        i++;
      } else {
        g_array_append_val(merged, *g);
        j++;
      }
    }
    g_array_unref(flow);
    r->findings = merged;
    st->sink.findings = merged;
    g_array_set_size(links, 0);
  }
  for (int c = 0; c < NS_N_CHECKS; c++) {
    r->failures[c] += L->failures[c];
    L->failures[c] = 0;
  }
  if (L->sink.named != NULL && st->sink.named != NULL) {
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, L->sink.named);
    while (g_hash_table_iter_next(&it, &key, &value))
      g_hash_table_insert(st->sink.named, key, value);
  }
  r->max_path_len = L->max_path_len;
  r->max_edge_use = L->max_edge_use;
  r->stepped = L->stepped;
  r->n_steps = L->n_steps;
}

/* Every (chunk, destination) pair the collective requires, once. The
 * record is scanned for clear bits (64 at a step), in the order of the
 * pairs: a complete schedule costs O(pairs / 64). */
/* A reduction: the root (reduce) or every machine (allreduce) combines
 * every machine's contribution to every segment. O(machines · segments ·
 * p / 64). */
static void check_complete_reduction(Replay *st)
{
  const NsSchedule *s = st->s;
  int p = st->p;
  gboolean all = s->collective == NS_COLL_ALLREDUCE;
  st->r->n_required = (uint64_t)(all ? p : 1) * s->n_segments * (uint64_t)(p - 1);
  st->r->n_delivered = st->r->n_required; /* less what is missing, below */
  for (int m = all ? 0 : s->root; m < (all ? p : s->root + 1); m++)
    for (uint32_t c = 0; c < s->n_segments; c++) {
      int lacking;
      uint64_t missing = ns_reduction_missing(&st->red, m, c, &lacking);
      if (missing == 0)
        continue;
      st->r->n_delivered -= missing;
      NsFinding f = finding(NS_FIND_MISSING, -1, -1);
      f.machine = m;
      f.chunk = c;
      f.value = missing;
      f.bound = (uint64_t)lacking; /* the first contribution missing */
      st->r->failures[NS_CHECK_COMPLETE] += missing - 1;
      add_finding(st, f);
    }
}

/* Is the chunk's delivery required? Not for a chunk of no bytes
 * (alltoallv, allgatherv: MPI moves nothing for it). */
static inline gboolean required(const Replay *st, uint64_t c)
{
  return st->s->chunk_bytes == NULL || g_array_index(st->s->chunk_bytes, uint64_t, c) > 0;
}

static void check_complete(Replay *st)
{
  const NsSchedule *s = st->s;
  int p = st->p;
  if (st->reduction) {
    check_complete_reduction(st);
    return;
  }
  if (st->kind == NS_COLL_ALLTOALL) {
    uint64_t n = (uint64_t)p * (uint64_t)p;
    st->r->n_required = (uint64_t)p * (p - 1);
    for (uint64_t c = ns_chunk_bits_next_clear(&st->delivered, 0, n); c < n;
         c = ns_chunk_bits_next_clear(&st->delivered, c + 1, n)) {
      if (c / (uint64_t)p == c % (uint64_t)p || !required(st, c))
        continue; /* a machine's message to itself: never required */
      NsFinding f = finding(NS_FIND_MISSING, -1, -1);
      f.machine = (int)(c % (uint64_t)p);
      f.chunk = (uint32_t)c;
      add_finding(st, f);
    }
    return;
  }
  /* Only segments some transfer carries have a count row; a segment no
   * transfer carries reaches nobody, counted without a loop over machines,
   * so a file declaring 2^31 segments costs what its transfers cost. */
  gboolean allgather = st->kind == NS_COLL_ALLGATHER;
  uint64_t n_chunks = allgather ? (uint64_t)p : s->n_segments;
  uint64_t counted = allgather ? (uint64_t)p : st->n_counted;
  st->r->n_required = counted * (uint64_t)(p - 1);
  uint64_t n = counted * (uint64_t)p;
  for (uint64_t i = ns_chunk_bits_next_clear(&st->delivered, 0, n); i < n;
       i = ns_chunk_bits_next_clear(&st->delivered, i + 1, n)) {
    uint64_t c = i / (uint64_t)p;
    int m = (int)(i % (uint64_t)p);
    if (m == (allgather ? (int)c : s->root) || !required(st, c))
      continue; /* the chunk's owner */
    NsFinding f = finding(NS_FIND_MISSING, -1, -1);
    f.machine = m;
    f.chunk = (uint32_t)c;
    f.value = 1;
    add_finding(st, f);
  }
  if (n_chunks > counted) {
    uint64_t never = n_chunks - counted;
    st->r->n_required += never * (uint64_t)(p - 1);
    NsFinding f = finding(NS_FIND_MISSING, -1, -1);
    f.chunk = (uint32_t)counted;
    f.value = never * (uint64_t)(p - 1);
    st->r->failures[NS_CHECK_COMPLETE] += f.value - 1;
    add_finding(st, f);
  }
}

/* Every link has one bandwidth (with one-chunk transfers, a phase then
 * takes one message time and optimality is a count of phases). */
static gboolean uniform_links(const NsTopology *topo)
{
  for (int i = 1; i < ns_topology_n_links(topo); i++)
    if (ns_topology_link(topo, i)->bandwidth != ns_topology_link(topo, 0)->bandwidth)
      return FALSE;
  return TRUE;
}

static gboolean check_root(const NsSchedule *s, GError **error)
{
  if ((s->collective == NS_COLL_BCAST || s->collective == NS_COLL_REDUCE) &&
      (s->root < 0 || s->root >= s->n_machines)) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "%s root %d out of range (%d machines)",
                    s->collective == NS_COLL_BCAST ? "broadcast" : "reduce", s->root,
                    s->n_machines);
    return FALSE;
  }
  return TRUE;
}

/* Transfers [first, first + n) (tr[0] is transfer `first`) hold machine
 * indices and chunk ids in range for the collective. */
static gboolean check_transfer_indices(const NsSchedule *s, uint64_t first, const NsTransfer *tr,
                                       uint64_t n, const uint32_t *pool, GError **error)
{
  int p = s->n_machines;
  NsCollective kind = ns_collective_chunk_kind(s->collective);
  uint64_t chunks = kind == NS_COLL_ALLTOALL    ? (uint64_t)p * p
                    : kind == NS_COLL_ALLGATHER ? (uint64_t)p
                                                : s->n_segments;
  /* The common case first, in one pass without branches (a streamed
   * phase of faraj's has 17 transfers, 15.7 M of them on 16,384
   * machines): one chunk, no raw contributions, no combine outside
   * reductions, everything in range. Any other phase takes the loop
   * below, which names the first transfer at fault. */
  uint32_t odd = 0, combine_ok = ns_collective_is_reduction(s->collective);
  for (uint64_t i = 0; i < n; i++) {
    const NsTransfer *x = &tr[i];
    odd |= (uint32_t)((uint32_t)x->src >= (uint32_t)p) | (uint32_t)((uint32_t)x->dst >= (uint32_t)p) |
           (uint32_t)(x->src == x->dst) | (uint32_t)(x->n_chunks != 1) | (uint32_t)x->raw |
           (x->combine & ~combine_ok) | (uint32_t)((uint64_t)x->chunk >= chunks);
  }
  if ((odd & 1) == 0)
    return TRUE;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t t = first + i;
    const NsTransfer *x = &tr[i];
    if (x->src < 0 || x->src >= p || x->dst < 0 || x->dst >= p || x->src == x->dst) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transfer #%" G_GUINT64_FORMAT " %d->%d: machine indices out of range or "
                      "equal (%d machines)", t, x->src, x->dst, p);
      return FALSE;
    }
    if ((x->raw || x->combine) && !ns_collective_is_reduction(s->collective)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transfer #%" G_GUINT64_FORMAT " %s, and only reduce and allreduce "
                      "transfers do (this is %s)", t,
                      x->raw ? "carries raw contributions" : "combines",
                      ns_collective_name(s->collective));
      return FALSE;
    }
    if (x->raw && x->combine) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "transfer #%" G_GUINT64_FORMAT " both combines and carries raw "
                      "contributions (schedule.h, \"Raw contributions\": one or the other)", t);
      return FALSE;
    }
    /* a raw chunk o·S + seg: one per origin and segment */
    uint64_t limit = x->raw ? chunks * (uint64_t)p : chunks;
    const uint32_t *c = x->n_chunks == 1 ? &x->chunk : pool + x->chunk;
    for (uint32_t k = 0; k < x->n_chunks; k++)
      if (c[k] >= limit) {
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "transfer #%" G_GUINT64_FORMAT " carries chunk %u, out of range for %s "
                        "(%" G_GUINT64_FORMAT " chunks)", t, c[k], ns_collective_name(s->collective),
                        limit);
        return FALSE;
      }
  }
  return TRUE;
}

static gboolean check_sync_indices(const NsSchedule *s, GError **error)
{
  uint64_t n = ns_schedule_n_transfers(s);
  for (guint i = 0; s->sync != NULL && i < s->sync->len; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    if (e->from >= n || e->to >= n || e->from == e->to) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "sync edge %u: #%u -> #%u out of range or a loop (%" G_GUINT64_FORMAT
                      " transfers)", i, e->from, e->to, n);
      return FALSE;
    }
  }
  return TRUE;
}

/* Every index the schedule holds is in range: transfer ends, chunk ids
 * for the collective, sync edge ends, the broadcast root. Schedules read
 * from files are checked by the reader; this guards those built in code. */
static gboolean check_indices(const NsSchedule *s, GError **error)
{
  uint64_t n = ns_schedule_n_transfers(s);
  return check_root(s, error) &&
         check_transfer_indices(s, 0, n > 0 ? ns_schedule_transfer(s, 0) : NULL, n,
                                (const uint32_t *)(void *)s->chunk_pool->data, error) &&
         check_sync_indices(s, error);
}

static void links_free(Links *L)
{
  g_free(L->edge);
  ns_edge_marks_clear(&L->edge_marks);
  g_free(L->edge_bw);
  g_free(L->port_mark);
  ns_tree_links_clear(&L->tree);
  g_free(L->send_count);
  g_free(L->recv_count);
  g_free(L->send_stamp);
  g_free(L->recv_stamp);
  g_free(L->send_owner);
  g_free(L->recv_owner);
  g_free(L->ports);
  g_free(L->route);
  g_free(L->sent);
  g_free(L->step_start);
  g_free(L->order);
  if (L->sink.findings != NULL)
    g_array_unref(L->sink.findings);
  if (L->sink.named != NULL)
    g_hash_table_unref(L->sink.named);
}

static void replay_free(Replay *st)
{
  if (st->reduction)
    ns_reduction_state_clear(&st->red);
  if (st->worker != NULL) /* stopped early (an error): let the thread finish */
    worker_stop(st);
  if (st->batches[0].transfers != NULL) { /* the thread ran */
    queue_clear(&st->todo);
    queue_clear(&st->done);
  }
  for (int i = 0; i < LINKS_BATCHES; i++) {
    if (st->batches[i].transfers != NULL)
      g_array_unref(st->batches[i].transfers);
    if (st->batches[i].spare != NULL) {
      batch_empty(&st->batches[i]); /* its phases' own arrays (stopped early) to its spares */
      g_ptr_array_unref(st->batches[i].spare);
    }
    if (st->batches[i].phases != NULL)
      g_array_unref(st->batches[i].phases);
    if (st->batches[i].durations != NULL)
      g_array_unref(st->batches[i].durations);
    if (st->batches[i].findings != NULL)
      g_array_unref(st->batches[i].findings);
  }
  links_free(&st->links);
  links_free(&st->links_calling);
  g_free(st->node);
  ns_chunk_bits_clear(&st->delivered);
  ns_relay_set_free(st->relay);
  ns_holders_free(st->holder, st->n_holder);
  if (st->scratch != NULL)
    g_array_unref(st->scratch);
  if (st->hops_seen != NULL)
    g_array_unref(st->hops_seen);
  if (st->sink.named != NULL)
    g_hash_table_unref(st->sink.named);
  g_free(st->dist);
  g_free(st->grid_coord);
  ns_router_free(st->own_router);
  ns_route_table_free(st->table);
  g_free(st->route);
  memset(st, 0, sizeof *st);
}

/* Sets up a link side (after the replay's node map and router). */
static void links_init(Links *L, const Replay *st)
{
  const NsTopology *topo = st->topo;
  const NsVerifyOptions *opt = st->opt;
  int p = st->p;
  L->topo = topo;
  L->router = st->router;
  L->table = st->table;
  L->node = st->node;
  L->msize_bits = (double)st->s->msize * 8.0;
  if (st->s->chunk_bytes != NULL)
    L->chunk_bytes = (const uint64_t *)(void *)st->s->chunk_bytes->data;
  L->segments = st->s->n_segments;
  L->ports_check = opt->port != NS_PORT_ALL;
  L->stepped = ns_verify_stepped(st->s);
  L->n_machines = p;
  L->sent = g_new0(uint32_t, MAX(p, 1));
  L->step = -1;
  int n_edges = ns_topology_n_edges(topo);
  L->edge = g_new0(EdgeUse, MAX(n_edges, 1));
  ns_edge_marks_init(&L->edge_marks, n_edges);
  L->n_edges = n_edges;
  L->edge_bw = g_new(double, MAX(n_edges, 1));
  for (int e = 0; e < n_edges; e++)
    L->edge_bw[e] = ns_topology_link(topo, ns_edge_link(e))->bandwidth;
  L->uniform_bw = uniform_links(topo) && n_edges > 0 && L->edge_bw[0] > 0 ? L->edge_bw[0] : 0;
  L->port_mark = g_new0(PortMark, MAX(p, 1));
  L->send_stamp = g_new0(uint64_t, p);
  L->recv_stamp = g_new0(uint64_t, p);
  L->send_owner = g_new0(uint64_t, p);
  L->recv_owner = g_new0(uint64_t, p);
  L->send_count = g_new0(uint32_t, p);
  L->recv_count = g_new0(uint32_t, p);
  L->route = g_new(int, MAX(st->router != NULL ? ns_router_max_len(st->router) : 1,
                            ns_topology_max_route_len(topo)));
  L->ports = g_new(int, p);
  for (int m = 0; m < p; m++) {
    int tm = ns_topology_node_machine(topo, st->node[m]);
    L->ports[m] = opt->port == NS_PORT_ONE ? 1
                  : opt->port == NS_PORT_K ? MAX(opt->k, 1)
                  : opt->port == NS_PORT_ALL ? ns_topology_degree(topo, st->node[m])
                                             : ns_topology_machine_ports(topo, tm);
    L->port_mark[m].ports = (uint16_t)MIN(L->ports[m], G_MAXUINT16 - 1);
  }
  if (L->chunk_bytes == NULL && L->uniform_bw > 0) /* the fast path counts chunks */
    ns_tree_links_init(&L->tree, st->router != NULL ? ns_router_table(st->router) : st->table,
                       st->node, p, n_edges, L->ports_check ? L->ports : NULL);
  /* Fat trees of the closed form: the machines' own links by a tag per
   * machine rather than two marks a route (2 of the 14 on
   * gen:fattree:4,7). NETSCHED_VERIFY_OWN_LINKS=marks keeps the marks
   * (tests compare the two). */
  const NsRouteTable *rt = st->router != NULL ? ns_router_table(st->router) : st->table;
  L->own_levels = L->tree.table == NULL && rt != NULL && rt->fat != NULL && rt->fat->closed &&
                  g_strcmp0(g_getenv("NETSCHED_VERIFY_OWN_LINKS"), "marks") != 0;
  L->sink = (Sink){ .findings = g_array_new(FALSE, FALSE, sizeof(NsFinding)),
                    .failures = L->failures, .max_findings = opt->max_findings,
                    .named = st->whole == NULL ? g_hash_table_new(g_direct_hash, g_direct_equal)
                                               : NULL };
}

/* The link side, and when it goes to a thread of its own. */
static void links_begin(Replay *st)
{
  links_init(&st->links, st);
  const char *env = g_getenv("NETSCHED_VERIFY_INLINE_TRANSFERS");
  /* chunk sizes need the phase's chunk pool, which batches do not carry */
  st->links_inline_max = g_get_num_processors() < 2 || st->links.chunk_bytes != NULL
                             ? G_MAXUINT64
                         : env != NULL ? g_ascii_strtoull(env, NULL, 10)
                                       : LINKS_INLINE;
  const char *batch = g_getenv("NETSCHED_VERIFY_BATCH_TRANSFERS");
  st->batch_max = batch != NULL ? MAX(g_ascii_strtoull(batch, NULL, 10), 1) : LINKS_BATCH;
  const char *take = g_getenv("NETSCHED_VERIFY_TAKE_TRANSFERS");
  st->take_min = take != NULL ? g_ascii_strtoull(take, NULL, 10) : LINKS_TAKE_MIN;
  const char *split = g_getenv("NETSCHED_VERIFY_SPLIT");
  st->split = g_strcmp0(split, "never") == 0       ? SPLIT_NEVER
              : g_strcmp0(split, "alternate") == 0 ? SPLIT_ALTERNATE
                                                   : SPLIT_DYNAMIC;
}

/* Sets up the replay of a schedule with header `s` (and, when held whole,
 * `whole` == s). Memory: the holdings (p^2 bits for alltoall and
 * allgather; bcast rows come as segments are sent), O(|E| + |M|) stamps. */
static gboolean replay_begin(Replay *st, const NsTopology *topo, const NsSchedule *s,
                             const NsSchedule *whole, const NsVerifyOptions *opt,
                             NsVerifyReport *r, GError **error)
{
  ns_count_add(NS_COUNT_VERIFY);
  *st = (Replay){ .topo = topo, .s = s, .whole = whole, .opt = opt, .r = r, .p = s->n_machines,
                  .kind = ns_collective_chunk_kind(s->collective),
                  .reduction = ns_collective_is_reduction(s->collective) };
  r->n_machines = s->n_machines;
  r->collective = s->collective;
  r->topo_machines = ns_topology_n_machines(topo);
  if (!ns_collective_size_check(s->collective, s->n_machines, error))
    return FALSE; /* before the p² holdings below */
  st->sink = (Sink){ .findings = r->findings, .failures = r->failures,
                     .max_findings = opt->max_findings };
  st->node = ns_schedule_machine_nodes(topo, s, error);
  if (st->node == NULL)
    return FALSE;
  for (int i = 0; opt->coverage == NS_COVER_LISTED && opt->machines != NULL &&
                  opt->machines[i] != NULL; i++)
    if (ns_topology_find_machine(topo, opt->machines[i]) < 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "machine '%s' asked for is not a machine of topology %s",
                      opt->machines[i], ns_topology_source(topo));
      return FALSE;
    }
  if (whole != NULL && ns_router_fits(opt->router, topo, whole))
    st->router = opt->router; /* resolved once by the caller, for every consumer */
  else if (whole != NULL &&
           (st->router = st->own_router = ns_router_new(topo, whole, st->node, error)) == NULL)
    return FALSE;
  if (whole == NULL) {
    st->sink.named = g_hash_table_new(g_direct_hash, g_direct_equal);
    st->table = ns_route_table_new(topo);
  }
  links_begin(st);

  int p = st->p;

  st->hops_seen = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  st->scratch = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  if (st->reduction && !ns_reduction_state_init(&st->red, p, s->n_segments, error))
    return FALSE;
  ns_chunk_bits_init(&st->delivered, st->kind == NS_COLL_BCAST ? 0 : (uint64_t)p * p);
  if (st->kind == NS_COLL_ALLTOALL && s->store_forward) /* zeroed: every message at its
                                                                origin; pages taken as touched */
    st->holder = ns_holders_new(st->n_holder = (uint64_t)p * p);
  st->route = g_new(int, MAX(st->router != NULL ? ns_router_max_len(st->router) : 1,
                             ns_topology_max_route_len(topo)));
  st->dist_origin = -1;
  grid_begin(st);
  st->explicit_routing = ns_topology_routing(topo) == NS_ROUTING_EXPLICIT;
  st->one_chunk = TRUE;
  r->ran[NS_CHECK_DATAFLOW] = r->ran[NS_CHECK_COMPLETE] = r->ran[NS_CHECK_CONTENTION] = TRUE;
  r->ran[NS_CHECK_PORT] = opt->port != NS_PORT_ALL;
  st->shortest = st->kind == NS_COLL_ALLTOALL;
  r->ran[NS_CHECK_SHORTEST] = st->shortest;
  return TRUE;
}

/* bcast: a count row for every segment up to `segment`. */
static void bcast_rows(Replay *st, uint32_t segment)
{
  uint32_t want = MIN(segment, st->s->n_segments - 1) + 1;
  if (want <= st->n_counted)
    return;
  if (want > st->rows_cap) { /* rows beyond n_counted are allocated clear and never set */
    uint32_t cap = MAX(want, st->rows_cap >= G_MAXUINT32 / 2 ? G_MAXUINT32 : st->rows_cap * 2);
    cap = MIN(cap, st->s->n_segments);
    ns_chunk_bits_grow(&st->delivered, (uint64_t)cap * (uint64_t)st->p);
    st->rows_cap = cap;
  }
  st->n_counted = want;
}

/* The data flow of one phase: transfers [first, first + n), tr[0] being
 * `first`; `contiguous` transfers from tr[0] on are in memory (the phase,
 * or the rest of its batch: the delivery bits are prefetched across
 * phases). */
static void flow_phase(Replay *st, uint32_t phase, uint64_t first, const NsTransfer *tr,
                       uint64_t n, const uint32_t *pool, uint64_t contiguous)
{
  st->sink.tr = tr;
  st->sink.first = first;
  st->flow_end = first + contiguous;
  st->pool = pool;
  gboolean bcast = st->s->collective == NS_COLL_BCAST; /* reductions keep their own record */
  for (uint64_t i = 0; i < n && (st->one_chunk || bcast); i++) {
    if (tr[i].n_chunks != 1)
      st->one_chunk = FALSE;
    if (bcast && st->s->n_segments > 0) {
      const uint32_t *c = chunks_of(st, &tr[i]);
      for (uint32_t k = 0; k < tr[i].n_chunks; k++)
        bcast_rows(st, c[k]);
    }
  }
  check_dataflow(st, phase, first, n);
}

/* Replays one phase: transfers [first, first + n), tr[0] being `first`;
 * `own`, when not NULL, the array holding them, which may be kept (see
 * links_phase). */
static void replay_phase(Replay *st, uint32_t phase, uint64_t first, const NsTransfer *tr,
                         uint64_t n, const uint32_t *pool, GArray **own)
{
  links_phase(st, phase, first, tr, n, pool, own);
  st->r->n_phases++;
  st->r->n_transfers += n;
}

/* Completeness, optimality and (with the whole schedule) the sync checks. */
/* The schedule's machines against those asked for (NsVerifyOptions
 * .coverage): every topology machine, the listed ones, or any subset. A
 * schedule planned for a cluster that has since grown or shrunk fails
 * here, naming the machines it misses or has too many. O(|M|) memory. */
static void check_coverage(Replay *st)
{
  const NsTopology *topo = st->topo;
  const NsVerifyOptions *opt = st->opt;
  NsVerifyReport *r = st->r;
  int n = ns_topology_n_machines(topo);
  r->coverage = opt->coverage;
  r->ran[NS_CHECK_COVERAGE] = TRUE;
  if (opt->coverage == NS_COVER_SUBSET)
    return;
  g_autofree uint8_t *want = g_new0(uint8_t, MAX(n, 1));
  g_autofree uint8_t *have = g_new0(uint8_t, MAX(n, 1));
  if (opt->coverage == NS_COVER_ALL)
    memset(want, 1, (gsize)n);
  for (int i = 0; opt->coverage == NS_COVER_LISTED && opt->machines != NULL &&
                  opt->machines[i] != NULL; i++) {
    int m = ns_topology_find_machine(topo, opt->machines[i]); /* checked by replay_begin */
    if (m >= 0 && !want[m]) {
      want[m] = 1;
      r->n_listed++;
    }
  }
  for (int i = 0; i < st->p; i++) {
    int m = ns_topology_node_machine(topo, st->node[i]);
    have[m] = 1;
    if (!want[m]) {
      NsFinding f = finding(NS_FIND_UNLISTED, -1, -1);
      f.machine = i;
      add_finding(st, f);
    }
  }
  for (int m = 0; m < n; m++)
    if (want[m] && !have[m]) {
      NsFinding f = finding(NS_FIND_UNCOVERED, -1, -1);
      f.value = (uint64_t)m;
      f.bound = opt->coverage == NS_COVER_LISTED; /* asked for by name */
      add_finding(st, f);
    }
}

/* Synchronisation (a schedule held whole): no wait cycle, and the stored
 * sync edges must do what their scheme says. */
static gboolean check_sync(Replay *st, GError **error)
{
  const NsTopology *topo = st->topo;
  NsVerifyReport *r = st->r;
  const NsSchedule *w = st->whole;
  if (w->execution == NS_EXEC_PHASED && w->sync != NULL && (w->sync->len > 0 || w->sync_set)) {
    r->ran[NS_CHECK_SYNC] = TRUE;
    r->cycle = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    if (ns_sync_find_cycle(w, r->cycle)) {
      NsFinding f = finding(NS_FIND_CYCLE, -1, g_array_index(r->cycle, uint32_t, 0));
      f.value = r->cycle->len;
      f.cycle = r->cycle;
      add_finding(st, f);
    } else {
      g_clear_pointer(&r->cycle, g_array_unref);
    }
  }
  NsSyncScheme scheme;
  /* A scheme recorded without edges is the algorithm's recommendation (the
   * simulator computes its edges): nothing stored to check. */
  if (st->opt->sync_order && w->sync_scheme != NULL && (w->sync->len > 0 || w->sync_set) &&
      ns_sync_scheme_parse(w->sync_scheme, &scheme, NULL) && ns_sync_uses_pairwise(&scheme) &&
      w->execution == NS_EXEC_PHASED) {
    uint64_t unordered = 0;
    uint32_t u = 0, v = 0;
    if (!ns_sync_check_routed(topo, w, st->router, &scheme, &unordered, &u, &v, error))
      return FALSE;
    r->ran[NS_CHECK_SYNC] = TRUE;
    if (unordered > 0) {
      NsFinding f = finding(NS_FIND_UNORDERED, -1, v);
      f.t2 = u;
      f.value = unordered;
      add_finding(st, f);
      r->failures[NS_CHECK_SYNC] += unordered - 1;
    }
  }
  return TRUE;
}

/* Optimality: the transmission time against the collective's lower bound,
 * for a valid phased schedule over all the topology's machines. On a tree
 * of one link speed that is phases against the bottleneck load (Faraj &
 * Yuan §4). Not run — with the reason in the report — for a posted
 * schedule (no phases to count), a subset (the bound is for all the
 * machines), a schedule failing a correctness check (its time means
 * nothing) and a broadcast, whose bound T(msize) no schedule reaches
 * (dissertation §3.4.1: only in the limit of infinitely many segments);
 * the broadcast's ratio to it is still reported. */
static void check_optimal(Replay *st)
{
  const NsSchedule *s = st->s;
  const NsTopology *topo = st->topo;
  NsVerifyReport *r = st->r;
  static const NsCheck correctness[] = { NS_CHECK_DATAFLOW, NS_CHECK_COMPLETE,
                                         NS_CHECK_CONTENTION, NS_CHECK_PORT, NS_CHECK_SYNC,
                                         NS_CHECK_COVERAGE };
  gboolean valid = TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS(correctness); i++)
    valid = valid && !(r->ran[correctness[i]] && r->failures[correctness[i]] > 0);
  if (s->execution != NS_EXEC_PHASED) {
    r->optimal_skip = NS_OPTIMAL_POSTED;
    return;
  }
  if (st->p != r->topo_machines) {
    r->optimal_skip = NS_OPTIMAL_SUBSET;
    return;
  }
  if (!valid) {
    r->optimal_skip = NS_OPTIMAL_INVALID;
    return;
  }
  if (ns_collective_is_vector(s->collective)) {
    r->optimal_skip = NS_OPTIMAL_PATTERN;
    r->transmission_s = st->links.transmission;
    return;
  }
  gboolean rooted = s->collective == NS_COLL_BCAST || s->collective == NS_COLL_REDUCE;
  int root = rooted ? ns_topology_node_machine(topo, st->node[s->root]) : -1;
  if (st->reduction && s->chunk_bytes != NULL) { /* segments of their own sizes: the vector's
                                                     fluid bound (msize is only the largest) */
    uint64_t n = 0;
    for (guint c = 0; c < s->chunk_bytes->len; c++)
      n += g_array_index(s->chunk_bytes, uint64_t, c);
    ns_lower_bound_reduction(topo, s->collective, n, 0, root, &r->bound);
  } else {
    ns_lower_bound_routed(topo, s->collective, s->msize, root, s->n_segments, &r->bound);
  }
  r->bound_s = r->bound.seconds;
  r->transmission_s = st->links.transmission;
  /* The broadcast's and the reduce's bound T(msize) no schedule reaches
   * (the pipeline's fill and drain). */
  if (rooted) {
    r->optimal_skip = NS_OPTIMAL_UNDEFINED;
    return;
  }
  r->optimal_skip = NS_OPTIMAL_RAN;
  r->ran[NS_CHECK_OPTIMAL] = TRUE;
  /* One-chunk transfers at one speed: count phases, as the papers do. */
  gboolean counted = r->bound.load > 0 && st->one_chunk && uniform_links(topo) &&
                     !st->reduction;
  r->lower_bound = counted ? r->bound.load : 0;
  if (counted ? r->n_phases != r->bound.load
              : st->links.transmission > r->bound.seconds * (1 + 1e-9)) {
    NsFinding f = finding(counted ? NS_FIND_PHASES : NS_FIND_SLOWER, -1, -1);
    f.value = r->n_phases;
    f.bound = r->bound.load;
    add_finding(st, f);
  }
}

/* Completeness, coverage, (with the whole schedule) the sync checks, and
 * optimality last: it runs only on a schedule the others found valid. */
static gboolean replay_end(Replay *st, GError **error)
{
  links_finish(st);
  check_complete(st);
  check_coverage(st);
  if (st->whole != NULL && !check_sync(st, error))
    return FALSE;
  check_optimal(st);
  return TRUE;
}

static const NsVerifyOptions *options_or_defaults(const NsVerifyOptions *opt,
                                                   NsVerifyOptions *defaults)
{
  if (opt != NULL)
    return opt;
  ns_verify_options_init(defaults);
  return defaults;
}

/**
 * \function ns_verify
 * \brief Verifies a schedule held whole on a topology.
 *
 * Matches schedule machines to topology machines by name, then checks
 * coverage, completeness (chunk ownership replayed phase by phase),
 * contention on directed edges weighted by bandwidth, ports, sync edges,
 * shortest paths and optimality against the bound of the routing in use;
 * the same checks as a session (ns_verify_begin()) fed the phases.
 *
 * \param topo A finalized topology.
 * \param s The schedule.
 * \param opt Options (ns_verify_options_init()).
 * \param report Filled with the findings (ns_verify_report_clear() it).
 * \param error Set when the schedule cannot be checked at all (see errors).
 * \return TRUE when the checks ran (look at the report for the verdict:
 *         ns_verify_passed()); FALSE on error.
 * \errors NS_ERROR_INPUT when a machine name is unknown to the topology, a
 *         listed name is not a machine of it, or indices are out of range;
 *         failed checks are findings, not errors.
 * \complexity O(Σ route lengths + Σ chunks + required pairs), plus one route
 *         per relayed all-to-all message for the shortest-path check; memory
 *         O(chunks) plus O(|E| + |M|).
 * \source Faraj and Yuan §3 (contention on directed links); docs/verify.md.
 */
gboolean ns_verify(const NsTopology *topo, const NsSchedule *s, const NsVerifyOptions *opt,
                   NsVerifyReport *r, GError **error)
{
  NsVerifyOptions defaults;
  opt = options_or_defaults(opt, &defaults);
  memset(r, 0, sizeof *r);
  r->findings = g_array_new(FALSE, FALSE, sizeof(NsFinding));
  Replay st = { 0 };
  if (!check_indices(s, error) || !replay_begin(&st, topo, s, s, opt, r, error)) {
    replay_free(&st);
    r->n_phases = ns_schedule_n_phases(s);
    r->n_transfers = ns_schedule_n_transfers(s);
    return FALSE;
  }
  for (uint32_t p = 0; p < ns_schedule_n_phases(s); p++) {
    NsPhase ph = ns_schedule_phase(s, p);
    replay_phase(&st, p, ph.first, ph.transfers, ph.n, ph.chunk_pool, NULL);
  }
  gboolean ok = replay_end(&st, error);
  replay_free(&st);
  return ok;
}

/* ---- sessions ------------------------------------------------------------ */

struct NsVerifySession {
  const NsTopology *topo;
  NsVerifyOptions opt;
  NsSchedule *header;        /* a copy of the header (no phases) */
  NsSchedule *kept;          /* NS_VERIFY_KEEP: the phases so far, then the whole schedule */
  NsSchedule *described;     /* ns_verify_session_schedule(), built on demand */
  NsVerifyReport report;
  Replay st;
  uint32_t n_phases;
  uint64_t n_transfers;
  gboolean failed, ended;
};

/**
 * \function ns_verify_begin
 * \brief Starts verifying a schedule phase by phase.
 *
 * The session checks each phase as it comes and keeps only what later
 * phases and the final checks need (holdings, relays, stamps), unless the
 * header carries sync edges or routes or NS_VERIFY_KEEP is given: then it
 * keeps the phases (16 bytes a transfer) and checks the whole at the end.
 *
 * \param topo A finalized topology.
 * \param header A schedule without phases (any it holds are ignored),
 *        copied.
 * \param opt Options, or NULL for the defaults.
 * \param flags NsVerifyFlags.
 * \param error Set on failure (see errors).
 * \return The session (ns_verify_session_free() it), or NULL.
 * \errors NS_ERROR_INPUT when the header cannot be checked (a machine
 *         unknown to the topology, a bad root).
 * \complexity O(|E| + |M| + holdings) time and memory.
 * \source docs/verify.md.
 */
NsVerifySession *ns_verify_begin(const NsTopology *topo, const NsSchedule *header,
                                 const NsVerifyOptions *opt, unsigned flags, GError **error)
{
  NsVerifyOptions defaults;
  opt = options_or_defaults(opt, &defaults);
  if (!check_root(header, error))
    return NULL;
  NsVerifySession *vs = g_new0(NsVerifySession, 1);
  vs->topo = topo;
  vs->opt = *opt;
  vs->header = ns_schedule_copy_header(header);
  gboolean keep = (flags & NS_VERIFY_KEEP) || header->sync->len > 0 || header->sync_set ||
                  (header->routes != NULL && header->routes->len > 0);
  if (keep) {
    /* checked whole at the end (own routes and sync edges need every phase) */
    vs->kept = ns_schedule_copy(vs->header);
    GError *e = NULL;
    int *node = ns_schedule_machine_nodes(topo, header, &e);
    g_free(node);
    if (node == NULL) {
      g_propagate_error(error, e);
      ns_verify_session_free(vs);
      return NULL;
    }
    return vs;
  }
  vs->report.findings = g_array_new(FALSE, FALSE, sizeof(NsFinding));
  if (!replay_begin(&vs->st, topo, vs->header, NULL, &vs->opt, &vs->report, error)) {
    ns_verify_session_free(vs);
    return NULL;
  }
  return vs;
}

/**
 * \function ns_verify_whole
 * \brief Verifies a schedule held whole and returns the ended session.
 *
 * As ns_verify(), for callers that describe findings through sessions.
 *
 * \param topo A finalized topology.
 * \param s The schedule; taken (freed on error too).
 * \param opt Options, or NULL for the defaults.
 * \param report Filled with the findings.
 * \param error Set on failure (see errors).
 * \return The ended session owning `s`, or NULL.
 * \errors Those of ns_verify().
 * \complexity That of ns_verify().
 * \source docs/verify.md.
 */
NsVerifySession *ns_verify_whole(const NsTopology *topo, NsSchedule *s,
                                 const NsVerifyOptions *opt, NsVerifyReport *report,
                                 GError **error)
{
  NsVerifyOptions defaults;
  opt = options_or_defaults(opt, &defaults);
  if (!ns_verify(topo, s, opt, report, error)) {
    ns_schedule_free(s);
    return NULL;
  }
  NsVerifySession *vs = g_new0(NsVerifySession, 1);
  vs->topo = topo;
  vs->opt = *opt;
  vs->header = ns_schedule_copy_header(s);
  vs->kept = s;
  vs->n_phases = ns_schedule_n_phases(s);
  vs->n_transfers = ns_schedule_n_transfers(s);
  vs->ended = TRUE;
  return vs;
}

/**
 * \function ns_verify_session_keeps
 * \brief Whether a session keeps the phases (NS_VERIFY_KEEP, sync edges or
 *        routes).
 *
 * \param vs The session.
 * \return TRUE when it keeps them.
 * \errors none.
 * \complexity O(1).
 * \source docs/verify.md.
 */
gboolean ns_verify_session_keeps(const NsVerifySession *vs)
{
  return vs->kept != NULL;
}

/* ns_verify_phase, the phase's array kept when `own` is not NULL. */
static gboolean verify_phase(NsVerifySession *vs, const NsTransfer *transfers, uint64_t n,
                             const uint32_t *chunk_pool, GArray **own, GError **error)
{
  g_return_val_if_fail(!vs->ended, FALSE);
  if (vs->failed) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "the verification failed earlier");
    return FALSE;
  }
  if (!check_transfer_indices(vs->header, vs->n_transfers, transfers, n, chunk_pool, error)) {
    vs->failed = TRUE;
    return FALSE;
  }
  if (vs->kept != NULL) {
    /* Kept phases cost 16 bytes a transfer: no more than a schedule that
     * delivers nothing twice can have (sched/io/schedule_stream.h, limits). */
    const NsSchedule *h = vs->header;
    uint64_t need = ns_schedule_max_moves(h->collective, (uint64_t)h->n_machines, h->n_segments);
    uint64_t most = vs->opt.max_kept > 0 ? MIN(need, vs->opt.max_kept) : need;
    if (n > most - MIN(vs->n_transfers, most)) {
      if (most < need)
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "more than %" G_GUINT64_FORMAT " transfers to keep for the sync edges "
                        "or routes (16 bytes each; verify --max-input lifts this limit)", most);
      else
        ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                        "more than %" G_GUINT64_FORMAT " transfers to keep for the sync edges "
                        "or routes: a schedule of %s on %d machines holds no more unless it "
                        "delivers something twice",
                        most, ns_collective_name(h->collective), h->n_machines);
      vs->failed = TRUE;
      return FALSE;
    }
    NsSchedule *k = vs->kept;
    ns_schedule_begin_phase(k);
    for (uint64_t i = 0; i < n; i++) /* a reduction's combine and raw bits kept with it */
      ns_schedule_add_like(k, &transfers[i],
                           transfers[i].n_chunks == 1 ? &transfers[i].chunk
                                                      : chunk_pool + transfers[i].chunk);
  } else {
    replay_phase(&vs->st, vs->n_phases, vs->n_transfers, transfers, n, chunk_pool, own);
  }
  vs->n_phases++;
  vs->n_transfers += n;
  return TRUE;
}

/**
 * \function ns_verify_phase
 * \brief Checks the next phase of a session.
 *
 * Data flow, contention, ports, shortest paths and the phase's share of
 * the transmission time; the arrays are not kept.
 *
 * \param vs The session.
 * \param transfers The phase's transfers.
 * \param n How many.
 * \param chunk_pool The chunks of multi-chunk transfers (offsets as in
 *        NsSchedule).
 * \param error Set on failure (see errors).
 * \return FALSE on error; the session can then only be freed.
 * \errors NS_ERROR_INPUT for an index out of range ("transfer #T ...").
 * \complexity O(Σ route lengths + chunks of the phase).
 * \source Faraj and Yuan §3; docs/verify.md.
 */
gboolean ns_verify_phase(NsVerifySession *vs, const NsTransfer *transfers, uint64_t n,
                         const uint32_t *chunk_pool, GError **error)
{
  return verify_phase(vs, transfers, n, chunk_pool, NULL, error);
}

/**
 * \function ns_verify_phase_array
 * \brief Checks the next phase of a session, from an array the session may keep.
 *
 * As ns_verify_phase() on every transfer of `*transfers`; a long phase handed
 * to the link thread is kept without a copy, an empty NsTransfer array of the
 * session's put in its place (NsPhaseSink.phase_array).
 *
 * \param vs The session.
 * \param transfers The array of the phase's transfers (NsTransfer); may be replaced.
 * \param chunk_pool The chunks of multi-chunk transfers (offsets as in NsSchedule).
 * \param error Set on failure (see errors).
 * \return FALSE on error; the session can then only be freed.
 * \errors NS_ERROR_INPUT for an index out of range ("transfer #T ...").
 * \complexity O(Σ route lengths + chunks of the phase); no copy of a kept array.
 * \source docs/verify.md (Cost).
 */
gboolean ns_verify_phase_array(NsVerifySession *vs, GArray **transfers,
                               const uint32_t *chunk_pool, GError **error)
{
  GArray *a = *transfers;
  return verify_phase(vs, (const NsTransfer *)(void *)a->data, a->len, chunk_pool, transfers,
                      error);
}

/* Sync edges and routes of the tail into the kept schedule. */
static void take_tail(NsSchedule *s, const NsSchedule *tail)
{
  if (tail->sync_scheme != NULL) {
    g_free(s->sync_scheme);
    s->sync_scheme = g_strdup(tail->sync_scheme);
  }
  s->sync_set = s->sync_set || tail->sync_set;
  if (tail->sync->len > 0) {
    g_array_set_size(s->sync, 0);
    g_array_append_vals(s->sync, tail->sync->data, tail->sync->len);
  }
  if (tail->routes != NULL && tail->routes->len > 0) {
    g_array_set_size(s->routes, 0);
    g_ptr_array_set_size(s->route_names, 0);
    for (guint i = 0; i < tail->routes->len; i++) {
      const NsTransferRoute *r = &g_array_index(tail->routes, NsTransferRoute, i);
      ns_schedule_set_route(s, r->transfer, (int)r->n,
                            (const char *const *)&g_ptr_array_index(tail->route_names, r->first));
    }
  }
}

/**
 * \function ns_verify_end
 * \brief The final checks of a session (completeness, optimality, sync).
 *
 * Once per session.
 *
 * \param vs The session.
 * \param tail The sync scheme, and sync edges and routes that came after
 *        the phases (may be NULL).
 * \param report Cleared, then filled with the findings.
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_UNSUPPORTED when a session that kept no phases gets sync
 *         edges or routes in the tail; otherwise those of ns_verify().
 * \complexity O(holdings + required pairs), the whole schedule when kept.
 * \source docs/verify.md.
 */
gboolean ns_verify_end(NsVerifySession *vs, const NsSchedule *tail, NsVerifyReport *report,
                       GError **error)
{
  g_return_val_if_fail(!vs->ended, FALSE);
  vs->ended = TRUE;
  memset(report, 0, sizeof *report);
  if (vs->failed) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0, "the verification failed earlier");
    return FALSE;
  }
  if (vs->kept == NULL && tail != NULL && ns_verify_tail_needs_phases(vs->header, tail)) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "sync edges, routes or a window scheme came after the phases: they need "
                    "the whole schedule (begin the session with NS_VERIFY_KEEP)");
    return FALSE;
  }
  if (tail != NULL && tail->sync_scheme != NULL) {
    g_free(vs->header->sync_scheme);
    vs->header->sync_scheme = g_strdup(tail->sync_scheme);
  }
  if (vs->kept != NULL) {
    if (tail != NULL)
      take_tail(vs->kept, tail);
    return ns_verify(vs->topo, vs->kept, &vs->opt, report, error);
  }
  gboolean ok = replay_end(&vs->st, error);
  *report = vs->report;
  memset(&vs->report, 0, sizeof vs->report);
  return ok;
}

/**
 * \function ns_verify_session_schedule
 * \brief A schedule to describe an ended session's findings with.
 *
 * The whole schedule when kept; else the header with the transfers the
 * findings name at their indices (the others are reserved memory, never
 * written nor read).
 *
 * \param vs An ended session.
 * \return The schedule, owned by the session.
 * \errors none.
 * \complexity O(findings) the first time.
 * \source docs/verify.md.
 */
const NsSchedule *ns_verify_session_schedule(NsVerifySession *vs)
{
  if (vs->kept != NULL)
    return vs->kept;
  if (vs->described != NULL)
    return vs->described;
  /* The header, and the transfers the findings name at their indices: the
   * array is allocated to the largest one but only those are written, so
   * its untouched pages cost no memory. */
  NsSchedule *d = ns_schedule_copy(vs->header);
  uint64_t top = 0;
  GHashTableIter it;
  gpointer key, value;
  if (vs->st.sink.named != NULL) {
    g_hash_table_iter_init(&it, vs->st.sink.named);
    while (g_hash_table_iter_next(&it, &key, &value))
      top = MAX(top, (uint64_t)GPOINTER_TO_SIZE(key));
  }
  if (top > 0) {
    g_array_unref(d->transfers);
    d->transfers = g_array_sized_new(FALSE, FALSE, sizeof(NsTransfer), (guint)top);
    g_array_set_size(d->transfers, (guint)top);
    g_hash_table_iter_init(&it, vs->st.sink.named);
    while (g_hash_table_iter_next(&it, &key, &value)) {
      guint64 v = (guint64)GPOINTER_TO_SIZE(value) - 1;
      NsTransfer *tr = &g_array_index(d->transfers, NsTransfer, GPOINTER_TO_SIZE(key) - 1);
      *tr = (NsTransfer){ .src = (int32_t)(v >> 32), .dst = (int32_t)(v & 0xffffffffu),
                          .n_chunks = 1, .chunk = 0 };
    }
  }
  vs->described = d;
  return d;
}

/**
 * \function ns_verify_session_free
 * \brief Frees a session and all it holds.
 *
 * \param vs The session (NULL is accepted).
 * \errors none.
 * \complexity O(what it holds).
 * \source docs/verify.md.
 */
void ns_verify_session_free(NsVerifySession *vs)
{
  if (vs == NULL)
    return;
  replay_free(&vs->st);
  ns_verify_report_clear(&vs->report);
  ns_schedule_free(vs->header);
  ns_schedule_free(vs->kept);
  ns_schedule_free(vs->described);
  g_free(vs);
}
