/* netsched — the transmission lower bound of a size pattern.
 *
 * A v-collective's messages have their own sizes, so the bound is in
 * bytes, not messages: the largest, over
 *   machine ports   the bytes a machine must send (receive) over the
 *                   bandwidth of its `ports` fastest links (1-port, k-port,
 *                   all-port: Liu Gang et al. §II);
 *   directed links  alltoallv: the bytes of every pair whose route (the
 *                   topology's routing) crosses the link, over its
 *                   bandwidth (Faraj & Yuan §3's bottleneck link, weighted
 *                   by bytes); allgatherv on a tree: the blocks of the
 *                   machines on the link's sending side (each must cross
 *                   it once to reach the machines beyond: the cut bound of
 *                   §3.3 weighted by bytes).
 * A fluid bound: no message is split across links, but neither are the
 * phases counted. docs/pattern-format.md, "The bound".
 */
#ifndef NETSCHED_PATTERN_BOUND_H
#define NETSCHED_PATTERN_BOUND_H

#include "platforms/model/topology.h"
#include "sched/bound/lower_bound.h"
#include "sched/ir/pattern.h"

typedef struct {
  double seconds;   /* the bound */
  NsBoundKind kind; /* NS_BOUND_PORT_SEND, NS_BOUND_PORT_RECV or NS_BOUND_LINK */
  int machine;      /* PORT: the machine, else -1 */
  int edge;         /* LINK: the directed edge, else -1 */
  uint64_t bytes;   /* bytes through the binding port(s) or link */
  double bandwidth; /* bit/s of that port set or link */
  gboolean links;   /* the link loads were computed (allgatherv: on trees
                          only; else the ports alone bound it) */
} NsPatternBound;

gboolean ns_pattern_bound(const NsTopology *topo, const NsSizePattern *pat, NsPatternBound *out,
                          GError **error);
char *ns_pattern_bound_describe(const NsTopology *topo, const NsPatternBound *b);
gboolean ns_pattern_link_bytes(const NsTopology *topo, const NsSizePattern *pat,
                               uint64_t *edge_bytes, GError **error);

#endif
