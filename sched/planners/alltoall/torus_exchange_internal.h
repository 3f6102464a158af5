/* netsched — internal: the complete exchange shared by alltoall/ar and
 * alltoall/at2 (Liu Gang et al.), defined in sched/planners/alltoall/torus_exchange.c: AR's
 * per-message path on a ring, AT2's on a torus, and the engine that turns
 * every message's path into phases of combined transfers. Not a planner:
 * included by the two planners and tests only. */
#ifndef NETSCHED_TORUS_EXCHANGE_H
#define NETSCHED_TORUS_EXCHANGE_H

#include "sched/planners/registry.h"

/* The direction (+1 clockwise, −1 anticlockwise) AR sends a message to
 * ring position b at distance exactly half the ring (see torus_exchange.c). */
int ns_ar_antipodal_rule(int b);

/* The hops of AR's message from position a to b on a ring of n (AR's step
 * numbering taken from a ring of n_ref): direction, first step, the hop
 * sequence's starting positions and spans (see torus_exchange.c). */
int ns_ar_hops(int n, int n_ref, int a, int b, int antipodal_dir, int *dir, int *step,
               int *from, int *span);

/* The chunk moves of AR (n_dims 1) or AT2 (n_dims 2) on `topo`: counted
 * over every message, or (`by_symmetry`, tori without imaginary nodes
 * only) from one origin per coordinate-parity group, as the planner does
 * to refuse at once an exchange too large for a schedule. For tests. */
uint64_t ns_torus_exchange_moves(const NsTopology *topo, int n_dims, gboolean by_symmetry);

/* Plans AR (n_dims 1, a ring) or AT2 (n_dims 2, a torus) on `topo` under
 * the name `algorithm` (see torus_exchange.c). */
NsSchedule *ns_torus_exchange(const NsTopology *topo, const NsPlanParams *params,
                              const char *algorithm, int n_dims, GError **error);

#endif
