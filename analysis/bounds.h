/* netsched — theoretical bounds of collectives on a topology.
 *
 * All-to-all personalized communication (AAPC) on a tree, after Faraj & Yuan
 * "Message Scheduling for All-to-All Personalized Communication on Ethernet
 * Switched Clusters", §3 and §4.1, and the dissertation §3.1:
 *   - the load of a directed edge (u,v) is the number of AAPC messages
 *     crossing it; removing link (u,v) splits the machines into M_u and M_v
 *     and the load is |M_u|·|M_v| (same in both directions);
 *   - the bottleneck edges carry the maximum load; that load is the minimum
 *     number of contention-free phases of any AAPC schedule;
 *   - best-case completion time |M_u|·|M_v|·msize/B over the bottleneck,
 *     peak aggregate throughput |M|(|M|−1)·B/(|M_u|·|M_v|);
 *   - the root is a switch on a bottleneck link with every subtree holding
 *     at most |M|/2 machines (Lemma 1);
 *   - path length of a message = number of switches it traverses.
 * With links of different bandwidths the time bound is the maximum over
 * edges of load(e)·msize·8/B(e), which reduces to the paper's formula for
 * uniform links.
 */
#ifndef NETSCHED_BOUNDS_H
#define NETSCHED_BOUNDS_H

#include "platforms/topology.h"
#include <stdint.h>

/* AAPC load of every link (both directions carry the same load on a tree):
 * loads[link] = |M_u|·|M_v|. `loads` has ns_topology_n_links() entries.
 * Tree routing only. O(|V|). */
void ns_a2a_link_loads(const NsTopology *topo, uint64_t *loads);

typedef struct {
  uint64_t load;            /* bottleneck load: minimum number of phases */
  int n_bottlenecks;        /* number of links carrying that load */
  int bottleneck_link;      /* the first of them */
  int root;                 /* node id of the root switch (Lemma 1) */
  int m_u, m_v;             /* machines on the two sides of bottleneck_link, m_u >= m_v */
  double time_bound;        /* s: best-case completion time for msize */
  double throughput_bound;  /* bit/s: peak aggregate throughput */
  int path_min, path_max;   /* path lengths (switches traversed) over all pairs */
  double path_mean;
} NsA2ABound;

/* Computes the AAPC bounds for messages of `msize` bytes. Tree routing only;
 * O(|V| + |M|·depth) — the path statistics are computed from subtree counts,
 * not by enumerating the |M|² pairs. */
void ns_a2a_bound(const NsTopology *topo, uint64_t msize, NsA2ABound *out);

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

#endif
