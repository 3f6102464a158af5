/* netsched — synchronisation schemes for phased schedules and the pair-wise
 * synchronisation set (dissertation §3.2.3, Table 3.5; Faraj & Yuan §5).
 *
 * Execution model shared by the simulator and the verifier ("program
 * order"): every machine performs the phases it takes part in in order, and
 * starts its transfers of a phase only after all its transfers (sent or
 * received) of earlier phases have completed. Sync edges add orderings
 * between transfers of *different* machines: transfer `to` starts only
 * after transfer `from` completed.
 *
 * Schemes (names as on the command line):
 *   none                         program order only (the paper's no-sync.)
 *   dummy                        none + dummy messages for idle machines
 *   sender-all, receiver-all     pair-wise syncs separate every pair of
 *                                contending transfers in different phases;
 *                                the sync message goes from the sender
 *                                (resp. receiver) of `from` to the sender of `to`
 *   sender-partial:BS, receiver-partial:BS
 *                                the same, only between different blocks of
 *                                BS phases
 *   barrier-all                  a barrier between every two phases
 *   barrier-partial-none:BS      a barrier every BS phases, nothing inside blocks
 *   barrier-partial-sender:BS, barrier-partial-receiver:BS
 *                                barriers every BS phases, sender-all /
 *                                receiver-all inside each block
 *   light                        light-weight barrier of the ring/pair
 *                                families (dissertation §4.1.1.1): before
 *                                each transfer the receiver, once it has
 *                                reached that phase, sends the sender a small
 *                                "ready" message, and the sender waits for it
 *   window:W                     Tam & Wang's global window (§3.2, Algorithm
 *                                2), for posted schedules: every transfer
 *                                is sent as ⌈bytes / NS_SYNC_WINDOW_ITEM⌉
 *                                items, interleaved over the machine's
 *                                transfers in posting order (item 1 of each,
 *                                then item 2, ...: Algorithm 1's loops);
 *                                every machine keeps η = items it has sent −
 *                                items it has received, and posts its next
 *                                item only while η < W
 */
#ifndef NETSCHED_SYNC_H
#define NETSCHED_SYNC_H

#include "platforms/model/topology.h"
#include "sched/ir/route.h"
#include "sched/ir/schedule.h"

typedef enum {
  NS_SYNC_NONE,
  NS_SYNC_DUMMY,
  NS_SYNC_SENDER_ALL,
  NS_SYNC_SENDER_PARTIAL,
  NS_SYNC_RECEIVER_ALL,
  NS_SYNC_RECEIVER_PARTIAL,
  NS_SYNC_BARRIER_ALL,
  NS_SYNC_BARRIER_PARTIAL_NONE,
  NS_SYNC_BARRIER_PARTIAL_SENDER,
  NS_SYNC_BARRIER_PARTIAL_RECEIVER,
  NS_SYNC_LIGHT,
  NS_SYNC_WINDOW,
} NsSyncKind;

typedef struct {
  NsSyncKind kind;
  int block;        /* BS for the partial schemes, W for window, else 0 */
} NsSyncScheme;

/* The item of the window scheme: one Ethernet MTU, the packet of Tam &
 * Wang's items (§2.3: b = mtu). */
#define NS_SYNC_WINDOW_ITEM 1500

/* "sender-partial:8" -> scheme. NS_ERROR_INPUT listing the schemes on an
 * unknown name, a missing or non-positive block size or window. */
gboolean ns_sync_scheme_parse(const char *text, NsSyncScheme *scheme, GError **error);
/* "sender-partial:8" (newly allocated). */
char *ns_sync_scheme_to_string(const NsSyncScheme *scheme);
/* "barrier-partial-none:BS" with BS such that ⌈log2 p⌉ barriers split the
 * p − 1 phases of the ring/pair families evenly (their "N MPI barriers"
 * variants, dissertation §4.1.1.1). Newly allocated. */
char *ns_sync_n_barrier_scheme(int p);
/* Comma-separated list of the scheme names, for help texts. */
const char *ns_sync_scheme_names(void);

gboolean ns_sync_uses_pairwise(const NsSyncScheme *scheme);   /* sender/receiver based */
gboolean ns_sync_is_receiver_based(const NsSyncScheme *scheme);
/* Is there a barrier before phase `phase` (> 0)? */
gboolean ns_sync_barrier_before(const NsSyncScheme *scheme, uint32_t phase);
/* Must the pair-wise syncs order two contending transfers of phases p < q?
 * (all: always; partial: different blocks; barrier-partial-x: same block.) */
