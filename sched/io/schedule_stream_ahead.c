/* netsched — schedule streams: reading ahead on a thread of its own (see
 * schedule_stream_ahead_internal.h).
 *
 * One producer (the thread), one consumer (the reader's caller), a queue of
 * batches under one mutex. Batches are handed over whole, so the mutex is
 * taken once per NS_AHEAD_BATCH_BYTES of transfers, not once per phase (a
 * faraj schedule on 16,384 machines has 15.7 M phases of 17 transfers);
 * each side signals the other only when it is waiting, and a thread that
 * found the queue full sleeps until half of it was taken (one wake-up per
 * NS_AHEAD_QUEUE_BYTES / 2, not per batch: on 2 cores shared by three
 * threads each wake-up is a context switch). Batches given back
 * are kept for reuse, so that arrays keep their size instead of growing
 * anew; one grown past twice the batch size (a large phase) is freed.
 */
#include "sched/io/schedule_stream_ahead_internal.h"

struct NsReadAhead {
  NsAheadFill fill;
  gpointer owner;
  GThread *thread;
  GMutex lock;
  GCond cond;
  GQueue queue;            /* NsAheadBatch made, not taken yet */
  GPtrArray *spare;        /* NsAheadBatch given back, for reuse */
  NsAheadBatch *taken;     /* the caller's */
  gsize queued_bytes;      /* of the batches queued and the caller's */
  gsize peak_bytes;        /* the most queued_bytes has been (tests) */
  gboolean stop;           /* asked to stop */
  gboolean finished;       /* the last batch was taken and given back */
  gboolean producer_waits, consumer_waits;
};

gsize ns_read_ahead_batch_bytes(const NsAheadBatch *b)
{
  return b->transfers->len * sizeof(NsTransfer) + b->pool->len * sizeof(uint32_t) +
         b->n_phases * sizeof(NsAheadPhase);
}

static NsAheadBatch *batch_new(void)
{
  NsAheadBatch *b = g_new0(NsAheadBatch, 1);
  b->transfers = g_array_sized_new(FALSE, FALSE, sizeof(NsTransfer),
                                   NS_AHEAD_BATCH_BYTES / sizeof(NsTransfer));
  b->pool = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  return b;
}

static void batch_free(NsAheadBatch *b)
{
  if (b == NULL)
    return;
  g_array_unref(b->transfers);
  g_array_unref(b->pool);
  g_free(b->phases);
  g_free(b);
}

/* A batch to fill: a spare one, emptied, or a new one. Under the lock. */
static NsAheadBatch *batch_get(NsReadAhead *a)
{
  NsAheadBatch *b = a->spare->len > 0 ? g_ptr_array_steal_index_fast(a->spare, a->spare->len - 1)
                                      : NULL;
  if (b == NULL)
    return batch_new();
  g_array_set_size(b->transfers, 0);
  g_array_set_size(b->pool, 0);
  b->n_phases = 0;
  b->last = FALSE;
  b->end = 0;
  return b;
}

/* Batches kept for reuse: as many as the thread makes while the caller
 * takes half the queue, so that none is allocated anew in the steady state
 * (no more exist than the queue holds at its fullest, spares or not). */
#define SPARE_MAX (NS_AHEAD_QUEUE_BYTES / NS_AHEAD_BATCH_BYTES + 2)

/* Keeps a batch for reuse, unless it grew large (one large phase). Under
 * the lock. */
static void batch_put(NsReadAhead *a, NsAheadBatch *b)
{
  if (ns_read_ahead_batch_bytes(b) > 2 * NS_AHEAD_BATCH_BYTES || a->spare->len >= SPARE_MAX)
    batch_free(b);
  else
    g_ptr_array_add(a->spare, b);
}

