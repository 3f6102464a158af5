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
