/* netsched — internal: the verifier's first try of a phase's links on a
 * switch tree whose machines all sit at the same depth, defined in
 * sched/verify/tree_links.c. Not part of the public API: included by the
 * verifier and its tests only.
 *
 * Why beside ns_route_table_mark (sched/ir/route_table_internal.h), which
 * answers the same question for every tree: a 16,384-machine all-to-all
 * (faraj on tree:16,32,32) checks 268 M transfers in 15.7 M phases, and
 * each transfer there reads two schedule-to-node entries, two route rows
 * of 16 bytes (their depths included: a machine's depth decides where its
 * walk stops) and two port marks of 8 bytes, four to six cache lines a
 * transfer out of about 460 KiB. Here, per schedule machine, one 64-bit
 * word holds its climb (16-bit edges: the tree has fewer than 65,536
 * directed edges): 128 KiB, no depth (every machine has the tree's depth),
 * no node map; the level where two climbs first differ is the lowest set
 * bit of their XOR, and the walk is compiled for each depth of 1 to 4
 * levels, unrolled. Prefetching the records of the transfers four or eight ahead
 * (a phase's transfers are all known) was tried and cost more CPU time
 * than it saved (7.3-7.6 s against 6.7-6.9 s on faraj's 268 M
 * transfers): in a faraj phase each position's machines advance by one
 * a phase, and the processor's own prefetcher follows them.
 *
 * Nor port counts: every route from a machine starts on its own edge up
 * and every route to it ends on that edge down (distinct machines on
 * distinct nodes), so a machine that sends (receives) twice in a group
 * crosses an edge twice, and the group goes to the full check, which
 * counts the ports as it always did. Without an edge crossed twice each
 * machine sends and receives at most once: within its ports when every
 * machine has one at least (the fast path's condition). Trees that do not
 * fit these bounds keep ns_route_table_mark. */
#ifndef NETSCHED_TREE_LINKS_H
#define NETSCHED_TREE_LINKS_H

#include "sched/ir/route_table_internal.h"
#include "sched/ir/schedule.h"
#include <glib.h>
#include <stdint.h>

/* The deepest tree the fast path takes (a 64-bit climb holds this many edges). */
#define NS_TREE_LINKS_LEVELS 4

typedef struct {
  const NsRouteTable *table; /* the table the climbs were read from; NULL: no fast path */
  uint64_t *climb;           /* per schedule machine: the edge up at level i (from level
                                i + 1 to level i, as in a route table's tree row) in bits
                                16i to 16i + 15; the levels past the depth 0 */
  int depth;                 /* every machine's depth, 1..NS_TREE_LINKS_LEVELS */
} NsTreeLinks;

/* What the first try found in a phase (or a step) without an edge crossed
 * twice, as check_unshared in sched/verify/verify.c computes it. */
typedef struct {
  int max_len;          /* the longest route's links less one (at least the value passed in) */
  uint32_t most_chunks; /* the most chunks a routed transfer carries (0: none routed) */
} NsTreeLinksResult;

/*
 * ns_tree_links_init — the climbs of the p schedule machines (node[m] the
 * topology node of machine m, one machine a node) from the route table's
 * tree rows, when every machine is a leaf at the one depth of 1 to
 * NS_TREE_LINKS_LEVELS levels, the topology has fewer than 65,536
 * directed edges (n_edges) and, when ports are checked (`ports` not NULL),
 * every machine has ports[m] >= 1; else tl->table stays NULL and the
 * caller keeps the general walk. NETSCHED_VERIFY_TREE_LINKS=off turns the
 * fast path off (tests compare both). O(p · depth + nodes) time, 8 bytes
 * a machine.
 */
void ns_tree_links_init(NsTreeLinks *tl, const NsRouteTable *table, const int *node, int p,
                        int n_edges, const int *ports);
void ns_tree_links_clear(NsTreeLinks *tl);

/*
 * ns_tree_links_unshared — marks the edges of the routes of the n
 * transfers trs[idx[i]] (trs[i] when idx is NULL) in `marks`, a group
 * begun by the caller; FALSE at the first transfer that crosses an edge
 * marked in the group already (the caller runs the full check), else TRUE
 * with *res filled, and then no machine went past its ports (see above).
 * res->max_len starts from the value it holds. O(n · depth).
 */
gboolean ns_tree_links_unshared(const NsTreeLinks *tl, NsEdgeMarks *marks, const NsTransfer *trs,
                                const uint32_t *idx, uint64_t n, NsTreeLinksResult *res);

#endif
