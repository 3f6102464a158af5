/* netsched — schedule streams: reading ahead on a thread of its own.
 * Private to sched/io/schedule_stream_*.c.
 *
 * A reader (schedule_stream_read.c) hands its parsing to a second thread
 * once a file proved large: that thread decompresses and parses phases into
 * batches (a batch: many phases' transfers side by side, about
 * NS_AHEAD_BATCH_BYTES of them), and the caller takes the batches in order
 * from a bounded queue. Nothing of the reader is touched by the caller while
 * the thread runs; the thread stops at the end of the phases, at the first
 * error (the reader's, reported by the caller when its phases are taken, so
 * that errors come in the order they would without the thread), or when
 * asked to (ns_read_ahead_stop), and is joined on every path
 * (ns_read_ahead_stop, ns_read_ahead_free).
 *
 * Memory: the queue holds batches while their bytes (the one the caller is
 * reading included) stay under NS_AHEAD_QUEUE_BYTES; the thread starts a
 * batch only below that, so it holds at most that plus two batches, and a
 * batch is one phase larger than NS_AHEAD_BATCH_BYTES at most (a phase's
 * record counts, so phases without transfers close batches too).
 */
#ifndef NETSCHED_SCHEDULE_STREAM_AHEAD_INTERNAL_H
#define NETSCHED_SCHEDULE_STREAM_AHEAD_INTERNAL_H

#include "sched/ir/schedule.h"
#include <glib.h>

/* Bytes of transfers, chunks and phase records a batch is closed at (the
 * records count: a phase without transfers still takes one). */
#define NS_AHEAD_BATCH_BYTES (256u << 10)
/* Bytes of batches queued, the caller's included, before the thread waits. */
#define NS_AHEAD_QUEUE_BYTES (4u << 20)

/* One phase of a batch: transfers [start, start + n) of the batch; its
 * multi-chunk transfers' chunks are offsets into the batch's pool. The
 * counts are the reader's right after the phase was read. */
typedef struct {
  guint start, n;
  uint32_t n_phases;       /* phases read (this one is number n_phases - 1) */
  guint64 total;           /* transfers read */
  guint64 position;        /* bytes of the document read */
} NsAheadPhase;

typedef struct {
  GArray *transfers;       /* NsTransfer */
  GArray *pool;            /* uint32_t */
  NsAheadPhase *phases;    /* n_phases of them, room for phases_cap (not a
                            * GArray: its append divides at each call, and a
                            * batch takes one a phase) */
  guint n_phases, phases_cap;
  /* the batch ends the thread's work: 1 it was asked to stop, 0 the end of
   * the phases, -1 an error (all three: the reader is left where the
   * thread stopped, to be read on by the caller) */
  gboolean last;
  int end;
} NsAheadBatch;

/* Fills `b` (its arrays empty) on the thread: phases until the batch holds
 * NS_AHEAD_BATCH_BYTES or the phases end. Returns 1 when more may follow,
 * 0 at the end of the phases, -1 on an error. */
typedef int (*NsAheadFill)(gpointer owner, NsAheadBatch *b);

typedef struct NsReadAhead NsReadAhead;

/* Starts the thread; NULL when no thread can be made (the caller reads on
 * by itself). */
NsReadAhead *ns_read_ahead_start(NsAheadFill fill, gpointer owner);
/* The next batch in order, waiting for it; the previous one taken is given
 * back (its memory reused). After a batch with `last`, NULL, and the thread
 * has been joined. */
NsAheadBatch *ns_read_ahead_take(NsReadAhead *a);
/* Asks the thread to stop after the batch it fills, and joins it; the
 * batches made stay to be taken (the last of them has `last`). */
void ns_read_ahead_stop(NsReadAhead *a);
/* Appends a phase record to `b`. */
static inline void ns_ahead_batch_add_phase(NsAheadBatch *b, const NsAheadPhase *ph)
{
  if (b->n_phases == b->phases_cap) {
    b->phases_cap = b->phases_cap > 0 ? 2 * b->phases_cap : 1024;
    b->phases = g_renew(NsAheadPhase, b->phases, b->phases_cap);
  }
  b->phases[b->n_phases++] = *ph;
}

/* The bytes of a batch: its transfers, chunks and phase records. */
gsize ns_read_ahead_batch_bytes(const NsAheadBatch *b);
/* The most bytes the queue held at once, the caller's batch included
 * (tests: at most NS_AHEAD_QUEUE_BYTES and a batch of one phase more than
 * NS_AHEAD_BATCH_BYTES). */
gsize ns_read_ahead_peak_bytes(NsReadAhead *a);
/* Stops and joins the thread (if running) and frees every batch. NULL is
 * accepted. */
void ns_read_ahead_free(NsReadAhead *a);

#endif
