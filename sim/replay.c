/* netsched — the simulation child: one SimGrid actor per machine runs its
 * program (sim/program.h). Set-up (main of the child) is kept apart from
 * behaviour (the actor functions), as in SimGrid's examples. */
#include "sim/program.h"
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static Program *G;               /* the program of this (child) process */
static sg_bar_t hardware;        /* the barrier hardware, when modelled */
static uint32_t *sync_got;       /* per transfer: syncs received so far */
static int64_t *eta;             /* per machine under a window: items sent − items received */
static char payload;             /* SimGrid refuses NULL payloads */
static void *received;           /* where receives store the payload pointer (unread); it
                                    must outlive the comm, which a block-scoped local does not */

/* What each machine's actor is blocked on, so that a run SimGrid ends in a
 * deadlock can say who waited for what (a success path is checked too). */
typedef enum { WAIT_NOTHING, WAIT_SYNC, WAIT_COMM, WAIT_BARRIER, WAIT_WINDOW, WAIT_DONE } WaitKind;
typedef struct {
  WaitKind kind;
  uint32_t phase;
  uint32_t transfer;             /* WAIT_SYNC, WAIT_COMM; WAIT_WINDOW: the next to send */
} WaitState;
static WaitState *waiting;       /* per machine */
static uint32_t *iteration;      /* per machine: the invocation it runs (0-based); the
                                    sync counts of its transfers accumulate over them */

/* ---- mailboxes ---------------------------------------------------------- */

/* The data mailbox of a (source, destination) pair, by name the first
 * time and from `data_boxes` after: naming it (printf, then SimGrid's
 * string-keyed map) for every transfer was 17 % of the replay's
 * instructions, the most of what it did beyond a bare SimGrid program
 * doing the same communications (bench_sim --floor, issue #24). The
 * actors run one at a time, so the table needs no lock; it holds one entry
 * per pair that communicates, beside SimGrid's mailbox of that pair. */
static GHashTable *data_boxes;   /* src * p + dst + 1 -> sg_mailbox_t */

static sg_mailbox_t data_box(int src, int dst)
{
  gpointer key = GSIZE_TO_POINTER((gsize)src * (gsize)G->p + (gsize)dst + 1);
  sg_mailbox_t box = g_hash_table_lookup(data_boxes, key);
  if (box == NULL) {
    char name[48];
    g_snprintf(name, sizeof name, "d:%d:%d", src, dst);
    box = sg_mailbox_by_name(name);
    g_hash_table_insert(data_boxes, key, box);
  }
  return box;
}

static sg_mailbox_t sync_box(int machine)
{
  char name[32];
  g_snprintf(name, sizeof name, "s:%d", machine);
  return sg_mailbox_by_name(name);
}

static sg_mailbox_t barrier_box(int src, int dst)
{
  char name[48];
  g_snprintf(name, sizeof name, "b:%d:%d", src, dst);
  return sg_mailbox_by_name(name);
}

/* ---- behaviour ------------------------------------------------------------ */

/* Dissemination barrier: ⌈log2 p⌉ rounds, in round r machine x signals
 * x + 2^r and waits for x − 2^r (real messages of sync_size bytes). With
 * hardware barriers (Faraj & Yuan §5: Purdue PAPERS) every machine leaves
 * when the last arrives, at no network cost. */
static void barrier(int x, uint32_t phase)
{
  waiting[x] = (WaitState){ WAIT_BARRIER, phase, 0 };
  if (G->hardware_barrier) { /* dedicated barrier hardware: no messages */
    sg_barrier_wait(hardware);
    return;
  }
  int p = G->p;
  for (int dist = 1; dist < p; dist *= 2) {
    int to = (x + dist) % p, from = (x - dist + p) % p;
    sg_comm_t c[2];
    c[0] = sg_mailbox_put_async(barrier_box(x, to), &payload, (long)G->sync_size);
    void *got;
    c[1] = sg_mailbox_get_async(barrier_box(from, x), &got);
    sg_comm_wait_all(c, 2);
    G->header->n_sync_messages++;
  }
}

