/* netsched — spanning trees of graph topologies (igraph).
 *
 * An Ethernet of switches in a graph forwards on a spanning tree (the
 * spanning-tree protocol disables the other links), and every tree
 * algorithm of netsched (faraj, lr1–lr3, Algorithms 4 and 5) needs a tree.
 * The dissertation's random-topology study (§3.3.3) builds spanning trees
 * of random switch graphs three ways; netsched offers them, named for what
 * they are:
 *   bfs       breadth-first tree from a root switch
 *   dfs       depth-first tree from a root switch
 *   kruskal   links in random order, each kept unless it closes a cycle —
 *             the dissertation's "random tree" (random-order Kruskal; not
 *             uniform over spanning trees); "random" is accepted for it
 *   uniform   a spanning tree drawn uniformly at random
 *             (igraph_random_spanning_tree: loop-erased random walk)
 * The root of bfs and dfs is a named switch, else a switch drawn from the
 * seed (the dissertation picks it at random). Everything is reproducible
 * from the seed on every machine (igraph's default generator).
 */
#ifndef NETSCHED_SPANNING_H
#define NETSCHED_SPANNING_H

#include "platforms/model/topology.h"
#include <stdint.h>

typedef enum { NS_SPAN_BFS, NS_SPAN_DFS, NS_SPAN_KRUSKAL, NS_SPAN_UNIFORM } NsSpanMethod;

/* How a uniform tree is drawn. Both are uniform over spanning trees; they
 * consume the random stream differently, and each caller keeps the stream
 * its published trees were drawn with. */
typedef enum {
  NS_SPAN_WALK_IGRAPH, /* igraph_random_spanning_tree's random walk on igraph's
                          default generator (--spanning) */
  NS_SPAN_WALK_WILSON, /* Wilson's loop-erased random walks on the caller's
                          generator (GT-ITM's tree=uniform) */
} NsSpanWalk;

struct igraph_rng_t;

typedef struct {
  NsSpanMethod method;
  uint64_t seed;           /* default 1 */
  char *root;              /* node name, NULL: drawn from the seed */
} NsSpanSpec;

/* Parses "bfs", "dfs:SEED", "kruskal:7@s3" (METHOD[:SEED][@ROOT]) into
 * `spec` (spec->root newly allocated or NULL). NS_ERROR_INPUT listing the
 * methods otherwise. */
gboolean ns_span_spec_parse(const char *text, NsSpanSpec *spec, GError **error);
void ns_span_spec_clear(NsSpanSpec *spec);
const char *ns_span_method_name(NsSpanMethod m);
/* "bfs", "dfs", "kruskal" (or the dissertation's "random"), "uniform". */
gboolean ns_span_method_parse(const char *name, NsSpanMethod *m);

/*
 * ns_spanning_tree_edges — the one spanning-tree implementation of netsched
 * (igraph_minimum_spanning_tree(graph, res, weights, method) is the model:
 * one entry point, the algorithm a parameter). The graph has `n` vertices
 * and `m` undirected edges, edge i joining ends[2i] and ends[2i+1]; keep[i]
 * (caller's array of m, zeroed) is set for each edge of the tree:
 *   NS_SPAN_BFS, NS_SPAN_DFS  the edges to the parents of a breadth- or
 *       depth-first search from `root` (igraph), the lowest-numbered edge
 *       of a parallel pair;
 *   NS_SPAN_KRUSKAL  edges in a random order (a Fisher–Yates shuffle drawn
 *       from `rng`), each kept unless it closes a cycle;
 *   NS_SPAN_UNIFORM  a uniform spanning tree from `root`, drawn as `walk`
 *       says (NS_SPAN_WALK_IGRAPH needs rng == igraph_rng_default()).
 * Returns the number of edges kept (n - 1 when the graph is connected), or
 * -1 when igraph fails. Time O(n + m) (kruskal O(m α(n)); the walks their
 * cover time).
 */
int ns_spanning_tree_edges(int n, const int *ends, int m, NsSpanMethod method, int root,
                           struct igraph_rng_t *rng, NsSpanWalk walk, gboolean *keep);

/*
 * ns_topology_spanning_tree — the same nodes with only the links of a
 * spanning tree of `graph` (attributes and source lines kept), finalized
 * under tree routing. Its source reads "SOURCE (bfs spanning tree, seed 3,
 * root s4)". NS_ERROR_INPUT for an unknown root, or when the tree leaves a
 * machine with several links (a direct network: machines would forward).
 * Time O(|V| + |E|) (kruskal O(|E| log |E|)).
 */
NsTopology *ns_topology_spanning_tree(const NsTopology *graph, const NsSpanSpec *spec,
                                      GError **error);

#endif
