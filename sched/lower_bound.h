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
 *                 capacity of those links. The cuts examined: every link of
 *                 a tree and every bridge of a graph (Faraj & Yuan §3: the
 *                 bottleneck load |M_u|·|M_v|); the two halves of every
 *                 dimension of a grid (a ring or torus: Liu Gang et al.'s
 *                 Lemma 1, N_1·ΠN_i·m/8 for the largest dimension N_1); the
 *                 machines below each block of a levelled fat tree.
 * With equal bandwidths on the links of a cut, messages are indivisible
 * (a chunk travels whole), so some link carries at least ⌈messages/links⌉
 * of them: that is Faraj & Yuan's phase count on a tree and ⌈p²/8⌉ on a
 * ring of p nodes. With different bandwidths the bound is fluid:
 * messages·size/capacity.
 *
 * The bound is valid for every schedule, direct or indirect; a schedule
 * whose transmission time equals it is optimal (verify's `optimal` check),
 * and one that cannot reach it is never called optimal.
 */
#ifndef NETSCHED_LOWER_BOUND_H
#define NETSCHED_LOWER_BOUND_H

#include "platforms/topology.h"
#include "sched/schedule.h"

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
 * ns_lower_bound — the transmission lower bound of collective `c` over all
 * the machines of `topo`, for chunks of `msize` bytes (`n_segments` chunks
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

/* "link s0->s1 (|M_u|·|M_v| = 768 messages at 10Gbps)"-style text naming
 * what binds. Newly allocated. */
char *ns_lower_bound_describe(const NsTopology *topo, const NsLowerBound *b);

#endif