/* Sends the pair-wise syncs that transfer t's completion releases: one
 * small message to the sender of every transfer waiting on t. */
static void release_syncs(int x, uint32_t t)
{
  for (uint32_t k = G->sync_start[t]; k < G->sync_start[t + 1]; k++) {
    uint32_t target = G->sync_to[k];
    /* detach() starts the comm itself: it must not be started yet. */
    sg_comm_t c = sg_mailbox_put_init(sync_box(G->src[target]), GUINT_TO_POINTER(target + 1),
                                       (long)G->sync_size);
    sg_comm_detach(c, NULL);
    G->header->n_sync_messages++;
  }
}

/* Blocks until every sync transfer t waits for has arrived at machine x. */
static void await_syncs(int x, uint32_t t, uint32_t phase)
{
  waiting[x] = (WaitState){ WAIT_SYNC, phase, t };
  while (sync_got[t] < G->needed[t] * (iteration[x] + 1)) {
    void *data = sg_mailbox_get(sync_box(x));
    sync_got[GPOINTER_TO_UINT(data) - 1]++;
  }
}

/* Whether transfer t is sent eagerly: fewer bytes than the threshold, as
 * SMPI detaches a send below smpi/send-is-detached-thresh and Open MPI's
 * TCP BTL sends below btl_tcp_eager_limit without waiting for the match. */
static gboolean eager(uint32_t t)
{
  return G->bytes[t] < (double)G->eager_threshold;
}

/* A transfer completed: its end time and the progress the parent reads. */
static void transfer_done(uint32_t t)
{
  G->end[t] = simgrid_get_clock();
  G->header->transfers_done++;
  G->header->clock = G->end[t];
}

/* A reduction's combining receive: the receiver combines the data it got
 * with its own partial (MPI_Reduce_local), busy bytes / rate seconds
 * before it goes on. A sleep rather than an execution on the host: the
 * exported platforms give hosts no calibrated speed, and one actor per
 * machine already serialises the combines of a machine (one core
 * reduces, as an MPI process does); its sends and receives already posted
 * go on meanwhile, as the network moves them without the CPU. */
static void combine(uint32_t t)
{
  if (G->compute[t] > 0)
    sg_actor_sleep_for(G->compute[t]);
}

/* One step: post the receives, then each send once its syncs arrived (in
 * posting order), then wait for all, releasing syncs as transfers end and
 * combining what reductions received. An eager send is detached: the
 * sender is done with it once posted (releasing its sender-based syncs
 * then), and the transfer ends when its receive completes. */
static void run_step(int x, const Step *st)
{
  guint n = st->n_sends + st->n_recvs;
  sg_comm_t *comms = g_new(sg_comm_t, n);
  uint32_t *ids = g_new(uint32_t, n);
  gboolean *is_send = g_new(gboolean, n);
  guint k = 0;
  for (uint32_t i = 0; i < st->n_recvs; i++) {
    uint32_t t = G->ops[st->recv_first + i];
    if (G->light) { /* light barrier: tell the sender this phase is reached */
      sg_comm_t c = sg_mailbox_put_init(sync_box(G->src[t]), GUINT_TO_POINTER(t + 1),
                                        (long)G->sync_size);
      sg_comm_detach(c, NULL);
      G->header->n_sync_messages++;
    }
    ids[k] = t;
    is_send[k] = FALSE;
    comms[k++] = sg_mailbox_get_async(data_box(G->src[t], x), &received);
  }
  for (uint32_t i = 0; i < st->n_sends; i++) {
    uint32_t t = G->ops[st->send_first + i];
    await_syncs(x, t, st->phase);
    G->start[t] = simgrid_get_clock();
    if (eager(t)) {
      /* detach() starts the comm itself: it must not be started yet. */
      sg_comm_detach(sg_mailbox_put_init(data_box(x, G->dst[t]), &payload, (long)G->bytes[t]),
                     NULL);
      if (!G->receiver_based)
        release_syncs(x, t);
      continue;
    }
    ids[k] = t;
    is_send[k] = TRUE;
    comms[k++] = sg_mailbox_put_async(data_box(x, G->dst[t]), &payload, (long)G->bytes[t]);
  }
  while (k > 0) {
    waiting[x] = (WaitState){ WAIT_COMM, st->phase, ids[0] };
    ssize_t i = sg_comm_wait_any(comms, k);
    uint32_t t = ids[i];
    if (is_send[i]) {
      transfer_done(t);
      if (!G->receiver_based)
        release_syncs(x, t);
    } else {
      if (eager(t))
        transfer_done(t);
      if (G->receiver_based)
        release_syncs(x, t);
      combine(t);
    }
    k--;
    comms[i] = comms[k];
    ids[i] = ids[k];
    is_send[i] = is_send[k];
  }
  g_free(comms);
  g_free(ids);
  g_free(is_send);
}

