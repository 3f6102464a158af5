/* netsched — the Schedule IR.
 *
 * One representation for every collective, algorithm and topology, so one
 * verifier and one replay engine serve them all (DESIGN.md, "Core data").
 *
 * A schedule is an ordered list of *phases*; a phase is a list of
 * *transfers* src -> dst (machine indices into `machines`), each carrying
 * one or more *chunks*:
 *   alltoall   chunk = origin * n_machines + destination (the message
 *              origin -> destination; direct algorithms carry exactly the
 *              chunk src*n+dst, indirect ones such as Bruck carry several)
 *   allgather  chunk = origin
 *   bcast      chunk = segment index (0..n_segments-1), from `root`
 *   reduce     chunk = segment index (0..n_segments-1) of the vector every
 *              machine contributes; `root` ends with the combination
 *   allreduce  chunk = segment index, every machine ends with it
 *   alltoallv  chunk as alltoall; its size is chunk_bytes[chunk]
 *   allgatherv chunk as allgather; its size is chunk_bytes[chunk]
 *
 * Reductions (reduce, allreduce): what a machine holds of a segment is a
 * *partial result*, the set of origins whose contributions it combines;
 * every machine starts with its own. A transfer flagged `combine` makes
 * the receiver combine the sender's partial with its own (MPI_Reduce_local
 * on a received buffer; the two sets must be disjoint, else a contribution
 * would be counted twice); an unflagged one makes the receiver's partial a
 * copy of the sender's (a plain receive: the all-gather half of
 * Rabenseifner's allreduce, the broadcast half of reduce-bcast). Each
 * transfer says which, because pipelined algorithms mix both in a phase.
 * Only a commutative operation is assumed (the order of combining is free:
 * Faraj's dissertation §4.1.1.1 tunes MPI_Allreduce for commutative ops).
 *
 * Raw contributions (reductions): besides its partial result a machine
 * holds *raw* chunks, origin o's untouched contribution to segment s, raw
 * chunk id o·n_segments + s (ns_raw_chunk). Machine o holds raw(o, s) from
 * the start (MPI's send buffer, never overwritten). A transfer flagged
 * `raw` carries raw chunks: its sender must hold each when the phase
 * begins, and the receiver then holds it too; its partial results do not
 * change. This is the all-gather-based allreduce of Faraj's dissertation
 * §4.1.1.1 (every machine gathers every machine's whole vector and reduces
 * locally): a machine forwards others' raw vectors while keeping its own
 * sum. At the end the root (reduce) or every machine (allreduce) combines
 * locally, for each segment s, the raw chunks raw(o, s) it holds of the
 * origins o its partial lacks, each once: the postcondition is that its
 * partial's origins and the origins o != m of the raw chunks it holds make
 * all p machines. A machine's own raw chunk does not count there: its
 * partial started with that contribution, and one that a copy replaced
 * stays lost, as without raw transfers (a schedule without raw transfers
 * keeps its verdict). No transfer combines a raw chunk into a partial on
 * the way: the all-gather-based algorithms need none, and with it a raw
 * chunk could be counted twice in ways the final rule above cannot see.
 * A transfer is either `combine` or `raw` or neither.
 *
 * Variable sizes (alltoallv, allgatherv): `chunk_bytes` gives each chunk's
 * size (n² entries for alltoallv, n for allgatherv) and `msize` is their
 * largest; a reduction whose segments differ in size has one per segment. A chunk of 0 bytes need not be delivered (MPI moves no data for
 * it); delivering it is allowed.
 *
 * Execution modes:
 *   NS_EXEC_PHASED  phase k+1 starts after phase k (how the phases are kept
 *                   apart is the simulator's synchronisation scheme, or the
 *                   explicit sync edges below);
 *   NS_EXEC_POSTED  the schedule has exactly one phase whose transfers are
 *                   all posted at once; their order in the list is each
 *                   sender's posting order (LAM's and MPICH's non-blocking
 *                   all-to-alls).
 *
 * Routes (optional): a transfer may carry its own route, the names of the
 * nodes it crosses from src to dst, where the algorithm needs a path the
 * topology's routing would not take (Liu Gang et al.'s ring exchange sends
 * half its distance-N/2 messages the negative way round a ring of four).
 * Every stage routes transfers through sched/ir/route.h, which honours them.
 *
 * Sync edges (optional): (from, to) transfer indices; transfer `to` may
 * start only after transfer `from` has completed (Faraj–Yuan §5 pair-wise
 * synchronisation). They come on top of program order: every machine
 * performs its phases in order, starting its transfers of a phase only when
 * all its transfers of earlier phases have completed (sched/ir/sync.h).
 *
 * Store-and-forward relays (optional, all-to-all): the schedule declares
 * that a machine relaying a message gives its copy up when it forwards it,
 * so that every message has one holder at a time; the verifier then keeps
 * one holder per message instead of every copy (docs/verify.md). Liu Gang
 * et al.'s ring and torus exchanges declare it.
 *
 * Transfers are stored flat and phases index into them, so a 4096-machine
 * all-to-all (16.8 M transfers) costs 16 bytes a transfer.
 */
