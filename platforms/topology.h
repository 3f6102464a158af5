/* netsched — the Topology model.
 *
 * A topology is an undirected graph of machines and switches joined by
 * full-duplex links. Each link i gives two *directed edges*: 2*i goes from
 * link.a to link.b and 2*i+1 from link.b to link.a. Contention is defined on
 * directed edges (Faraj & Yuan, §3), so every route is a sequence of
 * directed edge ids.
 *
 * Life cycle: ns_topology_new(), then add nodes and links (readers,
 * generators, shapes do this), then ns_topology_finalize(), which validates
 * the graph, prunes switches without machines below them (dissertation
 * §3.1) and installs the routing. Only a finalized topology can be routed,
 * planned on or written.
 *
 * Machines are numbered 0..n_machines-1 in the order they were added; that
 * index is what schedules refer to ("machine index"), while node ids
 * (0..n_nodes-1) cover machines and switches together.
 */
#ifndef NETSCHED_TOPOLOGY_H
#define NETSCHED_TOPOLOGY_H

#include <glib.h>
#include <stdint.h>

typedef enum { NS_NODE_MACHINE, NS_NODE_SWITCH } NsNodeKind;

/* How a switch forwards a frame: store-and-forward receives the whole packet
 * before sending it on (Ethernet switches of the papers), cut-through starts
 * as soon as the header is in. */
typedef enum { NS_FORWARD_STORE_AND_FORWARD, NS_FORWARD_CUT_THROUGH } NsForwarding;

/* Where a switch buffers frames. */
typedef enum { NS_BUFFER_OUTPUT, NS_BUFFER_INPUT, NS_BUFFER_SHARED } NsBuffering;

typedef struct {
  char *name;
  NsNodeKind kind;
  /* Switch attributes (ignored for machines). */
  NsForwarding forwarding;
  NsBuffering buffering;
  int buffer_packets;          /* 0 = unspecified (simulator default) */
  int line;                    /* source line that declared it, 0 if generated */
} NsNode;

typedef struct {
  int a, b;                    /* node ids */
  double bandwidth;            /* bit/s, > 0 */
  double latency;              /* s, >= 0 */
  int line;                    /* source line that declared it, 0 if generated */
} NsLink;

/* Defaults used by readers and generators when a file says nothing. */
#define NS_DEFAULT_BANDWIDTH 100e6 /* 100 Mbit/s, the papers' Fast Ethernet */
#define NS_DEFAULT_LATENCY 10e-6   /* 10 us */

typedef enum { NS_ROUTING_NONE, NS_ROUTING_TREE } NsRoutingKind;

typedef struct NsTopology NsTopology;

/* Called for every non-fatal finding of ns_topology_finalize (e.g. a pruned
 * switch). `message` is "source:line: text" formatted. */
typedef void (*NsWarnFunc)(const char *message, void *user_data);

/* ---- construction ---------------------------------------------------- */

/* New empty topology. `source` names where it came from (a file name, or a
 * generator description such as "random-tree(seed=3)"); it prefixes every
 * error message. */
NsTopology *ns_topology_new(const char *source);
void ns_topology_free(NsTopology *topo);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsTopology, ns_topology_free)

/* Adds a node. Returns its id, or -1 with NS_ERROR_INPUT "source:line:
 * duplicate node name 'x' (first declared at line N)" when the name is taken
 * or empty. Switch attributes start at store-and-forward, output-buffered,
 * unspecified buffer size; change them through ns_topology_node_mut(). */
int ns_topology_add_node(NsTopology *topo, const char *name, NsNodeKind kind, int line,
                         GError **error);
/* Adds a link between two existing node ids. Fails (NS_ERROR_INPUT, with
 * the line) on a self-loop, a bandwidth <= 0 or a negative latency. Parallel
 * links and cycles are caught by ns_topology_finalize(). Returns the link
 * id or -1. */
int ns_topology_add_link(NsTopology *topo, int a, int b, double bandwidth, double latency,
                         int line, GError **error);

/* The topology's title (the native format's `name "..."`), NULL if none. */
void ns_topology_set_title(NsTopology *topo, const char *title);
const char *ns_topology_title(const NsTopology *topo);