/* ---- the global window (Tam & Wang §3.2, Algorithm 2) -------------------
 * A posted step under window:W. Each send is cut into MTU items; the
 * machine posts them in Algorithm 1's order — item 1 of every transfer in
 * posting order, then item 2, ... — but only while η < W, where η counts
 * the items it has sent minus the items it has received (Algorithm 2: inc
 * η on every item sent, dec η on every item received). Receives are posted
 * ahead, ⌊W / sources⌋ + 2 per source (at most W): a sender's W items in
 * flight go to consecutive destinations, so that many per pair lets
 * consecutive items of a pair overlap their latencies, as a NIC's receive
 * ring would; an item beyond them waits in its pair's mailbox, matched in
 * order. A step holds about 2W + sources comms however many items it
 * moves, which keeps SimGrid's wait-any scans short. */

typedef struct {
  uint32_t id;                   /* send: position in the step's sends; receive: source slot */
  gboolean send;
} Pending;

typedef struct {
  int x;
  const Step *st;
  /* sends: the cursor of Algorithm 1's loops (item `round` of send `next`) */
  uint64_t round, max_items;
  uint32_t next;
  uint64_t *sent_done;           /* per send: items completed */
  /* receives: per source slot, items not yet posted, items posted and not
   * received, and a transfer from it */
  guint n_sources;
  int32_t *source;
  uint64_t *unposted, *posted;
  uint64_t depth;                /* receives kept posted per source */
  uint32_t *example;
  /* outstanding comms */
  sg_comm_t *comms;
  Pending *pending;
  guint n, cap;
} Window;

static uint64_t n_items(uint32_t t)
{
  uint64_t bytes = (uint64_t)G->bytes[t];
  if (G->item_bytes == 0 || bytes <= G->item_bytes)
    return 1;
  return bytes / G->item_bytes + (bytes % G->item_bytes != 0);
}

/* Bytes of item j of transfer t: full items, the rest in the last. */
static double item_bytes(uint32_t t, uint64_t j)
{
  uint64_t k = n_items(t);
  if (k == 1)
    return G->bytes[t];
  return j + 1 < k ? (double)G->item_bytes : G->bytes[t] - (double)(k - 1) * (double)G->item_bytes;
}

static int compare_sources(const void *a, const void *b)
{
  int32_t x = G->src[*(const uint32_t *)a], y = G->src[*(const uint32_t *)b];
  return (x > y) - (x < y);
}

/* The step's receives grouped by source: items expected from each. */
static void window_sources(Window *w)
{
  const Step *st = w->st;
  uint32_t *by_src = g_memdup2(&G->ops[st->recv_first], sizeof(uint32_t) * (st->n_recvs + 1));
  qsort(by_src, st->n_recvs, sizeof(uint32_t), compare_sources);
  w->source = g_new(int32_t, st->n_recvs + 1);
  w->unposted = g_new0(uint64_t, st->n_recvs + 1);
  w->posted = g_new0(uint64_t, st->n_recvs + 1);
  w->example = g_new(uint32_t, st->n_recvs + 1);
  for (uint32_t i = 0; i < st->n_recvs; i++) {
    uint32_t t = by_src[i];
    if (w->n_sources == 0 || w->source[w->n_sources - 1] != G->src[t]) {
      w->source[w->n_sources] = G->src[t];
      w->example[w->n_sources++] = t;
    }
    w->unposted[w->n_sources - 1] += n_items(t);
  }
  g_free(by_src);
}