#ifndef NETSCHED_SCHEDULE_H
#define NETSCHED_SCHEDULE_H

#include <glib.h>
#include <stdint.h>

typedef enum {
  NS_COLL_ALLTOALL,
  NS_COLL_ALLGATHER,
  NS_COLL_BCAST,
  NS_COLL_REDUCE,
  NS_COLL_ALLREDUCE,
  NS_COLL_ALLTOALLV,
  NS_COLL_ALLGATHERV,
} NsCollective;

/* Number of collectives (for tables indexed by NsCollective). */
#define NS_N_COLLECTIVES 7

typedef enum { NS_EXEC_PHASED, NS_EXEC_POSTED } NsExecution;

typedef struct {
  int32_t src, dst;     /* machine indices */
  uint32_t n_chunks : 30; /* >= 1, <= NS_TRANSFER_MAX_CHUNKS */
  uint32_t combine : 1; /* reductions: the receiver combines (else copies) */
  uint32_t raw : 1;     /* reductions: the chunks are raw contributions
                           (ns_raw_chunk), the receiver keeps them apart */
  uint32_t chunk;       /* the chunk when n_chunks == 1, else the offset of
                           the first chunk in the schedule's chunk pool */
} NsTransfer;

/* The most chunks one transfer carries (NsTransfer.n_chunks' width). */
#define NS_TRANSFER_MAX_CHUNKS ((1u << 30) - 1)

typedef struct {
  uint32_t from, to;    /* transfer indices */
} NsSyncEdge;

/* One phase on its own (read from a file, written to one, or handed on by
 * a streamed planner): `n` transfers; a multi-chunk transfer's `chunk` is
 * an offset into `chunk_pool` (as in NsSchedule). */
typedef struct {
  uint32_t index;              /* phase number */
  uint64_t first;              /* global index of its first transfer */
  uint64_t n;
  const NsTransfer *transfers;
  const uint32_t *chunk_pool;
} NsPhase;

typedef struct {
  uint32_t transfer;    /* the transfer it routes */
  uint32_t first, n;    /* its node names: route_names[first .. first + n) */
} NsTransferRoute;

typedef struct {
  NsCollective collective;
  char *algorithm;      /* registry name without the collective, e.g. "faraj" */
  int n_machines;
  char **machines;      /* n_machines names, NULL-terminated */
  uint64_t msize;       /* bytes per chunk (alltoallv, allgatherv: the
                           largest chunk) */
  int root;             /* bcast and reduce root machine index, else -1 */
  uint32_t n_segments;  /* bcast, reduce, allreduce: number of segments,
                           else 0 */
  GArray *chunk_bytes;  /* uint64: alltoallv, allgatherv (and reductions
                           with unequal segments): each chunk's size
                           (ns_schedule_set_chunk_bytes), else NULL */
  NsExecution execution;
  gboolean store_forward; /* alltoall: relays store and forward — a copy is
                           consumed when forwarded, one holder per message
                           (docs/schedule-format.md, "relays") */
  GArray *phase_start;  /* uint32: index of the first transfer of each phase */
  GArray *transfers;    /* NsTransfer */
  GArray *chunk_pool;   /* uint32: chunks of multi-chunk transfers */
  GArray *sync;         /* NsSyncEdge */
  char *sync_scheme;    /* scheme the sync edges were computed for
                           (sched/ir/sync.h), e.g. "sender-all"; NULL if none */
  gboolean sync_set;    /* the sync edges were computed or read (perhaps none
                           was needed); FALSE: sync_scheme is only the
                           algorithm's recommendation, edges to be computed
                           (the simulator does) */
  GArray *routes;       /* NsTransferRoute, by increasing transfer */
  GPtrArray *route_names; /* node names of the routes, back to back */
  struct NsScheduleStream *stream; /* streamed (ns_schedule_stream_to), else NULL */
} NsSchedule;

