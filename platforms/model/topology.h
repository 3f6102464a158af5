/* netsched — the Topology model.
 *
 * A topology is a connected undirected graph of machines and switches
 * joined by full-duplex links; parallel links are allowed (a ring or torus
 * dimension of size 2 has two). Each link i gives two *directed edges*:
 * 2*i goes from link.a to link.b and 2*i+1 from link.b to link.a.
 * Contention is defined on directed edges (Faraj & Yuan, §3), so every
 * route is a sequence of directed edge ids.
 *
 * Two families of networks share the model:
 *   switched  machines are leaves, each with one link to a switch (Ethernet
 *             trees, fat trees, random switch graphs);
 *   direct    machines have several links and forward traffic themselves
 *             (rings, meshes, tori, hypercubes: each machine is a router).
 *
 * Routing is an object of its own, chosen per topology and deterministic
 * (see NsRoutingKind): planners, the verifier, the bounds and the simulator
 * ask ns_topology_route() and never branch on the fabric.
 *
 * Every machine has a *port model*: how many transfers it may send, and
 * receive, in one phase (1-port, k-port, all-port — Liu Gang et al. §II:
 * one message per outgoing link at a time).
 *
 * Life cycle: ns_topology_new(), then add nodes and links (readers,
 * generators, shapes do this), optionally set the routing, a grid and
 * explicit routes, then ns_topology_finalize(), which validates the graph,
 * prunes switches that carry no traffic and builds the routing. Only a
 * finalized topology can be routed, planned on or written.
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

/* "store-and-forward", "cut-through": the one spelling of every reader,
 * writer and generator option. */
const char *ns_forwarding_name(NsForwarding f);
gboolean ns_forwarding_parse(const char *name, NsForwarding *f);

/* Where a switch buffers frames. */
typedef enum { NS_BUFFER_OUTPUT, NS_BUFFER_INPUT, NS_BUFFER_SHARED } NsBuffering;

/* "output", "input", "shared". */
const char *ns_buffering_name(NsBuffering b);
gboolean ns_buffering_parse(const char *name, NsBuffering *b);

/* How many transfers a machine may send, and receive, in one phase. */
typedef enum {
  NS_PORTS_DEFAULT = 0, /* all-port for a machine with several links, else 1-port */
  NS_PORTS_ONE,         /* Faraj & Yuan's machines: one send and one receive per phase */
  NS_PORTS_K,           /* up to k sends and k receives per phase */
  NS_PORTS_ALL,         /* one message per link and direction at a time (Liu Gang §II) */
} NsPortKind;

