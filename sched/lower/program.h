/* netsched — a schedule lowered into per-machine programs.
 *
 * What every machine does, step by step, when a schedule runs under a
 * synchronisation scheme (sched/sync.h): the one lowering that both the
 * simulator's replay (sim/program.c, sim/replay.c) and the generated MPI
 * routines (sched/lower/routine_table.h, mpi/runtime/) execute, so that
 * a routine does exactly what the prediction assumed.
 *
 * A machine has one step per phase it takes part in: its sends in posting
 * order (the order of the phase's transfer list), then its receives.
 * Dummy transfers (the dummy scheme, dissertation §3.2.3.1) follow the
 * real ones; barriers come before the phases listed; pair-wise syncs say
 * which transfers' completions each transfer awaits (Faraj & Yuan §5).
 */
#ifndef NETSCHED_LOWER_PROGRAM_H
#define NETSCHED_LOWER_PROGRAM_H

#include "platforms/topology.h"
#include "sched/schedule.h"
#include "sched/sync.h"

typedef struct {
  uint32_t phase;
  uint32_t send_first, n_sends;   /* into NsLowered.ops */
  uint32_t recv_first, n_recvs;
} NsStep;

typedef struct {
  int p;                   /* machines */
  uint64_t n_real;         /* transfers of the schedule */
  uint64_t n_all;          /* plus dummy transfers (after the real ones) */
  int32_t *src, *dst;      /* per transfer (real then dummy) */
  /* steps of machine m: steps[step_start[m] .. step_start[m+1]) */
  uint32_t *step_start;
  NsStep *steps;
  uint32_t *ops;           /* transfer ids referenced by steps */
  /* barriers: before the phases listed, every machine joins them in order */
  uint32_t n_barriers;
  uint32_t *barrier_phase;
  /* pair-wise syncs */
  gboolean receiver_based; /* a transfer's receiver (else its sender) sends its syncs */
  gboolean light;          /* receivers send "ready" before every transfer */
  uint32_t *needed;        /* per transfer: syncs to receive before posting */
  uint32_t *sync_start;    /* per transfer: targets sync_to[sync_start[t] .. sync_start[t+1]) */
  uint32_t *sync_to;
  /* the global window (window:W, posted schedules; Tam & Wang §3.2) */
  uint32_t window;         /* W; 0 = no window */
  uint64_t item_bytes;     /* bytes per item (NS_SYNC_WINDOW_ITEM); 0 = whole transfers */
} NsLowered;

/* The scheme a run uses: *given when not NULL, else the one the
 * schedule's algorithm recommends (s->sync_scheme), else none. */
gboolean ns_lower_scheme(const NsSchedule *s, const NsSyncScheme *given, NsSyncScheme *scheme,
                         GError **error);

/* Does s carry the pair-wise sync edges of `scheme` already (read or
 * computed for that very scheme)? */
gboolean ns_lower_has_sync(const NsSchedule *s, const NsSyncScheme *scheme);

/* Lowers s under `scheme`. The sync edges used are s->sync as they are:
 * callers computing them for the scheme first (ns_schedule_compute_sync)
 * unless ns_lower_has_sync. NS_ERROR_INPUT for the window scheme on a
 * phased schedule; an error of ns_schedule_machine_nodes when a machine is
 * not in topo. O(transfers + sync edges). */
NsLowered *ns_lower_program(const NsTopology *topo, const NsSchedule *s,
                            const NsSyncScheme *scheme, GError **error);
void ns_lowered_free(NsLowered *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsLowered, ns_lowered_free)

#endif
