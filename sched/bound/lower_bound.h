/* netsched — the transmission lower bound of a collective on any fabric.
 *
 * A lower bound on the time any algorithm needs to move a collective's
 * data, counting transmission only (no latency, no start-up): the largest
 * of
 *   port bounds   a machine must send, and receive, its share through its
 *                 links: (p−1) messages at the speed of its fastest link
 *                 (1-port), of its k fastest (k-port), of all its links
 *                 (all-port, Liu Gang et al. §II);
 *   cut bounds    a set S of machines whose messages to the rest must cross
 *                 the links leaving S: |S|·(p−|S|) messages (all-to-all),
 *                 |S| blocks (all-gather) or one message (broadcast) over the
 *                 capacity of those links; a reduction's segments: towards
 *                 the root's side (reduce), both ways (all-reduce), with an
 *                 all-reduce's machines together sending 2(p−1) copies of
 *                 each segment (one-way gossip; Patarasuk & Yuan 2009).
 *                 The cuts examined: every link of
 *                 a tree and every bridge of a graph (Faraj & Yuan §3: the
 *                 bottleneck load |M_u|·|M_v|); the two halves of every
 *                 dimension of a grid (a ring or torus: Liu Gang et al.'s
 *                 Lemma 1, N_1·ΠN_i·m/8 for the largest dimension N_1); the
 *                 machines below each block of a levelled fat tree (and
 *                 of a Clos graph under ecmp: a leaf and its machines).
 * With equal bandwidths on the links of a cut, messages are indivisible
 * (a chunk travels whole), so some link carries at least ⌈messages/links⌉
 * of them: that is Faraj & Yuan's phase count on a tree and ⌈p²/8⌉ on a
 * ring of p nodes. With different bandwidths the bound is fluid:
 * messages·size/capacity.
 *
 * This is the bound over any routing (the cut bound, ns_lower_bound): it
 * is valid for every schedule, direct or indirect, whatever paths the
 * messages take.
 *
 * The bound for the routing in use (ns_lower_bound_routed) is what a
 * schedule on this network can reach: every all-to-all message crosses the
 * links of its route, so the directed link carrying the most routed bytes
 * over its bandwidth — or a machine's ports, or a cut, whichever is larger
 * — bounds it. It equals the cut bound where the routing spreads the load
 * as well as any routing could (trees: the unique path; fat trees under
 * d-mod-k; leaf/spines under ecmp) and exceeds it where routes pile up
 * (`shortest`'s lowest-id ties send every message between two leaves over
 * one spine). A schedule whose transmission time equals it is optimal
 * (verify's `optimal` check), and one that cannot reach it is never called
 * optimal. Two exceptions keep the cut bound: broadcast and all-gather
 * (machines forward their data along paths of the algorithm's choosing),
 * and direct networks under dimension-order routing (rings, meshes, tori:
 * every machine is a router that relays, so indirect schedules — Liu Gang
 * et al. — take both ways round a ring and reach Lemma 1's bound, which
 * the positive tie rule alone would exceed on even rings).
 */
#ifndef NETSCHED_LOWER_BOUND_H
#define NETSCHED_LOWER_BOUND_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"

typedef enum {
  NS_BOUND_PORT_SEND,    /* a machine's sending ports */
  NS_BOUND_PORT_RECV,    /* a machine's receiving ports */
  NS_BOUND_LINK,         /* one link is the whole cut (a tree link, a bridge) */
  NS_BOUND_BISECTION,    /* the two halves of a grid dimension */
  NS_BOUND_BLOCK,        /* the machines below a fat-tree block */
} NsBoundKind;

typedef struct {
  double seconds;        /* the bound for messages (chunks) of msize bytes */
  NsBoundKind kind;      /* what binds */
  int machine;           /* PORT: the machine (index) */
  int edge;              /* LINK: the directed edge (one of the bottleneck's) */
  int dim;               /* BISECTION: the dimension */
  int node;              /* BLOCK: a switch at the top of the block */
  int n_links;           /* directed links in the binding cut (1 for LINK, ports) */
  uint64_t load;         /* whole messages per directed link of the cut when its
                            links have one bandwidth: the phase count of a
                            1-chunk-per-transfer schedule; 0 when fluid */
  double bandwidth;      /* bit/s of those links (fluid: their capacity sum) */
  int n_bottlenecks;     /* LINK: links reaching the bound (both directions count once) */
} NsLowerBound;

/*
 * ns_lower_bound — the bound over any routing (the cut bound): the
 * transmission lower bound of collective `c` over all the machines of `topo`, for chunks of `msize` bytes (`n_segments` chunks
 * for a broadcast from machine `root`; ignored otherwise).
 *
 * Steps: port bounds of every machine; cut bounds of the cuts listed in
 * the header (tree links or igraph bridges, grid bisections, fat-tree
 * blocks); the largest wins, ties keeping the first found in that order.
 * Time O(|V| + |E|) plus O(blocks · |M| / 64) for levelled fat trees.
 * No errors: every finalized topology has a bound.
 */