/* Where the phases of a streamed schedule go, in order, as its planner
 * emits them: `begin` once with the header (everything but the phases;
 * valid until the last phase is handed on: copy what is kept longer),
 * then `phase` for each phase (valid during the call). A FALSE return
 * stops the stream: later phases are dropped and the error is what
 * ns_schedule_stream_finish returns. */
typedef struct {
  gboolean (*begin)(const NsSchedule *header, gpointer data, GError **error);
  gboolean (*phase)(const NsPhase *phase, gpointer data, GError **error);
  gpointer data;
  /* Optional (NULL: `phase` takes every phase): called instead of `phase`
   * by a streamed planner, with the array that holds the phase's
   * transfers (NsTransfer, exactly them). The sink may keep that array by
   * putting an empty NsTransfer array of its own in its place, which the
   * planner fills next: a long phase handed on without a copy. */
  gboolean (*phase_array)(const NsPhase *phase, GArray **transfers, gpointer data,
                          GError **error);
} NsPhaseSink;

const char *ns_collective_name(NsCollective c);
gboolean ns_collective_from_name(const char *name, NsCollective *c);
/* Every collective's name in NsCollective order, joined by `separator`
 * (", " in messages: "unknown collective 'x' (alltoall, ...)"). Newly
 * allocated. O(collectives). */
char *ns_collective_names(const char *separator);

/* The most machines of an all-to-all or an all-gather. Both move at least
 * p(p - 1) chunks, and a schedule holds fewer than 2^32 - 1 transfers
 * (65,536 · 65,535 just fits); the verifier keeps p² bytes of holdings
 * (4 GiB here). docs/security.md, "Limits". */
#define NS_MAX_PAIRWISE_MACHINES 65536

/* The one up-front check of a collective's size, made before anything is
 * planned, verified or simulated: NS_ERROR_UNSUPPORTED naming the limit
 * and what the request needs when an all-to-all or all-gather has more
 * than NS_MAX_PAIRWISE_MACHINES machines. O(1). */
gboolean ns_collective_size_check(NsCollective c, int64_t n_machines, GError **error);
const char *ns_execution_name(NsExecution e);
/* "phased" or "posted". */
gboolean ns_execution_parse(const char *name, NsExecution *e);

/* New empty schedule over the given machine names (copied). */
NsSchedule *ns_schedule_new(NsCollective collective, const char *algorithm,
                            int n_machines, const char *const *machines, uint64_t msize);
void ns_schedule_free(NsSchedule *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsSchedule, ns_schedule_free)

/* A deep copy. O(size). */
NsSchedule *ns_schedule_copy(const NsSchedule *s);

/* A copy of the header: everything but the phases, their transfers and
 * chunks (sync edges, routes and the sync scheme included). O(header). */
NsSchedule *ns_schedule_copy_header(const NsSchedule *s);

/*
 * Streaming: a planner that emits its phases in order and never reads an
 * emitted phase again may hand them on as it goes, so that a schedule of
 * hundreds of millions of transfers is never held whole (plan -o, plan +
 * verify in one process). The planner settles the header first (machines,
 * algorithm name, sync scheme), then calls ns_plan_stream(s, params)
 * (sched/planners/registry.h), which calls ns_schedule_stream_to, and adds its
 * phases as usual; each phase goes to the sink when the next one begins.
 * A streamed schedule holds only its current phase: transfer indices
 * returned by ns_schedule_add are the phase's own, the accessors see that
 * phase alone, and sync edges and routes are not allowed (a JSON Lines
 * header states their number before the phases). ns_plan_streamed
 * (sched/planners/registry.h) drives it, and takes every other planner too.
 *
 * ns_schedule_stream_to calls sink->begin with the schedule as it stands.
 * O(header).
 */
void ns_schedule_stream_to(NsSchedule *s, const NsPhaseSink *sink);
/* Is the schedule being streamed? */
gboolean ns_schedule_is_streamed(const NsSchedule *s);
/* Hands on the last phase and ends the stream. FALSE with the sink's
 * first error, or NS_ERROR_INPUT when the planner changed the header after
 * streaming began or added sync edges or routes (a planner bug). Phases
 * and transfers handed on: *n_phases, *n_transfers (either may be NULL).
 * O(last phase). */
gboolean ns_schedule_stream_finish(NsSchedule *s, uint32_t *n_phases, uint64_t *n_transfers,
                                   GError **error);

/* Pre-sizes the arrays (an optimisation only; nothing for a streamed
 * schedule). */