/* Id of the node called `name`, or -1. O(1). */
int ns_topology_find_node(const NsTopology *topo, const char *name);
NsNode *ns_topology_node_mut(NsTopology *topo, int node);

/* Validates and freezes the topology:
 *  - at least 2 machines, at least one switch;
 *  - a machine has exactly one link, and that link goes to a switch;
 *  - the graph is connected and has no cycle (no parallel links either):
 *    trees only, for now — the errors name an offending link;
 *  - switches with no machine below them are pruned, each with a warning
 *    through `warn` (dissertation §3.1: they take part in no communication).
 * Then installs tree routing (unique paths). Node ids may change by
 * pruning; machine indices never do. Time O(|V| + |E|). */
gboolean ns_topology_finalize(NsTopology *topo, NsWarnFunc warn, void *warn_data,
                              GError **error);

/* ---- queries (finalized topology) ----------------------------------- */

const char *ns_topology_source(const NsTopology *topo);
int ns_topology_n_nodes(const NsTopology *topo);
int ns_topology_n_links(const NsTopology *topo);
int ns_topology_n_machines(const NsTopology *topo);
int ns_topology_n_switches(const NsTopology *topo);
const NsNode *ns_topology_node(const NsTopology *topo, int node);
const NsLink *ns_topology_link(const NsTopology *topo, int link);
/* Node id of machine index m, and the inverse (-1 for switches). */
int ns_topology_machine_node(const NsTopology *topo, int machine);
int ns_topology_node_machine(const NsTopology *topo, int node);
/* Machine index of the machine called `name`, or -1. */
int ns_topology_find_machine(const NsTopology *topo, const char *name);
const char *ns_topology_machine_name(const NsTopology *topo, int machine);

/* Incident link ids of a node (CSR view, valid until the topology is freed). */
int ns_topology_degree(const NsTopology *topo, int node);
const int *ns_topology_incident(const NsTopology *topo, int node);
/* The other end of `link` seen from `node`. */
int ns_topology_link_other(const NsTopology *topo, int link, int node);

/* Directed edges: 2*link (a -> b), 2*link+1 (b -> a). */
static inline int ns_edge_link(int edge) { return edge >> 1; }
int ns_topology_edge_from(const NsTopology *topo, int edge);
int ns_topology_edge_to(const NsTopology *topo, int edge);
int ns_topology_n_edges(const NsTopology *topo);
/* "s0->s1" (newly allocated). */
char *ns_topology_edge_name(const NsTopology *topo, int edge);

/* ---- routing -------------------------------------------------------- */

NsRoutingKind ns_topology_routing(const NsTopology *topo);
/* Upper bound on the number of edges of any route. */
int ns_topology_max_route_len(const NsTopology *topo);
/* Writes the directed edges from node `src` to node `dst` into `edges`
 * (capacity ns_topology_max_route_len()) in travel order and returns their
 * number (0 when src == dst). Tree routing: the unique path, O(length). */
int ns_topology_route(const NsTopology *topo, int src, int dst, int *edges);
/* Convenience: route between machine indices. */
int ns_topology_route_machines(const NsTopology *topo, int src_machine, int dst_machine,
                               int *edges);

/* ---- tree view (NS_ROUTING_TREE) --------------------------------------
 * The tree is rooted at an internal anchor (the first switch); parent,
 * depth and the directed edges to and from the parent are precomputed, so a
 * path is climbed in O(length) without allocation. */
int ns_tree_anchor(const NsTopology *topo);
int ns_tree_parent(const NsTopology *topo, int node);       /* -1 for the anchor */
int ns_tree_depth(const NsTopology *topo, int node);
int ns_tree_up_edge(const NsTopology *topo, int node);      /* node -> parent */
int ns_tree_down_edge(const NsTopology *topo, int node);    /* parent -> node */
/* Number of machines in the subtree below `node` (itself included). */
int ns_tree_machines_below(const NsTopology *topo, int node);
/* Nodes in depth-first preorder from the anchor (children in link order). */
const int *ns_tree_preorder(const NsTopology *topo);

#endif