static void window_begin(Window *w, int x, const Step *st)
{
  *w = (Window){ .x = x, .st = st };
  for (uint32_t i = 0; i < st->n_sends; i++)
    w->max_items = MAX(w->max_items, n_items(G->ops[st->send_first + i]));
  w->sent_done = g_new0(uint64_t, st->n_sends + 1);
  window_sources(w);
  w->depth = MIN((uint64_t)G->window, G->window / MAX(w->n_sources, 1u) + 2);
  w->cap = MIN(w->n_sources * w->depth + G->window, 4096u) + 1;
  w->comms = g_new(sg_comm_t, w->cap);
  w->pending = g_new(Pending, w->cap);
}

/* Room for one more outstanding comm. More than W sends can be out when
 * η went negative (the machine received ahead of its own sending). */
static void window_reserve(Window *w)
{
  if (w->n < w->cap)
    return;
  w->cap *= 2;
  w->comms = g_renew(sg_comm_t, w->comms, w->cap);
  w->pending = g_renew(Pending, w->pending, w->cap);
}

static void window_end(Window *w)
{
  g_free(w->sent_done);
  g_free(w->source);
  g_free(w->unposted);
  g_free(w->posted);
  g_free(w->example);
  g_free(w->comms);
  g_free(w->pending);
}

/* The next item in Algorithm 1's order: send position *i, item *j. */
static gboolean window_next_item(Window *w, uint32_t *i, uint64_t *j)
{
  for (; w->round < w->max_items; w->round++, w->next = 0)
    for (; w->next < w->st->n_sends; w->next++)
      if (n_items(G->ops[w->st->send_first + w->next]) > w->round) {
        *i = w->next++;
        *j = w->round;
        return TRUE;
      }
  return FALSE;
}

static gboolean window_sends_left(const Window *w)
{
  return w->round < w->max_items;
}

/* Posts items while η < W (Algorithm 2: "if (η < W_g) send_item_to"). */
static void window_post_sends(Window *w)
{
  uint32_t i;
  uint64_t j;
  while (eta[w->x] < (int64_t)G->window && window_next_item(w, &i, &j)) {
    uint32_t t = G->ops[w->st->send_first + i];
    if (j == 0)
      G->start[t] = simgrid_get_clock();
    eta[w->x]++;
    window_reserve(w);
    w->pending[w->n] = (Pending){ i, TRUE };
    w->comms[w->n++] = sg_mailbox_put_async(data_box(w->x, G->dst[t]), &payload,
                                            (long)item_bytes(t, j));
  }
}

/* Posts receives from source `slot` until `depth` are out or none is left. */
static void window_post_recvs(Window *w, guint slot)
{
  for (; w->unposted[slot] > 0 && w->posted[slot] < w->depth; w->unposted[slot]--) {
    window_reserve(w);
    w->posted[slot]++;
    w->pending[w->n] = (Pending){ slot, FALSE };
    w->comms[w->n++] = sg_mailbox_get_async(data_box(w->source[slot], w->x), &received);
  }
}

/* A send item completed: the transfer ends with its last item. */
static void window_sent(Window *w, uint32_t i)
{
  uint32_t t = G->ops[w->st->send_first + i];
  if (++w->sent_done[i] < n_items(t))
    return;
  transfer_done(t);
}