void ns_schedule_reserve(NsSchedule *s, uint32_t n_phases, uint64_t n_transfers);

/* Starts a new (empty) phase; following transfers go into it. Returns its
 * index. */
uint32_t ns_schedule_begin_phase(NsSchedule *s);
/* Appends a transfer with one chunk (the common case) to the current phase;
 * starts phase 0 if none was begun. Returns the transfer index. */
uint32_t ns_schedule_add(NsSchedule *s, int src, int dst, uint32_t chunk);
/* Appends `n` transfers with one chunk each (n_chunks 1, `chunk` the chunk)
 * to the current phase at once: ns_schedule_add() n times, for a planner
 * that builds a phase in a buffer of its own. Returns the first index. */
uint32_t ns_schedule_add_transfers(NsSchedule *s, const NsTransfer *transfers, uint32_t n);
/* Appends `n` transfers to the current phase and returns them for the
 * caller to write in place, every one, before the next call on the
 * schedule (they are not initialised): ns_schedule_add() n times without
 * a call or a copy a transfer, for a planner that knows a phase's size.
 * The pointer is valid until the next call on the schedule. */
NsTransfer *ns_schedule_add_room(NsSchedule *s, uint32_t n);
/* Appends a transfer carrying `n` chunks (n >= 1). */
uint32_t ns_schedule_add_chunks(NsSchedule *s, int src, int dst, uint32_t n,
                                const uint32_t *chunks);
/* Appends a transfer whose receiver combines the `n` segments it carries
 * with its own partial results (reduce, allreduce; see above). */
uint32_t ns_schedule_add_combine(NsSchedule *s, int src, int dst, uint32_t n,
                                 const uint32_t *chunks);
/* Appends a transfer of `n` raw contributions (chunks ns_raw_chunk(S, o,
 * seg); reduce, allreduce; see "Raw contributions" above). */
uint32_t ns_schedule_add_raw(NsSchedule *s, int src, int dst, uint32_t n, const uint32_t *chunks);
/* Appends a transfer src -> dst of `n` chunks with the combine and raw
 * flags of `like` (a copy of a transfer read or handed on elsewhere). */
uint32_t ns_schedule_add_like(NsSchedule *s, const NsTransfer *like, const uint32_t *chunks);
void ns_schedule_add_sync(NsSchedule *s, uint32_t from, uint32_t to);
/* Gives transfer `t` its own route: the `n` >= 2 node names from its src
 * machine to its dst machine (copied). Routes must be given in increasing
 * transfer order. Checked against a topology by sched/ir/route.h. */
void ns_schedule_set_route(NsSchedule *s, uint32_t t, int n, const char *const *nodes);
/* The route of transfer t: its node names in *nodes and their number, or
 * 0 when it takes the topology's route. O(log routes). */
int ns_schedule_route_of(const NsSchedule *s, uint64_t t, const char *const **nodes);
/* Renames the schedule's algorithm and, when `sync_scheme` is not NULL,
 * records the synchronisation scheme the algorithm prescribes (the
 * simulator's default for it). For variants and selectors built on another
 * planner. */
void ns_schedule_relabel(NsSchedule *s, const char *algorithm, const char *sync_scheme);

/**
 * \function ns_schedule_n_phases
 * \brief Number of phases.
 *
 * \param s The schedule.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
static inline uint32_t ns_schedule_n_phases(const NsSchedule *s) { return s->phase_start->len; }
/**
 * \function ns_schedule_n_transfers
 * \brief Number of transfers.
 *
 * \param s The schedule.
 * \return The count.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
static inline uint64_t ns_schedule_n_transfers(const NsSchedule *s) { return s->transfers->len; }
/**
 * \function ns_schedule_transfer
 * \brief A transfer by index.
 *
 * \param s The schedule.
 * \param t The transfer index.
 * \return The transfer (valid until the schedule changes).
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
static inline const NsTransfer *ns_schedule_transfer(const NsSchedule *s, uint64_t t)
{
  return &g_array_index(s->transfers, NsTransfer, t);
}
/* Transfers of phase p are [*first, *first + *count). */
void ns_schedule_phase_range(const NsSchedule *s, uint32_t p, uint64_t *first, uint64_t *count);
/* Phase p of a schedule held whole, as the streams hand phases on
 * (pointers into the schedule, valid until it changes). O(1). */