typedef struct {
  char *name;
  NsNodeKind kind;
  /* Switch attributes (ignored for machines). */
  NsForwarding forwarding;
  NsBuffering buffering;
  int buffer_packets;          /* 0 = unspecified (simulator default) */
  /* Machine attribute. */
  NsPortKind ports;
  int k_ports;                 /* NS_PORTS_K: k >= 1 */
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

/* Routing: deterministic, one route per ordered machine pair.
 *   tree             the unique path (switched trees; machines are leaves)
 *   dimension-order  rings, meshes, tori, hypercubes laid out as a grid
 *                    (ns_topology_set_grid): dimension 0 first, then 1, ...;
 *                    on a ring of size N the shorter way round, and at
 *                    distance exactly N/2 the positive direction (Liu Gang
 *                    et al. §III count such a node on the positive
 *                    half-circle)
 *   dmodk, smodk     up*\/down* on a levelled fat tree (k-ary n-tree,
 *                    Petrini & Vanneschi): climb to the nearest common
 *                    ancestor level, at level l taking up-link
 *                    ⌊key / (u_0·…·u_(l-1))⌋ mod u_l, key = the destination
 *                    (d-mod-k, Zahavi et al. 2010) or the source (s-mod-k)
 *                    machine index, then down the unique way
 *   shortest         any graph: a shortest path in hops; at each node the
 *                    next hop is the neighbour closer to the destination
 *                    over the link of lowest id
 *   ecmp             any graph: a shortest path in hops; at each node the
 *                    next hop towards machine d is number d mod k of the
 *                    k neighbours closer to it, in link-id order (equal-
 *                    cost multipath, destination-keyed like d-mod-k); the
 *                    default of gen:leafspine
 *   explicit         the routes listed in the input; pairs not listed use
 *                    `shortest` */
typedef enum {
  NS_ROUTING_NONE,
  NS_ROUTING_TREE,
  NS_ROUTING_DIMENSION_ORDER,
  NS_ROUTING_DMODK,
  NS_ROUTING_SMODK,
  NS_ROUTING_SHORTEST,
  NS_ROUTING_EXPLICIT,
  NS_ROUTING_ECMP,
} NsRoutingKind;

/* "dimension-order" and back. */
const char *ns_routing_kind_name(NsRoutingKind kind);
gboolean ns_routing_kind_from_name(const char *name, NsRoutingKind *kind);

/* "one" or "1", "all", or K (2..NS_MAX_PORTS) ports: the port model of a
 * machine as the native format, generators and `verify --port` spell it.
 * *k is K for NS_PORTS_K, else 0. FALSE for anything else. */
#define NS_MAX_PORTS 1024
gboolean ns_port_kind_parse(const char *text, NsPortKind *kind, int *k);
/* "one", "all" or K (newly allocated), as ns_port_kind_parse reads it;
 * NULL for NS_PORTS_DEFAULT (nothing written). */
char *ns_port_kind_to_string(NsPortKind kind, int k);

/* The largest grid: 8 dimensions. */
#define NS_MAX_DIMS 8

/* "8x8 torus", "4x4x4 mesh": the grid of the native format's `grid`
 * statement and GraphML's `grid` graph attribute. FALSE with *why (newly
 * allocated) otherwise. */
gboolean ns_grid_spec_parse(const char *text, int *n_dims, int *sizes, gboolean *wrap,
                            char **why);

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

/* Chooses the routing (before finalize). Without it, finalize takes
 * `tree` for a tree whose machines are leaves and `shortest` otherwise.
 * `line` locates the choice in messages. */
void ns_topology_set_routing(NsTopology *topo, NsRoutingKind kind, int line);

/* Declares that the machines, in index order, are the nodes of an
 * n_dims-dimensional grid of the given sizes, coordinate 0 varying fastest
 * (machine i has coordinate c_0 = i mod N_0, c_1 = ⌊i/N_0⌋ mod N_1, ...):
 * a torus when `wrap`, else a mesh. Needed by dimension-order routing and
 * the torus algorithms; finalize checks that every grid neighbour pair is
 * linked. NS_ERROR_INPUT for sizes < 1 or more than NS_MAX_DIMS dims. */
gboolean ns_topology_set_grid(NsTopology *topo, int n_dims, const int *sizes, gboolean wrap,
                              int line, GError **error);

/* Adds an explicit route (routing `explicit`): `nodes` lists the node ids
 * from the source machine to the destination machine; consecutive nodes
 * must be linked (the link of lowest id between them is used). A second
 * route for the same pair is an error. */
gboolean ns_topology_add_route(NsTopology *topo, const int *nodes, int n_nodes, int line,
                               GError **error);

/* The topology's title (the native format's `name "..."`), NULL if none. */
void ns_topology_set_title(NsTopology *topo, const char *title);
const char *ns_topology_title(const NsTopology *topo);

/* Id of the node called `name`, or -1. O(1). */
int ns_topology_find_node(const NsTopology *topo, const char *name);
NsNode *ns_topology_node_mut(NsTopology *topo, int node);

/* Validates and freezes the topology:
 *  - at least 2 machines; the graph is connected;
 *  - switches that are leaves (iteratively) are pruned, each with a warning
 *    through `warn` (dissertation §3.1: they take part in no communication);
 *  - the routing is chosen (ns_topology_set_routing, else tree or shortest)
 *    and checked: `tree` needs a tree (errors name a link closing a cycle)
 *    whose machines are leaves on switches; `dimension-order` needs a grid
 *    whose neighbours are linked; `dmodk`/`smodk` need a levelled fat tree
 *    in which every machine pair meets at a common ancestor; `explicit`
 *    needs valid paths.
 * Node ids may change by pruning; machine indices never do.
 * Time O(|V| + |E|) plus the routing's set-up (shortest: O(|M|·(|V|+|E|))). */
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
/**
 * \function ns_edge_link
 * \brief The link a directed edge crosses.
 *
 * \param edge A directed edge: 2·link (a to b) or 2·link + 1 (b to a).
 * \return The link id.
 * \errors none.
 * \complexity O(1).
 * \source Faraj and Yuan §3 (directed links); platforms/model/topology.h.
 */
static inline int ns_edge_link(int edge) { return edge >> 1; }
int ns_topology_edge_from(const NsTopology *topo, int edge);
int ns_topology_edge_to(const NsTopology *topo, int edge);
int ns_topology_n_edges(const NsTopology *topo);
/* "s0->s1" (newly allocated). */
char *ns_topology_edge_name(const NsTopology *topo, int edge);

/* ---- routing -------------------------------------------------------- */

NsRoutingKind ns_topology_routing(const NsTopology *topo);
/* The routing in words, with its tie rules, e.g. "dimension-order on an
 * 8x8 torus: dimension 0 first; the shorter way round; at distance N/2
 * the positive direction". Newly allocated. */
char *ns_topology_routing_describe(const NsTopology *topo);
/* Upper bound on the number of edges of any route. */
int ns_topology_max_route_len(const NsTopology *topo);
/* Writes the directed edges from node `src` to node `dst` (both machines,
 * or any nodes under tree routing) into `edges` (capacity
 * ns_topology_max_route_len()) in travel order and returns their number
 * (0 when src == dst). O(route length) for tree, dimension-order, dmodk,
 * smodk, shortest and explicit routing. */
int ns_topology_route(const NsTopology *topo, int src, int dst, int *edges);
/* Destination-based routings (shortest, ecmp, dmodk): writes for every
 * node the directed edge it sends on towards machine `dst_machine` (-1 at
 * its node and at nodes no route to it crosses) — the routes towards it
 * form a tree — and returns TRUE. s-mod-k also returns TRUE: its route
 * from s to d is the reverse of the d-mod-k route from d to s, so the
 * edges written are those of the routes *from* dst_machine, reversed.
 * FALSE (nothing written) for tree, dimension-order and explicit routing.
 * O(|V|) (dmodk: O(|V| + levels)). */
gboolean ns_topology_next_hops(const NsTopology *topo, int dst_machine, int *next_edge);
/* Convenience: route between machine indices. */
int ns_topology_route_machines(const NsTopology *topo, int src_machine, int dst_machine,
                               int *edges);

/* ---- port model -------------------------------------------------------- */

/* Sends (and receives) machine `machine` may have in one phase:
 * 1 (1-port), k (k-port), or its number of links (all-port). */
int ns_topology_machine_ports(const NsTopology *topo, int machine);
/* The port model of machine `machine`, NS_PORTS_DEFAULT resolved. */
NsPortKind ns_topology_machine_port_kind(const NsTopology *topo, int machine);
/* "1-port", "4-port", "all-port" (newly allocated). */
char *ns_topology_machine_port_text(const NsTopology *topo, int machine);

/* ---- grids (rings, meshes, tori) --------------------------------------- */

/* Dimensions of the topology's grid: returns n_dims (0 when there is no
 * grid) and fills sizes[0..n_dims-1] (capacity NS_MAX_DIMS) and *wrap. */
int ns_topology_grid(const NsTopology *topo, int *sizes, gboolean *wrap);
/* Grid coordinates of a machine, and the machine at given coordinates. */
void ns_topology_machine_coords(const NsTopology *topo, int machine, int *coords);
int ns_topology_machine_at(const NsTopology *topo, const int *coords);

/* ---- distances ---------------------------------------------------------- */

/* Hop distances (in links) from node `src` to every node, into dist
 * (ns_topology_n_nodes entries; -1 unreachable). BFS, O(|V| + |E|). */
void ns_topology_hop_distances(const NsTopology *topo, int src, int *dist);

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