/* What the machine waits for now, for deadlock reports. */
static void window_wait_state(const Window *w)
{
  uint32_t next = w->next < w->st->n_sends ? w->next : 0;
  if (window_sends_left(w) && eta[w->x] >= (int64_t)G->window) {
    waiting[w->x] = (WaitState){ WAIT_WINDOW, w->st->phase, G->ops[w->st->send_first + next] };
    return;
  }
  const Pending *p = &w->pending[0];
  uint32_t t = p->send ? G->ops[w->st->send_first + p->id] : w->example[p->id];
  waiting[w->x] = (WaitState){ WAIT_COMM, w->st->phase, t };
}

/* Runs a posted step under the window. FALSE when the machine can never
 * send again: η >= W with nothing left to receive (a schedule whose
 * machine sends W items more than it receives) — a deadlock, reported. */
static gboolean run_window_step(int x, const Step *st)
{
  Window w;
  window_begin(&w, x, st);
  for (guint slot = 0; slot < w.n_sources; slot++)
    window_post_recvs(&w, slot);
  window_post_sends(&w);
  while (w.n > 0) {
    window_wait_state(&w);
    ssize_t k = sg_comm_wait_any(w.comms, w.n);
    Pending done = w.pending[k];
    w.n--;
    w.comms[k] = w.comms[w.n];
    w.pending[k] = w.pending[w.n];
    if (done.send) {
      window_sent(&w, done.id);
    } else { /* Algorithm 2: dec η on every item received */
      eta[x]--;
      w.posted[done.id]--;
      window_post_recvs(&w, done.id);
    }
    window_post_sends(&w);
  }
  gboolean finished = !window_sends_left(&w);
  if (!finished)
    window_wait_state(&w);
  window_end(&w);
  /* The combines of the step's receives, once their items have all come. */
  for (uint32_t i = 0; finished && i < st->n_recvs; i++)
    combine(G->ops[st->recv_first + i]);
  return finished;
}

/* One invocation of machine x's program. */
static gboolean run_program(int x)
{
  uint32_t b = 0;
  for (uint32_t s = G->step_start[x]; s < G->step_start[x + 1]; s++) {
    const Step *st = &G->steps[s];
    while (b < G->n_barriers && G->barrier_phase[b] <= st->phase)
      barrier(x, G->barrier_phase[b]), b++;
    if (G->window == 0)
      run_step(x, st);
    else if (!run_window_step(x, st))
      return FALSE; /* stuck at its window: check_complete() reports it */
  }
  while (b < G->n_barriers)
    barrier(x, G->barrier_phase[b]), b++;
  /* the local combine of the raw contributions it gathered (an
   * all-gather-based allreduce): after its communication, as combine() */
  if (G->final_compute[x] > 0)
    sg_actor_sleep_for(G->final_compute[x]);
  return TRUE;
}

/* The program, G->iterations times, with Figure 4.3's barrier or
 * computation before each invocation. */
static void machine_actor(int argc, char **argv)
{
  int x = atoi(argv[1]);
  (void)argc;
  /* The process arrival pattern (Faraj's dissertation §4.2.1): the machine
   * reaches the collective's call site a_x seconds in, once (tune's repeated
   * invocations follow back to back). No sleep at all without one, so that
   * a balanced replay is the replay of before. */
  if (G->arrival[x] > 0)
    sg_actor_sleep_for(G->arrival[x]);
  for (iteration[x] = 0; iteration[x] < G->iterations; iteration[x]++) {
    if (G->gap == NS_ITERATION_BARRIER)
      barrier(x, 0);
    else if (G->gap == NS_ITERATION_COMPUTE)
      sg_actor_sleep_for(G->compute_s);
    if (!run_program(x))
      return;
  }
  G->finish[x] = simgrid_get_clock();
  waiting[x].kind = WAIT_DONE;
}

