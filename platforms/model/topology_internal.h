/* netsched — internal: the Topology's representation and the routing
 * interface, shared by platforms/model/topology.c and the routing
 * implementations platforms/routing_*.c. Nothing outside platforms/
 * includes this header. */
#ifndef NETSCHED_TOPOLOGY_PRIVATE_H
#define NETSCHED_TOPOLOGY_PRIVATE_H

#include "platforms/model/topology.h"

/* One routing algorithm. build() runs at the end of ns_topology_finalize()
 * on the validated, pruned graph and fills t->routing_data and
 * t->max_route_len (or fails with NS_ERROR_INPUT naming what the fabric
 * lacks); route() writes the directed edges from node src to node dst. */
typedef struct {
  NsRoutingKind kind;
  gboolean (*build)(NsTopology *t, GError **error);
  int (*route)(const NsTopology *t, int src, int dst, int *edges);
  /* Routings whose route depends on the destination only: the directed
   * edge leaving every node towards machine `dst_machine` (-1 at it and
   * where no route passes), so the routes towards it form a tree.
   * NULL, or FALSE returned, for the others. */
  gboolean (*next_hops)(const NsTopology *t, int dst_machine, int *next_edge);
  /* Routings that build their tables when first asked for (shortest, ecmp,
   * explicit's fallback) know their longest route only then: this builds
   * them and returns it. NULL: build() filled t->max_route_len. */
  int (*max_route_len)(const NsTopology *t);
  char *(*describe)(const NsTopology *t);
  void (*free_data)(NsTopology *t);
} NsRoutingOps;

/* The model's half of finalising (topology.c): incidence, checks, pruning of
 * switches that lead nowhere, machine numbering. ns_topology_finalize
 * (platforms/routing/routing.c) calls it, then builds the routing. */
gboolean ns_topology_prepare(NsTopology *t, NsWarnFunc warn, void *warn_data, GError **error);
/* The routing a topology gets without a routing statement (topology.c). */
NsRoutingKind ns_topology_default_routing(const NsTopology *t);

extern const NsRoutingOps ns_routing_tree_ops;       /* routing_tree.c */
extern const NsRoutingOps ns_routing_grid_ops;       /* routing_grid.c */
extern const NsRoutingOps ns_routing_dmodk_ops;      /* routing_updown.c */
extern const NsRoutingOps ns_routing_smodk_ops;      /* routing_updown.c */
extern const NsRoutingOps ns_routing_shortest_ops;   /* routing_shortest.c */
extern const NsRoutingOps ns_routing_ecmp_ops;       /* routing_shortest.c */
extern const NsRoutingOps ns_routing_explicit_ops;   /* routing_explicit.c */

struct NsTopology {
  char *source;
  char *title;
  GArray *nodes;          /* NsNode */
  GArray *links;          /* NsLink */
  GHashTable *by_name;    /* name -> node id + 1 */
  gboolean finalized;

  /* Requested before finalize. */
  NsRoutingKind routing_wanted;   /* NS_ROUTING_NONE: tree or shortest */
  int routing_line;
  int n_dims;                     /* grid, 0 if none */
  int dims[NS_MAX_DIMS];
  gboolean wrap;
  int grid_line;
  GArray *route_nodes;            /* explicit routes: int node ids, back to back */
  GArray *route_heads;            /* RouteHead */

  /* Derived by ns_topology_finalize(). */
  int n_machines;
  int *machine_node;      /* machine index -> node id */
  int *node_machine;      /* node id -> machine index or -1 */
  int *inc_start;         /* CSR: incident links of node v are */
  int *inc;               /*   inc[inc_start[v] .. inc_start[v+1]), by link id */
  NsRoutingKind routing;
  const NsRoutingOps *ops;
  void *routing_data;
  int max_route_len;
  /* Tree view, under tree routing (routing_tree.c). */
  int anchor;
  int *parent, *depth, *up_edge, *down_edge, *below, *preorder;
};

/* An explicit route as declared: route_nodes[first .. first + n). */
typedef struct {
  int first, n, line;
} RouteHead;

/* The directed edge that crosses `link` starting from node `from`. */
static inline int ns_edge_from_link(const NsTopology *t, int link, int from)
{
  return 2 * link + (g_array_index(t->links, NsLink, link).a == from ? 0 : 1);
}

/* Shortest-path next-hop tables (routing_shortest.c), shared with explicit
 * routing's fallback: set up into *data (the size checked, the table built
 * by the first walk, next-hops or longest query, thread-safe), walk from
 * node src to machine node dst, the longest route, release. */
gboolean ns_routing_shortest_table(NsTopology *t, gboolean spread, void **data, GError **error);
int ns_routing_shortest_walk(const NsTopology *t, void *data, int src, int dst, int *edges);
int ns_routing_shortest_longest(const NsTopology *t, void *data);
void ns_routing_shortest_release(void *data);
/* The table's next edges towards machine dst_machine (ns_topology_next_hops). */
void ns_routing_shortest_next_hops(const NsTopology *t, void *data, int dst_machine,
                                   int *next_edge);
/* How many shortest-path tables this process has built (a test's evidence
 * that loading builds none). Thread-safe. */
guint ns_routing_shortest_tables_built(void);

/* The lowest-id link between nodes a and b, or -1. O(degree of a). */
int ns_topology_link_between(const NsTopology *t, int a, int b);

#endif
