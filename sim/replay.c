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
static void barrier(int x)
{
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
static void await_syncs(int x, uint32_t t)
{
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
    await_syncs(x, t);
    G->start[t] = simgrid_get_clock();
    ids[k] = t;
    is_send[k] = TRUE;
    comms[k++] = sg_mailbox_put_async(data_box(x, G->dst[t]), &payload, (long)G->bytes[t]);
  }
  while (k > 0) {
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
      barrier(x), b++;
    run_step(x, st);
  }
  while (b < G->n_barriers)
    barrier(x), b++;
  G->finish[x] = simgrid_get_clock();
}

/* ---- set-up ------------------------------------------------------------- */

void ns_replay_run(Program *prog, const char *platform, int argc, char **argv)
{
  G = prog;
  sync_got = g_new0(uint32_t, prog->n_all + 1);
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
  prog->header->done = 1;
  fflush(NULL);
  /* _exit: ns-3 crashes in its destructors at exit (simgrid-3.32 notes). */
  _exit(0);
}
