/* netsched — logical rings for all-gather (internal helper, not a planner).
 *
 * The logical-ring all-to-all broadcast (dissertation §3.3.1.1): a ring is a
 * permutation ring[0..p−1] of the machine indices, read as the pattern
 * ring[0] -> ring[1] -> … -> ring[p−1] -> ring[0]. The schedule repeats the
 * pattern p−1 times; in phase 0 every machine sends its own block to its
 * successor, in phase k it forwards the block it received in phase k−1.
 *
 * Every ring planner (allgather/ring, lr1, lr2, lr3) builds a ring and hands
 * it to ns_allgather_ring_schedule(); the ring builders of the three
 * topology-specific planners are exported here too, so that the bounds
 * (analysis/bounds_allgather.h) and the CLI can report their path lengths
 * without building schedules.
 *
 * Path length = number of switches a message traverses (dissertation
 * §3.3.1); the maximum path length of a ring is the largest over its p
 * hops.
 */
#ifndef NETSCHED_ALLGATHER_RING_COMMON_H
#define NETSCHED_ALLGATHER_RING_COMMON_H

#include "platforms/model/topology.h"
#include "sched/planners/registry.h"

/* The p−1 phase logical-ring all-gather over `ring` (p = the topology's
 * machine count, ring a permutation of 0..p−1): phase k, position i sends
 * chunk ring[(i−k) mod p] to position i+1. Streams when ns_plan_streamed
 * asked for `algorithm` (memory O(p) then). Time and size O(p²). */
NsSchedule *ns_allgather_ring_schedule(const NsTopology *topo, const char *algorithm,
                                       const NsPlanParams *params, const int *ring);

/* Largest number of switches on a hop ring[i] -> ring[i+1 mod p].
 * O(p · depth). */
int ns_ring_max_path_length(const NsTopology *topo, const int *ring);

/* The neighbours of switch `sw` other than `parent` (−1: none), split into
 * machine indices (increasing) and switch node ids (link order). The arrays
 * (of int) are cleared first. O(deg log deg). */
void ns_ring_children(const NsTopology *topo, int sw, int parent, GArray *machines,
                      GArray *switches);

/* Builds a ring top-down from the tree's anchor without recursion:
 * expand(sw, items, user) appends switch sw's logical array one level
 * deep to `items` (a machine index >= 0, or −1 − node for a switch that is
 * expanded in turn, in place). Returns the number of machines written to
 * ring. O(|V|) plus the expansions. */
typedef void (*NsRingExpand)(int sw, GArray *items, void *user);
int ns_ring_unfold(const NsTopology *topo, NsRingExpand expand, void *user, int *ring);

/* Algorithm 1 (§3.3.2.1): machines grouped by switch, groups in DFS
 * preorder of the switches from the tree's anchor (the first switch),
 * children in link order, machines of a switch in index order.
 * Contention-free on every tree (Theorem 2). Fills ring[0..p−1]. O(|V|).
 * Defined in sched/planners/allgather/allgather_lr1.c. */
void ns_ring_lr1(const NsTopology *topo, int *ring);

/* Algorithm 2 (§3.3.2.3): the 2-hop contention-free ring. FALSE with
 * NS_ERROR_UNSUPPORTED naming the violating switch when a switch has fewer
 * directly attached machines than directly attached switches (Theorem 3).
 * O(|V|). Defined in sched/planners/allgather/allgather_lr2.c. */
gboolean ns_ring_lr2(const NsTopology *topo, int *ring, GError **error);

/* Algorithm 3 (§3.3.2.4): a contention-free ring of the smallest maximum
 * path length; *max_path receives that length. FALSE with
 * NS_ERROR_UNSUPPORTED only when a switch has so many distinct kinds of
 * child subtrees that the exact programme would exceed its state limit
 * (see sched/planners/allgather/allgather_lr3.c). Defined in sched/planners/allgather/allgather_lr3.c. */
gboolean ns_ring_lr3(const NsTopology *topo, int *ring, int *max_path, GError **error);

#endif