static gpointer ahead_thread(gpointer data)
{
  NsReadAhead *a = data;
  g_mutex_lock(&a->lock);
  for (;;) {
    /* room: the queue (with the caller's batch) below its bytes, or empty;
     * once full, it waits until the caller has taken half of it, so that
     * the two threads wake each other once per many batches, not at each */
    if (a->queued_bytes >= NS_AHEAD_QUEUE_BYTES && a->queue.length > 0) {
      while (!a->stop && a->queued_bytes > NS_AHEAD_QUEUE_BYTES / 2 && a->queue.length > 0) {
        a->producer_waits = TRUE;
        g_cond_wait(&a->cond, &a->lock);
        a->producer_waits = FALSE;
      }
    }
    NsAheadBatch *b = batch_get(a);
    int end = 1;
    if (!a->stop) {
      g_mutex_unlock(&a->lock);
      end = a->fill(a->owner, b);
      g_mutex_lock(&a->lock);
    }
    b->last = end <= 0 || a->stop;
    b->end = end;
    a->queued_bytes += ns_read_ahead_batch_bytes(b);
    a->peak_bytes = MAX(a->peak_bytes, a->queued_bytes);
    g_queue_push_tail(&a->queue, b);
    if (a->consumer_waits)
      g_cond_broadcast(&a->cond);
    if (b->last)
      break;
  }
  g_mutex_unlock(&a->lock);
  return NULL;
}

NsReadAhead *ns_read_ahead_start(NsAheadFill fill, gpointer owner)
{
  NsReadAhead *a = g_new0(NsReadAhead, 1);
  a->fill = fill;
  a->owner = owner;
  g_mutex_init(&a->lock);
  g_cond_init(&a->cond);
  g_queue_init(&a->queue);
  a->spare = g_ptr_array_new();
  a->thread = g_thread_try_new("schedule-read", ahead_thread, a, NULL);
  if (a->thread == NULL) {
    ns_read_ahead_free(a);
    return NULL;
  }
  return a;
}

static void join(NsReadAhead *a)
{
  if (a->thread != NULL) {
    g_thread_join(a->thread);
    a->thread = NULL;
  }
}

NsAheadBatch *ns_read_ahead_take(NsReadAhead *a)
{
  g_mutex_lock(&a->lock);
  if (a->finished) {
    g_mutex_unlock(&a->lock);
    return NULL;
  }
  if (a->taken != NULL) {
    NsAheadBatch *old = g_steal_pointer(&a->taken);
    a->queued_bytes -= ns_read_ahead_batch_bytes(old);
    gboolean was_last = old->last;
    batch_put(a, old);
    if (was_last) {
      a->finished = TRUE;
      g_mutex_unlock(&a->lock);
      return NULL;
    }
  }
  while (a->queue.length == 0) {
    a->consumer_waits = TRUE;
    g_cond_wait(&a->cond, &a->lock);
    a->consumer_waits = FALSE;
  }
  NsAheadBatch *b = g_queue_pop_head(&a->queue);
  a->taken = b;
  /* the thread waits for half the queue to be taken (or all of it) */
  if (a->producer_waits && (a->queued_bytes <= NS_AHEAD_QUEUE_BYTES / 2 || a->queue.length == 0))
    g_cond_broadcast(&a->cond);
  g_mutex_unlock(&a->lock);
  if (b->last)
    join(a); /* it pushed its last batch: it is returning */
  return b;
}

void ns_read_ahead_stop(NsReadAhead *a)
{
  g_mutex_lock(&a->lock);
  a->stop = TRUE;
  if (a->producer_waits)
    g_cond_broadcast(&a->cond);
  g_mutex_unlock(&a->lock);
  join(a);
}

gsize ns_read_ahead_peak_bytes(NsReadAhead *a)
{
  g_mutex_lock(&a->lock);
  gsize peak = a->peak_bytes;
  g_mutex_unlock(&a->lock);
  return peak;
}

void ns_read_ahead_free(NsReadAhead *a)
{
  if (a == NULL)
    return;
  if (a->thread != NULL)
    ns_read_ahead_stop(a);
  batch_free(a->taken);
  NsAheadBatch *b;
  while ((b = g_queue_pop_head(&a->queue)) != NULL)
    batch_free(b);
  for (guint i = 0; i < a->spare->len; i++)
    batch_free(g_ptr_array_index(a->spare, i));
  g_ptr_array_unref(a->spare);
  g_mutex_clear(&a->lock);
  g_cond_clear(&a->cond);
  g_free(a);
}
