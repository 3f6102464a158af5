/* netsched — Tam & Wang's FE/GE hierarchy generator (platforms/gen/hierarchy.c),
 * part of the shapes of shapes.h. */
#ifndef NETSCHED_HIERARCHY_H
#define NETSCHED_HIERARCHY_H

#include "platforms/gen/shape_options.h"

/* Tam & Wang's two-level hierarchy, "AxB" (platforms/gen/hierarchy.c): the GE
 * switch s0 (shared-buffered, 820 packets) and FE switches s1..sB
 * (input-buffered, 45 packets: their GE uplink's buffer), A machines on
 * each; for B = 1 a lone FE switch s0 (43 packets). Machine links at
 * o->bandwidth, uplinks at o->uplink (default 1 Gbit/s). NULL with
 * NS_ERROR_INPUT for a malformed AxB. O(A·B). */
NsTopology *ns_shape_hierarchy(const char *args, const NsShapeOptions *o, const char *suffix,
                               GError **error);

#endif
