/* netsched — properties of switch trees (tree routing) shared by the
 * planners and the bounds:
 *   - the AAPC load of a link: removing link (u,v) splits the machines into
 *     M_u and M_v, and |M_u|·|M_v| messages cross it each way (Faraj & Yuan
 *     §3; dissertation §3.1);
 *   - the root of Faraj & Yuan §4.1 and its subtrees (§4.2);
 *   - the path length of a message: the switches it traverses;
 *   - Theorem 3's condition for a contention-free 2-hop logical ring
 *     (dissertation §3.3.2.3).
 * All need NS_ROUTING_TREE. They live in platforms/ because planners
 * (sched/) and bounds (analysis/) both build on them. */
#ifndef NETSCHED_TREE_H
#define NETSCHED_TREE_H

#include "platforms/model/topology.h"
#include <stdint.h>

/* AAPC load of every link (both directions carry the same load on a tree):
 * loads[link] = |M_u|·|M_v|. `loads` has ns_topology_n_links() entries.
 * Tree routing only. O(|V|). */
void ns_a2a_link_loads(const NsTopology *topo, uint64_t *loads);

/* The root of Faraj & Yuan §4.1: start at a bottleneck link (u,v) with
 * |M_u| >= |M_v| and walk towards u while u has a single branch with
 * machines. Returns the node id of a switch. When |M_u| = |M_v| both ends
 * give a valid root; the one with fewer subtrees is taken (then the lower
 * node id), which picks s1 in the paper's Figure 1. For |M| = 2 the paper's
 * process is undefined; the switch of machine 0 is returned (every switch on
 * the path between the two machines is a valid root). O(|V|). */
int ns_a2a_find_root(const NsTopology *topo);

/* The subtrees of `root`, as Faraj & Yuan §4.2 needs them: one per branch
 * of `root` holding machines, sorted by decreasing machine count (ties keep
 * the order of root's links), each listing its machine indices in
 * increasing order. Result: *n_subtrees, sizes[i], and members as one flat
 * array (subtree i is members[offset[i] .. offset[i]+sizes[i])). Arrays are
 * newly allocated (g_free). O(|V| log |V|). */
void ns_root_subtrees(const NsTopology *topo, int root, int *n_subtrees, int **sizes,
                      int **offset, int **members);

/* Number of switches on the path between two machines. O(path). */
int ns_path_length(const NsTopology *topo, int src_machine, int dst_machine);

/* Theorem 3's condition. */
typedef struct {
  gboolean holds;
  int sw;          /* node id of the first violating switch (node order), −1 if it holds */
  int machines;    /* machines directly attached to it */
  int switches;    /* switches directly attached to it */
} NsTwoHop;

/* Checks Theorem 3's condition on every switch. O(|V|). */
gboolean ns_allgather_two_hop(const NsTopology *topo, NsTwoHop *out);

/* "switch s1 has 1 directly attached machine but 3 directly attached
 * switches" (newly allocated); NULL when the condition holds. */
char *ns_two_hop_describe(const NsTopology *topo, const NsTwoHop *th);

#endif