NsPhase ns_schedule_phase(const NsSchedule *s, uint32_t p);
/* The phase transfer t belongs to. O(log phases). */
uint32_t ns_schedule_transfer_phase(const NsSchedule *s, uint64_t t);
/* Chunks of a transfer (pointer into the schedule, valid until it changes). */
const uint32_t *ns_schedule_chunks(const NsSchedule *s, const NsTransfer *t);

/* Phase `p` as text, "n0->n4 n3->n5 ..." in list order; with `chunks`,
 * each transfer's chunks follow a colon, joined by '+' ("n0->n1:3").
 * Newly allocated. For tables and tests. */
char *ns_schedule_phase_text(const NsSchedule *s, uint32_t p, gboolean chunks);

struct NsTopology;
/* Node ids, in the topology, of the schedule's machines (matched by name;
 * a schedule may use a subset of the topology's machines). Newly allocated
 * (g_free), or NULL with NS_ERROR_INPUT "schedule machine 'x' is not a
 * machine of topology T". O(|M|). */
int *ns_schedule_machine_nodes(const struct NsTopology *topo, const NsSchedule *s,
                               GError **error);

/* Gives an alltoallv or allgatherv schedule its chunk sizes: `n` values
 * (n_machines² for alltoallv, indexed by ns_a2a_chunk; n_machines for
 * allgatherv), copied; msize becomes the largest (at least 1). A reduce or
 * allreduce whose vector does not split into equal segments (n bytes into
 * p blocks: Rabenseifner's, the ring's) takes one size per segment the
 * same way (n_segments set first). FALSE with NS_ERROR_INPUT when `n` is
 * not that count. O(n). */
gboolean ns_schedule_set_chunk_bytes(NsSchedule *s, const uint64_t *sizes, uint64_t n,
                                     GError **error);

/**
 * \function ns_schedule_chunk_size
 * \brief The size of one chunk in bytes.
 *
 * \param s The schedule.
 * \param chunk A chunk of its collective.
 * \return chunk_bytes[chunk] for alltoallv and allgatherv, chunk_bytes[chunk mod
 *         n_segments] for a reduction's segment or raw chunk, msize otherwise.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
static inline uint64_t ns_schedule_chunk_size(const NsSchedule *s, uint32_t chunk)
{
  if (s->chunk_bytes == NULL)
    return s->msize;
  /* a reduction's raw chunk o·S + seg is as large as its segment */
  return g_array_index(s->chunk_bytes, uint64_t,
                       s->n_segments > 0 ? chunk % s->n_segments : chunk);
}

/**
 * \function ns_raw_chunk
 * \brief The raw chunk of origin `origin`'s untouched contribution to a segment.
 *
 * \param n_segments The reduction's number of segments S.
 * \param origin The contributing machine index.
 * \param segment The segment.
 * \return origin·S + segment (schedule.h, "Raw contributions").
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md, "Reductions".
 */
static inline uint32_t ns_raw_chunk(uint32_t n_segments, int origin, uint32_t segment)
{
  return (uint32_t)origin * n_segments + segment;
}

/* Bytes a transfer moves: the sum of its chunks' sizes. O(chunks). */
uint64_t ns_schedule_transfer_bytes(const NsSchedule *s, const NsTransfer *t);
/* Bytes a transfer moves when the schedule is replayed at chunk size
 * `msize` (a simulation may resize a schedule read from a file): its own
 * chunk sizes when it has them (chunk_bytes), else n_chunks · msize. O(chunks). */
uint64_t ns_schedule_transfer_bytes_at(const NsSchedule *s, const NsTransfer *t, uint64_t msize);

/* Is the collective a reduction (reduce, allreduce)? Does it carry
 * per-chunk sizes (alltoallv, allgatherv)? What collective do its chunks
 * follow (alltoallv -> alltoall, allgatherv -> allgather, a reduction ->
 * bcast: segments; the others themselves)? O(1). */
gboolean ns_collective_is_reduction(NsCollective c);
gboolean ns_collective_is_vector(NsCollective c);
NsCollective ns_collective_chunk_kind(NsCollective c);

/* alltoall chunk helpers */
/**
 * \function ns_a2a_chunk
 * \brief The chunk of the all-to-all message from `origin` to `destination`.
 *
 * \param n Number of machines.
 * \param origin The message's source machine index.
 * \param destination Its destination machine index.
 * \return origin·n + destination.
 * \errors none.
 * \complexity O(1).
 * \source docs/schedule-format.md.
 */
static inline uint32_t ns_a2a_chunk(int n, int origin, int destination)
{
  return (uint32_t)origin * (uint32_t)n + (uint32_t)destination;
}

#endif
