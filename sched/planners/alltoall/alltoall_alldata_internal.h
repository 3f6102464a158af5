/* netsched — all-to-all as an all-gather of all data (internal helper).
 *
 * The dissertation's 2D mesh, 3D mesh and recursive-doubling all-to-alls
 * (Faraj, dissertation §4.1.1.1, "Algorithms for MPI_Alltoall") do not
 * route each message to its destination: "for all data to reach all nodes,
 * the all-to-all operation is actually an all-gather operation that
 * collects all data from each node to all nodes"; every node then keeps
 * its portion. This helper is the book-keeping those three planners share
 * (sched/planners/alltoall/alltoall_2dmesh.c, sched/planners/alltoall/alltoall_3dmesh.c, sched/planners/alltoall/alltoall_rdb.c).
 *
 * A *block* is machine o's whole send buffer: the p−1 chunks (o, d), d ≠ o.
 * (The IR has no chunk (o, o): a machine's message to itself never crosses
 * the network and the schedule format forbids it, so a block is p−1 chunks
 * where the dissertation's cost model counts p·n bytes.) A transfer carries
 * every chunk of every block its sender may forward, so the chunks moved are
 * what the dissertation's "all data" wording and its (p−1)·p·n·β bandwidth
 * term describe, not the pruned "only what is still needed downstream"
 * variant of later MPI libraries.
 *
 * Each machine holds an ordered list of blocks (its own first). What a
 * machine may forward is frozen by ns_alldata_freeze(): a group of phases
 * (one mesh dimension) forwards what was held when the group began, so the
 * blocks received inside the group are never sent on inside it.
 */
#ifndef NETSCHED_ALLTOALL_ALLDATA_H
#define NETSCHED_ALLTOALL_ALLDATA_H

#include "sched/ir/schedule.h"

typedef struct NsAllData NsAllData;

/* New state for p machines, each holding only its own block. O(p²) memory
 * at most (every machine ends up listing every block). */
NsAllData *ns_alldata_new(int p);
void ns_alldata_free(NsAllData *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsAllData, ns_alldata_free)

/* Freezes every machine's forwardable blocks to what it holds now. */
void ns_alldata_freeze(NsAllData *st);

/* Appends to the current phase of `s` one transfer src -> dst carrying every
 * chunk of every frozen block of src except dst's own block (dst never needs
 * its own data back), and records that dst now holds those blocks. Adds
 * nothing when src has no such block. Returns the number of blocks sent.
 * Time O(blocks · p). */
int ns_alldata_send(NsAllData *st, NsSchedule *s, int src, int dst);

/* The all-gather of all data on a logical mesh dims[0] × … × dims[n−1]
 * over machines 0 .. P−1, P = Π dims (≤ the p of `st`). Machine i has
 * coordinates c_e = ⌊i / (dims[0]·…·dims[e−1])⌋ mod dims[e], so dimension 0
 * joins consecutive machines. Dimension by dimension (dissertation
 * §4.1.1.1, "first in the x dimension and then in the y dimension"): freeze,
 * then for j = 1 .. dims[e]−1 one phase in which every machine sends its
 * frozen blocks to the machine j steps further along dimension e
 * (coordinate (c_e + j) mod dims[e], the others unchanged) — the
 * repository's ring all-gather, "step i: node j sends to (j + i) mod p",
 * inside the dimension. 1-port: each machine sends and receives exactly one
 * transfer per phase. Phases Σ (dims[e] − 1); a transfer of dimension e
 * carries dims[0]·…·dims[e−1] blocks. Returns the number of phases. */
uint32_t ns_alldata_mesh(NsAllData *st, NsSchedule *s, int n_dims, const int *dims);

/* FALSE with NS_ERROR_UNSUPPORTED when an all-data all-to-all among p
 * machines would not fit the IR: it moves p·(p−1)² chunks, and the chunk
 * pool of multi-chunk transfers is indexed by 32 bits. `algorithm` names
 * the planner in the message. */
gboolean ns_alldata_check_size(int p, const char *algorithm, GError **error);

#endif
