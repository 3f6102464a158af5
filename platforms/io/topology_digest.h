/* netsched — a digest of a topology's model. */
#ifndef NETSCHED_TOPOLOGY_DIGEST_H
#define NETSCHED_TOPOLOGY_DIGEST_H

#include "platforms/model/topology.h"

/* SHA-256 (64 hex digits, newly allocated) of the canonical model of a
 * finalized topology: nodes, links, bandwidths, latencies, port models,
 * routing, grid and explicit routes — never a writer's text, the file it
 * came from, its title or line numbers. Keys resumable results to what
 * produced them (docs/sweeps.md, "Resume keys"). O(|V| + |E|). */
char *ns_topology_digest(const NsTopology *topo);

/* The digest of netsched 0.x: SHA-256 of the native writer's output. Only
 * to recognise result files written then. NULL when the writer refuses
 * the topology. */
char *ns_topology_digest_legacy(const NsTopology *topo);

#endif
