/* netsched — packing phases to the capacity of links of different speeds.
 *
 * Faraj & Yuan's phases put at most one message on every directed link,
 * which is optimal when all links have one speed. With 1 Gbit/s machine
 * links under 10 Gbit/s uplinks an uplink could carry ten messages at once,
 * and the one-per-link schedule runs ten times over the bound. Packing
 * moves transfers into earlier phases as long as every phase stays
 * contention-free in the rate-weighted sense of the verifier (the rates —
 * a transfer's slowest link — crossing each directed link sum to at most
 * its bandwidth) and within every machine's ports.
 *
 * What is proven: the result is a schedule of the same transfers, each in
 * a phase no later than before relative to its data (a transfer never
 * precedes the phase in which its sender received a chunk it forwards), so
 * completeness and data flow are kept; every phase is contention-free and
 * within the port model by construction (the verifier re-checks it). What
 * is heuristic: the number of phases. Greedy first fit in the original
 * order is not optimal in general (it is a bin packing); on the trees the
 * issue names it lands within a few per cent of the bandwidth-weighted
 * bound (tests/test_faraj.c, docs/algorithms.md).
 */
#ifndef NETSCHED_PHASE_PACKING_H
#define NETSCHED_PHASE_PACKING_H

#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"

/*
 * ns_schedule_pack_phases — the packed copy of phased schedule `s` (sync
 * edges are dropped: a packed schedule gets its own, see sched/ir/sync.h).
 *
 * Steps: for every transfer — in phase order, or for a direct schedule
 * first-fit decreasing (transfers over the busiest links first, in shift
 * order, whose consecutive runs are matchings) — its earliest phase is one
 * after the latest phase in which its sender received one of the chunks it
 * sends (0 for a machine's own data); it goes into the first phase from
 * there whose sender and receiver have a free port and whose links have the
 * spare capacity for its rate; a new phase is opened when none has.
 * Time O(Σ over transfers of (phases tried × route length)); memory
 * O(phases × (|E| + |M|)). Returns a new schedule (never NULL).
 */
NsSchedule *ns_schedule_pack_phases(const NsTopology *topo, const NsSchedule *s);

/* TRUE when the topology's links do not all have the same bandwidth. */
gboolean ns_topology_mixed_speeds(const NsTopology *topo);

#endif
