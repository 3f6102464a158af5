/* netsched — the leaf/spine generator (platforms/gen/leafspine.c), part of the
 * shapes of shapes.h. */
#ifndef NETSCHED_LEAFSPINE_H
#define NETSCHED_LEAFSPINE_H

#include "platforms/gen/shape_options.h"

/*
 * ns_shape_leafspine — `gen:leafspine:L,S,M[,R]`: a two-level Clos of L
 * leaf switches "leaf0".."leaf{L-1}", S spine switches "spine0".. and M
 * machines on every leaf, numbered leaf by leaf (n0..n{M-1} on leaf0),
 * every leaf linked to every spine by one up-link (declared spine by
 * spine, so the equal-cost next hops of a leaf are the spines in order).
 * Machine links run at the options' bandwidth; up-links at `uplink=` when
 * given, else at the speed that makes the leaf's oversubscription —
 * machine bandwidth in over up-link bandwidth out, M·B / (S·U) — equal to
 * R (default 1: a non-blocking fabric). Routing ecmp (topology.h). `args`
 * is "L,S,M[,R]"; `suffix` is appended to the name. NS_ERROR_INPUT for
 * L < 2, S < 1, M < 1, R not in (0, 1000], both R and `uplink=`, or more
 * than 1,000,000 nodes or 10,000,000 links. Time O(L·(S + M)).
 */
NsTopology *ns_shape_leafspine(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error);

#endif