/* "n0 waits in phase 2 for the syncs of #7 n0->n3 (0 of 1 arrived)". */
static void describe_wait(GString *out, int x)
{
  const WaitState *w = &waiting[x];
  const char *who = G->hosts[x];
  uint32_t t = w->transfer;
  switch (w->kind) {
  case WAIT_SYNC:
    g_string_append_printf(out, "%s waits in phase %u for the sync messages that release #%u "
                           "%s->%s (%u of %u arrived)",
                           who, w->phase, t, G->hosts[G->src[t]], G->hosts[G->dst[t]],
                           sync_got[t], G->needed[t]);
    break;
  case WAIT_COMM:
    g_string_append_printf(out, "%s waits in phase %u for transfer #%u %s->%s", who, w->phase, t,
                           G->hosts[G->src[t]], G->hosts[G->dst[t]]);
    break;
  case WAIT_BARRIER:
    g_string_append_printf(out, "%s waits in the barrier before phase %u", who, w->phase);
    break;
  case WAIT_WINDOW:
    g_string_append_printf(out, "%s waits for its window before #%u %s->%s (η = items sent − "
                           "items received = %" G_GINT64_FORMAT ", W = %u)",
                           who, t, G->hosts[G->src[t]], G->hosts[G->dst[t]], (gint64)eta[x],
                           G->window);
    break;
  default:
    g_string_append_printf(out, "%s never started", who);
  }
}

/* After simgrid_run(): every machine must have finished its program and
 * every transfer completed. SimGrid stops a deadlocked simulation and
 * returns; that is an error naming what was left waiting, never a time. */
static gboolean check_complete(void)
{
  int stuck = 0;
  for (int x = 0; x < G->p; x++)
    stuck += waiting[x].kind != WAIT_DONE;
  if (stuck == 0 && G->header->transfers_done == G->n_all * G->iterations)
    return TRUE;
  GString *why = g_string_new(NULL);
  g_string_printf(why, "deadlock at %.6f s simulated: %d of %d machines never finished, %"
                  G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " transfers completed (",
                  simgrid_get_clock(), stuck, G->p, (guint64)G->header->transfers_done,
                  (guint64)G->n_all);
  int shown = 0;
  for (int x = 0; x < G->p && shown < 4; x++)
    if (waiting[x].kind != WAIT_DONE) {
      if (shown++ > 0)
        g_string_append(why, "; ");
      describe_wait(why, x);
    }
  g_string_append(why, stuck > shown ? "; ...)" : ")");
  g_strlcpy(G->header->error, why->str, sizeof G->header->error);
  g_string_free(why, TRUE);
  return FALSE;
}

/* ---- set-up ------------------------------------------------------------- */

void ns_replay_run(Program *prog, const char *platform, int argc, char **argv)
{
  G = prog;
  sync_got = g_new0(uint32_t, prog->n_all + 1);
  eta = g_new0(int64_t, prog->p);
  waiting = g_new0(WaitState, prog->p);
  data_boxes = g_hash_table_new(g_direct_hash, g_direct_equal);
  iteration = g_new0(uint32_t, prog->p);
  gint64 t0 = g_get_monotonic_time();
  simgrid_init(&argc, argv);
  simgrid_load_platform(platform);
  if (prog->hardware_barrier)
    hardware = sg_barrier_init((unsigned)prog->p);
  for (int m = 0; m < prog->p; m++) {
    sg_host_t host = sg_host_by_name(prog->hosts[m]);
    if (host == NULL) {
      g_snprintf(prog->header->error, sizeof prog->header->error,
                 "machine '%s' is not a host of the exported platform", prog->hosts[m]);
      fflush(NULL);
      _exit(3);
    }
    char index[16];
    g_snprintf(index, sizeof index, "%d", m);
    const char *args[] = { "machine", index, NULL };
    sg_actor_create(prog->hosts[m], host, machine_actor, 2, (char **)args);
  }
  simgrid_run();
  prog->header->completion = simgrid_get_clock();
  prog->header->wall_seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (!check_complete()) {
    fflush(NULL);
    _exit(4);
  }
  prog->header->done = 1;
  fflush(NULL);
  /* _exit: ns-3 crashes in its destructors at exit (simgrid-3.32 notes). */
  _exit(0);
}
