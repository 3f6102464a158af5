/* netsched — the all-port torus the torus planners need (internal).
 *
 * allgather/torus and allreduce/torus-dim send on every direction of a
 * machine at once; both take a torus or ring of machines whose machines
 * have a port for each direction, and refuse anything else with the same
 * words.
 */
#ifndef NETSCHED_TORUS_SHAPE_H
#define NETSCHED_TORUS_SHAPE_H

#include "platforms/model/topology.h"

/*
 * ns_plan_torus_shape — the torus's sizes in sizes[] (capacity
 * NS_MAX_DIMS), its number of dimensions returned.
 * Directions: +e_k and −e_k for a dimension of size ≥ 3, +e_k alone for
 * one of size 2 (its two links join the same two machines; a route cannot
 * tell them apart). 0 with NS_ERROR_UNSUPPORTED, the message naming
 * `algorithm`, when the topology is not a wrapped grid of machines
 * (gen:torus, gen:ring) or a machine has fewer ports than directions.
 * O(P).
 */
int ns_plan_torus_shape(const NsTopology *topo, const char *algorithm, int *sizes, GError **error);

#endif
