/* netsched — internal: the network netsched-ns3 builds (sim/ns3/), and
 * the options of the ns3 model (docs/simulator.md, "The ns3 model").
 *
 * The ns3 model runs ns-3 from a child process of its own,
 * netsched-ns3, as the SimGrid replay runs in netsched-replay: the same
 * program blob (sim/program.h) and results memfd, plus this description
 * of the network — every node, every link with its bandwidth and latency,
 * each switch's queue, and the exact route of every ordered machine pair
 * (the schedule's own routes where it has them, sim/pair_routes.c, else
 * the topology's). A line-based text in a memfd:
 *
 *   netsched-ns3-net 1
 *   nodes N
 *   n ID m|s QUEUE NAME        (machine or switch; QUEUE packets, 0: the default)
 *   links L
 *   l ID A B BANDWIDTH LATENCY (bit/s, s; directed edge 2·ID goes A->B)
 *   machines P
 *   m INDEX NODE               (program machine -> node)
 *   r SRC DST LEN E1 .. ELEN   (program machines, directed edges in travel order)
 *   end
 */
#ifndef NETSCHED_SIM_NS3_NET_H
#define NETSCHED_SIM_NS3_NET_H

#include "platforms/model/topology.h"
#include "sim/pair_routes_internal.h"
#include <glib.h>

/* The transports of the ns3 model. */
typedef enum { NS_NS3_TCP_PERSISTENT, NS_NS3_UDP_WINDOW } NsNs3Transport;

/* "tcp-persistent" or "udp-window"; FALSE with NS_ERROR_INPUT naming the choices. */
gboolean ns_ns3_transport_parse(const char *name, NsNs3Transport *t, GError **error);
const char *ns_ns3_transport_name(NsNs3Transport t);

/* What udp-window's global window counts (docs/simulator.md,
 * "`--transport udp-window`"): AUTO is SENT_RECEIVED for a schedule with
 * the window scheme (window:W_g, Tam & Wang's Algorithm 2) and UNACKED for
 * any other; SENT_RECEIVED is Algorithm 2's η = items sent − items
 * received; UNACKED counts items sent and not yet acknowledged. */
typedef enum {
  NS_NS3_WINDOW_COUNT_AUTO,
  NS_NS3_WINDOW_COUNT_SENT_RECEIVED,
  NS_NS3_WINDOW_COUNT_UNACKED
} NsNs3WindowCount;
/* "auto", "sent-received" or "unacked"; FALSE with NS_ERROR_INPUT naming the choices. */
gboolean ns_ns3_window_count_parse(const char *name, NsNs3WindowCount *c, GError **error);
const char *ns_ns3_window_count_name(NsNs3WindowCount c);

/* The event scheduler of the ns3 model's child (ns-3's SchedulerType). */
typedef enum { NS_NS3_SCHED_HEAP, NS_NS3_SCHED_CALENDAR, NS_NS3_SCHED_MAP } NsNs3Scheduler;
gboolean ns_ns3_scheduler_parse(const char *name, NsNs3Scheduler *s, GError **error);
const char *ns_ns3_scheduler_name(NsNs3Scheduler s);

/* The description above in a new memfd (inheritable, at offset 0) for
 * `p` program machines on topology nodes machine_node[0..p). `pairs`
 * (may be NULL or empty) gives own routes of pairs of *topology*
 * machines. NS_ERROR_UNSUPPORTED for a switch the model cannot build
 * (cut-through forwarding, input or shared buffering: ns-3's
 * point-to-point devices are store-and-forward with output queues);
 * NS_ERROR_IO when the memfd cannot be written. -1 on error.
 * O(nodes + links + p² · route length). */
int ns_ns3_net_fd(const NsTopology *topo, const int *machine_node, int p,
                  const NsSimPairRoutes *pairs, GError **error);

/* The netsched-ns3 executable: $NETSCHED_NS3, else beside this program,
 * else where `cmake --install` puts it, else where the build put it.
 * NULL with NS_ERROR_UNSUPPORTED naming the Debian package (libns3-dev)
 * when netsched was built without ns-3. Newly allocated. */
char *ns_ns3_child_path(GError **error);

/* Route equality (docs/simulator.md, "The ns3 model"): builds the
 * network of `topo` in netsched-ns3 (--dump-routes), walks every ordered
 * machine pair through ns-3's own routing tables and compares the
 * directed edges with ns_topology_route_machines(). *pairs receives the
 * pairs compared, *mismatches those that differ, *first (when not NULL)
 * the first of them (newly allocated, NULL when none). FALSE with the
 * child's refusal (routes that are not destination-based) or failure. */
gboolean ns_ns3_check_routes(const NsTopology *topo, uint64_t *pairs, uint64_t *mismatches,
                             char **first, GError **error);

#endif
