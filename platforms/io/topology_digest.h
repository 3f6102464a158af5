/* netsched — a digest of a topology's contents. */
#ifndef NETSCHED_TOPOLOGY_DIGEST_H
#define NETSCHED_TOPOLOGY_DIGEST_H

#include "platforms/model/topology.h"

/* SHA-256 (hex) of the topology's native serialisation: two topologies
 * with the same digest have the same nodes, links, attributes and routing,
 * whatever file or generator they came from. Keys resumable results to
 * what produced them. NULL only when memory runs out. O(size). */
char *ns_topology_digest(const NsTopology *topo);

#endif