void ns_lower_bound(const NsTopology *topo, NsCollective c, uint64_t msize, int root,
                    uint32_t n_segments, NsLowerBound *out);

/*
 * ns_lower_bound_reduction — the bound of a reduce or all-reduce of an
 * `n_bytes` vector, however it is segmented: the larger of the fluid bound
 * (bytes divisible) and, when `segment` > 0, that of its ⌊n/segment⌋ whole
 * segments (indivisible). The reduce's root is machine `root`. What is
 * bounded and why (a non-root's contribution leaves it, the root receives
 * every segment, a cut carries every segment towards the root — both ways
 * for an all-reduce —, and an all-reduce is one-way gossip: 2(p−1) sends
 * of every segment in all): docs/verify.md, "Bounds of the reductions".
 */
void ns_lower_bound_reduction(const NsTopology *topo, NsCollective c, uint64_t n_bytes,
                              uint64_t segment, int root, NsLowerBound *out);

/* Routed all-to-all work above which the loads are not computed (the
 * callers fall back to the cut bound and sampled path lengths, saying so):
 * |M|·|V| node visits (next-hop trees) or |M|²·route length (explicit):
 * 2^27, a few seconds; every shortest and ecmp routing is within it (their
 * next-hop tables are refused past 2^27 entries); k-ary n-trees under
 * dmodk and smodk take the closed form, which is not limited. */
#define NS_ROUTED_LOAD_MAX_WORK ((double)(1u << 27))

/* The same limit for the level-by-level count of levelled fat trees, whose
 * |M|·|V| steps cost about a quarter of the next-hop trees' (bench_bound,
 * gen:fattree:3,8: 1.12 against 4.32 s CPU): four times as many steps, so
 * that a 3-ary 8-tree (6,561 machines) gets its routed loads in about a
 * second. */
#define NS_UPDOWN_LOAD_MAX_WORK (4 * NS_ROUTED_LOAD_MAX_WORK)

/* Path lengths (nodes crossed between the ends) over the |M|(|M|−1)
 * ordered machine pairs, as the routing takes them. */
typedef struct {
  int min, max;
  double mean;
  gboolean exact;        /* computed over every pair (else not computed: min = -1) */
} NsRoutedPaths;

/*
 * ns_a2a_routed_loads — all-to-all messages on every directed edge
 * (edge[ns_topology_n_edges]) when each ordered machine pair sends one
 * message along the route of the topology's routing, and (when `paths` is
 * not NULL) the path lengths of those routes — not filled under tree
 * routing, whose path figures come from subtree counts (analysis/bounds.c).
 * Computed without walking the pairs where the routing allows it:
 *   tree             |M_u|·|M_v| each way, O(|V|);
 *   dimension-order  closed form per dimension (see lower_bound_routed.c),
 *                    exact, O(|M|·dims);
 *   dmodk, smodk on a k-ary n-tree where the route table's closed form
 *                    holds (machines a power of two): closed form per level,
 *                    O(|V|·arity + |M|·levels) (lower_bound_fat.c);
 *   dmodk, smodk on other levelled fat trees  level by level, O(|M|·|V|);
 *   shortest, ecmp, dmodk, smodk  the tree of routes towards each machine,
 *                    subtree sizes accumulated, O(|M|·|V|);
 *   explicit         every pair's route, O(|M|²·route length).
 * Returns FALSE (edge zero) when that work exceeds NS_ROUTED_LOAD_MAX_WORK.
 */
gboolean ns_a2a_routed_loads(const NsTopology *topo, uint64_t *edge, NsRoutedPaths *paths);

/* The bound for the routing in use from the routed loads of
 * ns_a2a_routed_loads (messages of msize bytes) and the cut bound `cut`
 * of the same collective: the busiest directed link (kind LINK, load its
 * messages, n_bottlenecks the directed links as busy) when it exceeds the
 * cut, else `cut` itself. */
void ns_lower_bound_from_loads(const NsTopology *topo, const NsLowerBound *cut,
                               const uint64_t *edge, uint64_t msize, NsLowerBound *out);

/* The bound for the routing in use (see the top of this header): the
 * all-to-all's routed bound, the cut bound for the other collectives, on
 * trees and under dimension-order routing, and when the routed loads are
 * past NS_ROUTED_LOAD_MAX_WORK. Same arguments as ns_lower_bound. */
void ns_lower_bound_routed(const NsTopology *topo, NsCollective c, uint64_t msize, int root,
                           uint32_t n_segments, NsLowerBound *out);

/* "link s0->s1 (|M_u|·|M_v| = 768 messages at 10Gbps)"-style text naming
 * what binds. Newly allocated. */
char *ns_lower_bound_describe(const NsTopology *topo, const NsLowerBound *b);

#endif
