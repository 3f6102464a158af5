/* netsched — built-in topology shapes and random tree generators.
 *
 * Every generator returns a finalized topology (or NULL and an error for
 * impossible parameters). Machines are named n0..n{p-1} and numbered in
 * depth-first order of the switches they hang from; switches s0..s{k-1}.
 * All links get the given bandwidth and latency.
 *
 * Specification strings (used by the CLI wherever a topology file is
 * accepted, prefixed with "gen:"):
 *   star:P                    P machines on one switch (Faraj–Yuan (a): star:24)
 *   chain:S,M                 S switches in a chain, M machines on each ((c): chain:4,8)
 *   switch-star:S,M           one switch with S−1 switches attached, M machines
 *                             on every switch ((b): switch-star:4,8)
 *   tree:F1,F2,...,Fn         uniform tree: a root switch with F1 child switches,
 *                             each with F2, ..., the last level holding Fn machines
 *                             (tree:4,16,16 = 3-level tree of 1024 machines)
 *   random:SEED,P,S[,KIND]    random tree with P machines on S switches; KIND is
 *                             uniform (default; igraph Prüfer tree), star, chain,
 *                             deep or unbalanced (see ns_shape_random)
 *   fattree:K,N               k-ary n-tree (Petrini & Vanneschi): K^N machines, N levels
 *                             of K^(N-1) switches, dmodk routing (QsNet, InfiniBand)
 *   leafspine:L,S,M[,R]       two-level Clos: L leaves "leaf<i>" with M machines each,
 *                             every leaf linked to each of S spines "spine<j>"; up-links at
 *                             uplink= or at the speed giving oversubscription R (machine
 *                             bandwidth over up-link bandwidth of a leaf, default 1);
 *                             ecmp routing (see leafspine.h)
 *   torus:AxB[x...]           torus of A·B·… machines, each its own router, all-port,
 *                             dimension-order routing (ring: torus of one dimension)
 *   mesh:AxB[x...]            the same without wrap-around links
 *   ring:P                    torus:P
 *   hypercube:D               mesh:2x2x...x2 (D dimensions, e-cube routing)
 *   hierarchy:AxB             Tam & Wang's FE/GE hierarchy (§4: 16x1, 8x2, 8x3, 6x4,
 *                             8x4): A machines on each of B input-buffered FE switches,
 *                             1 Gbit/s uplinks (uplink=) to a shared-buffered GE switch;
 *                             Table 1 buffers (see ns_shape_hierarchy)
 *   waxman:SEED,S[,K]         GT-ITM flat Waxman graph of S switches, average degree K
 *                             (default 4), 5 machines per switch each on a uniformly
 *                             random switch (Faraj §3.3.3: waxman:SEED,200 = 1000 machines)
 *   transit-stub:SEED[,T,NT,K,NS]  GT-ITM transit-stub graph: T transit domains of NT
 *                             switches, K stub domains of NS switches per transit switch
 *   kruskal-tree:SEED,S       random switch tree, random links skipping those that close a
 *                             loop (Faraj §3.4.2.2, Figure 3.29)
 *                             these three also take machines=RATIO, total=P,
 *                             attach=uniform|even|A-B, tree=none|bfs|dfs|kruskal|uniform
 *                             (a spanning tree of the graph) and their own keys; see
 *                             platforms/gen/gtitm.h and docs/sweeps.md
 * Every shape takes options after it, ":KEY=VALUE" each:
 *   bandwidth=1Gbps           machine links (and all links unless uplink is given)
 *   uplink=10Gbps             switch-to-switch links
 *   latency=1us               every link
 *   forwarding=cut-through    switches (default store-and-forward)
 *   ports=all|1|K             machines' port model (default: all-port for machines
 *                             with several links, else 1-port)
 * e.g. gen:tree:4,16:bandwidth=1Gbps:uplink=10Gbps, gen:torus:8x8:latency=100ns.
 */
#ifndef NETSCHED_SHAPES_H
#define NETSCHED_SHAPES_H

#include "platforms/gen/fabrics.h"
#include "platforms/gen/hierarchy.h"
#include "platforms/gen/leafspine.h"
#include "platforms/gen/presets.h"
#include "platforms/gen/shape_options.h"
#include "platforms/model/topology.h"
#include <stdint.h>

typedef enum {
  NS_RANDOM_UNIFORM,     /* switch tree uniform over labelled trees (Prüfer), machines uniform */
  NS_RANDOM_STAR,        /* one central switch, the others attached to it */
  NS_RANDOM_CHAIN,       /* switches in a chain */
  NS_RANDOM_DEEP,        /* each switch attached to one of the 2 most recent: depth ~ S/2 */
  NS_RANDOM_UNBALANCED,  /* machines skewed: half of them on one random switch */
} NsRandomKind;

NsTopology *ns_shape_star(int machines, double bandwidth, double latency);
NsTopology *ns_shape_chain(int switches, int per_switch, double bandwidth, double latency);
NsTopology *ns_shape_switch_star(int switches, int per_switch, double bandwidth,
                                 double latency);
/* Uniform tree: fanout[0..levels-2] child switches per switch, fanout[levels-1]
 * machines per leaf switch. NULL with NS_ERROR_INPUT if a fanout is < 1 or
 * the tree would exceed 1,000,000 nodes. */
NsTopology *ns_shape_tree(const int *fanout, int levels, double bandwidth, double latency,
                          GError **error);
/* Random tree with `machines` (>= 2) machines on `switches` (>= 1) switches,
 * reproducible from `seed` (igraph's default RNG, seeded here). Every
 * switch that ends up without machines below it is pruned by finalize, so
 * the result may have fewer switches than asked. Time O(S + P). */
NsTopology *ns_shape_random(uint64_t seed, int machines, int switches, NsRandomKind kind,
                            double bandwidth, double latency, GError **error);

/* Parses a "gen:..." specification (without the "gen:" prefix). */
NsTopology *ns_shape_from_spec(const char *spec, GError **error);
const char *ns_random_kind_name(NsRandomKind kind);

#endif
