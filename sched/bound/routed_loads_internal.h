/* netsched — the methods behind ns_a2a_routed_loads (lower_bound.h), the
 * one entry point, for it and for bench/bench_bound.c, which times each
 * against the others. Each fills edge (zeroed by the caller, one counter
 * per directed edge) and paths (min, max, mean; not `exact`). */
#ifndef NETSCHED_SCHED_BOUND_ROUTED_LOADS_INTERNAL_H
#define NETSCHED_SCHED_BOUND_ROUTED_LOADS_INTERNAL_H

#include "sched/bound/lower_bound.h"

/* k-ary n-trees under d-mod-k and s-mod-k in closed form
 * (lower_bound_fat.c): TRUE when the route table's closed form holds on `t`
 * (sched/ir/route_table_internal.h, FatTable) with a power-of-two number of
 * machines, at least two, every pair meeting below the top; FALSE (nothing
 * written) otherwise. O(|V| · arity + |M| · levels). */
gboolean ns_fat_closed_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths);

/* Levelled fat trees under d-mod-k and s-mod-k (lower_bound_fat.c): the
 * routes towards each machine counted up the levels in one fixed node
 * order and down the machine's own climb; FALSE (edge zeroed) under another
 * routing or when some climb does not meet. O(|M| · |V|), not bounded. */
gboolean ns_updown_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths);

/* Destination-based routings (shortest, ecmp, dmodk, smodk): the tree of
 * routes towards each machine, subtree sizes (lower_bound_routed.c).
 * O(|M| · |V|), not bounded by NS_ROUTED_LOAD_MAX_WORK. */
void ns_next_hop_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths);

/* Any routing: every ordered pair's route walked (lower_bound_routed.c).
 * O(|M|² · route length), not bounded. */
void ns_pair_loads(const NsTopology *t, uint64_t *edge, NsRoutedPaths *paths);

#endif
