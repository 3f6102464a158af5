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
static char payload;             /* SimGrid refuses NULL payloads */

/* What each machine's actor is blocked on, so that a run SimGrid ends in a
 * deadlock can say who waited for what (a success path is checked too). */
typedef enum { WAIT_NOTHING, WAIT_SYNC, WAIT_COMM, WAIT_BARRIER, WAIT_DONE } WaitKind;
typedef struct {
  WaitKind kind;
  uint32_t phase;
  uint32_t transfer;             /* WAIT_SYNC, WAIT_COMM */
} WaitState;
static WaitState *waiting;       /* per machine */

/* ---- mailboxes ---------------------------------------------------------- */

static sg_mailbox_t data_box(int src, int dst)
{
  char name[48];
  g_snprintf(name, sizeof name, "d:%d:%d", src, dst);
  return sg_mailbox_by_name(name);
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
  while (sync_got[t] < G->needed[t]) {
    void *data = sg_mailbox_get(sync_box(x));
    sync_got[GPOINTER_TO_UINT(data) - 1]++;
  }
}

/* One step: post the receives, then each send once its syncs arrived (in
 * posting order), then wait for all, releasing syncs as transfers end. */
static void run_step(int x, const Step *st)
{
  guint n = st->n_sends + st->n_recvs;
  sg_comm_t *comms = g_new(sg_comm_t, n);
  uint32_t *ids = g_new(uint32_t, n);
  gboolean *is_send = g_new(gboolean, n);
  guint k = 0;
  for (uint32_t i = 0; i < st->n_recvs; i++) {
    uint32_t t = G->ops[st->recv_first + i];
    void *got;
    if (G->light) { /* light barrier: tell the sender this phase is reached */
      sg_comm_t c = sg_mailbox_put_init(sync_box(G->src[t]), GUINT_TO_POINTER(t + 1),
                                        (long)G->sync_size);
      sg_comm_detach(c, NULL);
      G->header->n_sync_messages++;
    }
    ids[k] = t;
    is_send[k] = FALSE;
    comms[k++] = sg_mailbox_get_async(data_box(G->src[t], x), &got);
  }
  for (uint32_t i = 0; i < st->n_sends; i++) {
    uint32_t t = G->ops[st->send_first + i];
    await_syncs(x, t, st->phase);
    G->start[t] = simgrid_get_clock();
    ids[k] = t;
    is_send[k] = TRUE;
    comms[k++] = sg_mailbox_put_async(data_box(x, G->dst[t]), &payload, (long)G->bytes[t]);
  }
  while (k > 0) {
    waiting[x] = (WaitState){ WAIT_COMM, st->phase, ids[0] };
    ssize_t i = sg_comm_wait_any(comms, k);
    uint32_t t = ids[i];
    if (is_send[i]) {
      G->end[t] = simgrid_get_clock();
      G->header->transfers_done++;
      G->header->clock = G->end[t];
      if (!G->receiver_based)
        release_syncs(x, t);
    } else if (G->receiver_based) {
      release_syncs(x, t);
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

static void machine_actor(int argc, char **argv)
{
  int x = atoi(argv[1]);
  uint32_t b = 0;
  for (uint32_t s = G->step_start[x]; s < G->step_start[x + 1]; s++) {
    const Step *st = &G->steps[s];
    while (b < G->n_barriers && G->barrier_phase[b] <= st->phase)
      barrier(x, G->barrier_phase[b]), b++;
    run_step(x, st);
  }
  while (b < G->n_barriers)
    barrier(x, G->barrier_phase[b]), b++;
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
  if (stuck == 0 && G->header->transfers_done == G->n_all)
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
  waiting = g_new0(WaitState, prog->p);
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
