/* netsched — a digest of a topology's model. */
#ifndef NETSCHED_TOPOLOGY_DIGEST_H
#define NETSCHED_TOPOLOGY_DIGEST_H

#include "platforms/model/topology.h"

/*
 * ns_topology_digest — SHA-256 (64 hex digits, newly allocated) of the
 * canonical model of a finalized topology.
 *
 * Fed to GChecksum directly, in this order (docs/sweeps.md, "Resume keys"):
 * a version tag; every node in node-id order — kind, name, and for a
 * machine its port model and k, for a switch its forwarding, buffering and
 * buffer size; every link in link-id order — its two ends as stored, its
 * bandwidth and latency (exact IEEE-754 bits); the routing, the grid (sizes
 * and wrap) and every explicit route as its node ids. Integers are 64-bit
 * big-endian, strings length-prefixed, so no two models share an input.
 * Not in it: where the topology came from (file name, generator text), its
 * title, source line numbers, how any writer spells it — two topologies
 * with the same digest are the same network under the same routing.
 * Keys resumable results to what produced them (analysis/experiment.c).
 *
 * Parameters: topo, finalized.
 * Errors: none; NULL only when memory runs out.
 * Complexity: O(|V| + |E| + total length of the explicit routes).
 * Source: issue #19 point 4 (a writer change must not invalidate results).
 */
char *ns_topology_digest(const NsTopology *topo);

/*
 * ns_topology_digest_legacy — SHA-256 (hex, newly allocated) of the native
 * writer's output for `topo`: the digest netsched 0.x keyed results with
 * before ns_topology_digest. Only to recognise result files written then
 * (an alias on resume); tests/test_sweep.c pins its value for a few
 * topologies so a writer change that would break the alias is seen.
 *
 * Parameters: topo, finalized.
 * Errors: NULL when the native writer refuses the topology (a node name
 * with control characters) or memory runs out.
 * Complexity: O(size of the native text).
 * Source: the native format, docs/topology-format.md.
 */
char *ns_topology_digest_legacy(const NsTopology *topo);

#endif