gboolean ns_sync_pair_needed(const NsSyncScheme *scheme, uint32_t p, uint32_t q);

typedef struct {
  uint64_t candidates;     /* orderings required before reduction */
  uint64_t implied;        /* of those, already implied by program order */
  uint64_t redundant;      /* removed by the transitive reduction */
  uint64_t kept;           /* sync edges stored */
  uint64_t undecided;      /* kept because the bounded search gave up (not proven redundant) */
} NsSyncStats;

/*
 * ns_schedule_compute_sync — the pair-wise synchronisation set of
 * dissertation §3.2.3.2, stored in s->sync (replacing what was there) and
 * the scheme's name in s->sync_scheme.
 *
 * Steps:
 *  1. For every directed edge, the transfers using it sorted by phase;
 *     ordering consecutive users (of different phases, as the scheme
 *     requires) orders every contending pair by transitivity — O(Σ routes)
 *     candidates instead of the paper's O(|M|⁴) pairs. Partial schemes
 *     connect every user of a block to every user of the next block that
 *     uses the edge.
 *  2. Drop candidates implied by program order (the two transfers share a
 *     machine).
 *  3. Transitive reduction: drop a candidate u->v when v is reachable from
 *     u through program order and other candidates; the search only visits
 *     transfers of phases between u's and v's and stops after a budget of
 *     nodes, keeping the edge when undecided (counted in stats->undecided).
 * For schemes without pair-wise syncs the sync list is emptied.
 * Time O(Σ routes · log) for steps 1–2 plus O(budget) per candidate whose
 * phases are more than one apart. Phased schedules only (NS_ERROR_INPUT for
 * posted ones).
 */
gboolean ns_schedule_compute_sync(const NsTopology *topo, NsSchedule *s,
                                  const NsSyncScheme *scheme, NsSyncStats *stats,
                                  GError **error);
/* The same with the schedule's routes already resolved (ns_router_for; one
 * that does not fit the schedule, or NULL, is resolved again here). */
gboolean ns_schedule_compute_sync_routed(const NsTopology *topo, NsSchedule *s,
                                         const NsRouter *router, const NsSyncScheme *scheme,
                                         NsSyncStats *stats, GError **error);

/* Checks that program order plus s->sync order every pair of contending
 * transfers the scheme separates (ns_sync_pair_needed). *unordered gets the
 * number of required orderings that do not hold (counted between
 * consecutive users of each directed edge), the first in *first_u,
 * *first_v. Unbounded search: O(candidates x window). */
gboolean ns_sync_check(const NsTopology *topo, const NsSchedule *s, const NsSyncScheme *scheme,
                       uint64_t *unordered, uint32_t *first_u, uint32_t *first_v, GError **error);
/* The same with the schedule's routes already resolved (as above). */
gboolean ns_sync_check_routed(const NsTopology *topo, const NsSchedule *s,
                              const NsRouter *router, const NsSyncScheme *scheme,
                              uint64_t *unordered, uint32_t *first_u, uint32_t *first_v,
                              GError **error);

/*
 * ns_sync_find_cycle — does the schedule deadlock?
 *
 * Program order plus the sync edges must form a DAG: a cycle is a set of
 * transfers each waiting for the next, which no execution can start (the
 * simulator would report a deadlock). Program order is modelled with one
 * auxiliary node per machine step ("machine m finished its transfers of
 * phase k"), so the graph has O(transfers) nodes and edges rather than the
 * quadratic complete bipartite orderings between consecutive steps.
 *
 * Steps: build the program-order graph; iterative depth-first search with
 * three colours; the first back edge closes a cycle, read off the DFS stack.
 * Phased schedules whose sync edges all go from an earlier to a strictly
 * later phase are acyclic by construction and are answered without a search.
 *
 * `cycle` (may be NULL) receives the transfer ids of the first cycle found,
 * in wait order: cycle[i+1] starts only after cycle[i] completed, and the
 * last one releases the first. Returns TRUE when a cycle exists.
 * Time and memory O(transfers + sync edges). Posted schedules have no sync
 * edges by definition: FALSE.
 */
gboolean ns_sync_find_cycle(const NsSchedule *s, GArray *cycle);

#endif
