/* netsched — the replayed program as a SimGrid time-independent trace and
 * as a GOAL schedule (see export_trace.h).
 *
 * Both follow the replay's lowering (sim/replay.c, machine_actor and
 * run_step) operation for operation:
 *   - before a step, the barriers due before its phase: a dissemination
 *     barrier, ⌈log2 p⌉ rounds in which machine x sends sync_size bytes
 *     to x + 2^r and receives from x − 2^r;
 *   - a step posts its receives (under `light`, each preceded by the
 *     receiver's "ready" message to the sender), then its sends in posting
 *     order, each once the pair-wise syncs it waits for (and, under
 *     `light`, the receiver's ready) have arrived;
 *   - as each transfer of the step completes, the syncs it releases leave
 *     (sender-based schemes on the send's completion, receiver-based on
 *     the receive's); the next step starts when all have completed.
 * Sync and ready messages are sync_size bytes: SMPI sends them eagerly
 * (below smpi/send-is-detached-thresh), as the replay detaches them.
 *
 * SimGrid's trace replay (src/smpi/internals/smpi_replay.cpp, 3.32) files
 * a rank's outstanding requests by (source, destination, tag) in a map
 * that keeps the first of equal keys, so every message gets a tag of its
 * own: data T(t) = t, ready R(t) = n_all + t, sync S(k) = 2 n_all + k,
 * then the barriers' round messages. Its action syntax (as `smpirun
 * -trace-ti` writes it): "R init", "R isend DST TAG BYTES", "R irecv SRC
 * TAG BYTES", "R recv SRC TAG BYTES", "R wait SRC DST TAG", "R waitall",
 * "R barrier", "R finalize"; without a datatype a size counts MPI_BYTEs
 * (the default type of an "init" without arguments).
 *
 * GOAL (Hoefler et al., LogGOPSim; the text form txt2bin reads):
 * "num_ranks P", "rank R {", "lN: send Bb to D tag T", "lN: recv Bb from
 * S tag T", "lN: calc 0", "lA requires lB", "}". Each step's operations
 * require the join (a "calc 0") of the step or barrier round before; a
 * label only ever requires an earlier one, so the dependencies are
 * acyclic by construction.
 */
#include "sim/export_trace.h"
#include "platforms/model/error.h"
#include "platforms/io/output_file_internal.h"
#include "platforms/model/text_internal.h"
#include "sim/smpi_files.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  const Program *prog;
  uint32_t n_sync;
  uint32_t *edge_from;           /* per sync edge k: the transfer whose completion sends it */
  uint32_t *in_start, *in_edge;  /* per transfer t: the edges it waits for,
                                    in_edge[in_start[t] .. in_start[t + 1]) */
  uint32_t rounds;               /* dissemination rounds of one barrier */
  uint64_t tag_ready, tag_sync, tag_barrier;
} Lowering;

static void lowering_clear(Lowering *L)
{
  g_free(L->edge_from);
  g_free(L->in_start);
  g_free(L->in_edge);
}

static gboolean lowering_init(Lowering *L, const Program *P, GError **error)
{
  *L = (Lowering){ .prog = P, .n_sync = P->sync_start[P->n_all] };
  if (P->window > 0) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the global window (window:%u) is executed by netsched's actors item by "
                    "item; a trace or GOAL export cannot express it", P->window);
    return FALSE;
  }
  for (int dist = 1; dist < P->p; dist *= 2)
    L->rounds++;
  L->tag_ready = P->n_all;
  L->tag_sync = 2 * P->n_all;
  L->tag_barrier = L->tag_sync + L->n_sync;
  uint64_t tags = L->tag_barrier + (uint64_t)P->n_barriers * L->rounds;
  if (tags > (uint64_t)G_MAXINT32) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "the export needs %" G_GUINT64_FORMAT " message tags, above MPI's 2^31 - 1",
                    tags);
    return FALSE;
  }
  L->edge_from = g_new(uint32_t, L->n_sync + 1);
  L->in_start = g_new0(uint32_t, P->n_all + 2);
  L->in_edge = g_new(uint32_t, L->n_sync + 1);
  for (uint64_t t = 0; t < P->n_all; t++)
    for (uint32_t k = P->sync_start[t]; k < P->sync_start[t + 1]; k++) {
      L->edge_from[k] = (uint32_t)t;
      L->in_start[P->sync_to[k] + 1]++;
    }
  for (uint64_t t = 0; t < P->n_all; t++)
    L->in_start[t + 1] += L->in_start[t];
  uint32_t *fill = g_memdup2(L->in_start, sizeof(uint32_t) * (gsize)(P->n_all + 1));
  for (uint32_t k = 0; k < L->n_sync; k++)
    L->in_edge[fill[P->sync_to[k]]++] = k;
  g_free(fill);
  return TRUE;
}

/* The machine that sends sync edge k: the one whose side of the earlier
 * transfer completes it (replay.c, release_syncs). */
static int sync_sender(const Lowering *L, uint32_t k)
{
  uint32_t from = L->edge_from[k];
  return L->prog->receiver_based ? L->prog->dst[from] : L->prog->src[from];
}

/* Does machine x's completion of transfer t (its send when `send`) release syncs? */
static gboolean releases(const Program *P, uint32_t t, gboolean send)
{
  return send != P->receiver_based && P->sync_start[t + 1] > P->sync_start[t];
}

static uint64_t barrier_tag(const Lowering *L, uint32_t b, uint32_t round)
{
  return L->tag_barrier + (uint64_t)b * L->rounds + round;
}

/* ---- SimGrid time-independent trace ------------------------------------- */

static void ti_barrier(GString *o, const Lowering *L, int x, uint32_t b)
{
  const Program *P = L->prog;
  if (P->hardware_barrier) { /* SMPI's own MPI_Barrier: messages, unlike the hardware */
    g_string_append_printf(o, "%d barrier\n", x);
    return;
  }
  uint32_t r = 0;
  for (int dist = 1; dist < P->p; dist *= 2, r++) {
    uint64_t tag = barrier_tag(L, b, r);
    g_string_append_printf(o, "%d isend %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                           (x + dist) % P->p, tag, P->sync_size);
    g_string_append_printf(o, "%d irecv %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                           (x - dist + P->p) % P->p, tag, P->sync_size);
    g_string_append_printf(o, "%d waitall\n", x);
  }
}

typedef struct {
  uint32_t t;
  gboolean send;
  double end;
  uint32_t pos;
} Completion;

static int by_end(const void *a, const void *b)
{
  const Completion *x = a, *y = b;
  if (x->end != y->end)
    return (x->end > y->end) - (x->end < y->end);
  return (x->pos > y->pos) - (x->pos < y->pos);
}

static void ti_step(GString *o, const Lowering *L, int x, const Step *st)
{
  const Program *P = L->prog;
  uint64_t ss = P->sync_size;
  gboolean any_release = FALSE;
  for (uint32_t i = 0; i < st->n_recvs; i++) {
    uint32_t t = P->ops[st->recv_first + i];
    if (P->light)
      g_string_append_printf(o, "%d isend %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                             P->src[t], L->tag_ready + t, ss);
    g_string_append_printf(o, "%d irecv %d %u %.0f\n", x, P->src[t], t, P->bytes[t]);
    any_release = any_release || releases(P, t, FALSE);
  }
  for (uint32_t i = 0; i < st->n_sends; i++) {
    uint32_t t = P->ops[st->send_first + i];
    for (uint32_t j = L->in_start[t]; j < L->in_start[t + 1]; j++) {
      uint32_t k = L->in_edge[j];
      g_string_append_printf(o, "%d recv %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                             sync_sender(L, k), L->tag_sync + k, ss);
    }
    if (P->light)
      g_string_append_printf(o, "%d recv %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                             P->dst[t], L->tag_ready + t, ss);
    g_string_append_printf(o, "%d isend %d %u %.0f\n", x, P->dst[t], t, P->bytes[t]);
    any_release = any_release || releases(P, t, TRUE);
  }
  if (any_release) {
    /* The replay releases a transfer's syncs the moment it completes; a
     * trace waits in a fixed order: the order the replay completed them. */
    guint n = st->n_sends + st->n_recvs;
    Completion *c = g_new(Completion, n + 1);
    for (guint i = 0; i < n; i++) {
      gboolean send = i < st->n_sends;
      uint32_t t = send ? P->ops[st->send_first + i] : P->ops[st->recv_first + i - st->n_sends];
      c[i] = (Completion){ t, send, P->end[t], i };
    }
    qsort(c, n, sizeof *c, by_end);
    for (guint i = 0; i < n; i++) {
      uint32_t t = c[i].t;
      g_string_append_printf(o, "%d wait %d %d %u\n", x, P->src[t], P->dst[t], t);
      if (!releases(P, t, c[i].send))
        continue;
      for (uint32_t k = P->sync_start[t]; k < P->sync_start[t + 1]; k++)
        g_string_append_printf(o, "%d isend %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", x,
                               P->src[P->sync_to[k]], L->tag_sync + k, ss);
    }
    g_free(c);
  }
  g_string_append_printf(o, "%d waitall\n", x);
}

static void ti_rank(GString *o, const Lowering *L, int x)
{
  const Program *P = L->prog;
  g_string_append_printf(o, "%d init\n", x);
  uint32_t b = 0;
  for (uint32_t s = P->step_start[x]; s < P->step_start[x + 1]; s++) {
    const Step *st = &P->steps[s];
    while (b < P->n_barriers && P->barrier_phase[b] <= st->phase)
      ti_barrier(o, L, x, b++);
    ti_step(o, L, x, st);
  }
  while (b < P->n_barriers)
    ti_barrier(o, L, x, b++);
  g_string_append_printf(o, "%d finalize\n", x);
}

/* A directory to write into: created when missing; an existing one must
 * be a directory itself, not a link to one. */
static gboolean output_directory(const char *dir, GError **error)
{
  if (mkdir(dir, 0755) == 0)
    return TRUE;
  struct stat st;
  if (errno == EEXIST && lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
    return TRUE;
  ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot write the trace: %s", dir,
                  errno == EEXIST ? "not a directory" : g_strerror(errno));
  return FALSE;
}

static gboolean export_ti_trace(const Lowering *L, const NsTopology *topo,
                                const NsSimGridExport *platform, const char *dir, GError **error)
{
  const Program *P = L->prog;
  if (!output_directory(dir, error) ||
      !ns_smpi_write_hostfile(dir, NS_TI_TRACE_HOSTFILE, (const char *const *)P->hosts, P->p,
                              error) ||
      !ns_smpi_write_platform(dir, NS_TI_TRACE_PLATFORM, topo, platform, error))
    return FALSE;
  g_autoptr(GString) text = g_string_new(NULL);
  g_autoptr(GString) index = g_string_new(NULL);
  for (int x = 0; x < P->p; x++) {
    char name[32];
    g_snprintf(name, sizeof name, "rank-%d.txt", x);
    g_string_truncate(text, 0);
    ti_rank(text, L, x);
    if (!ns_output_write_in(dir, name, text->str, (gssize)text->len, error))
      return FALSE;
    g_string_append_printf(index, "%s\n", name);
  }
  /* the index last: a trace is complete once it is there */
  return ns_output_write_in(dir, NS_TI_TRACE_INDEX, index->str, (gssize)index->len, error);
}

char *ns_sim_ti_trace_command(const char *dir, const NsSimOptions *opt)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
  const char *fixed[] = { "smpirun", "-platform", NS_TI_TRACE_PLATFORM, "-hostfile",
                          NS_TI_TRACE_HOSTFILE, "-replay", NS_TI_TRACE_INDEX,
                          "--cfg=smpi/simulate-computation:no" };
  for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
    g_ptr_array_add(argv, g_strdup(fixed[i]));
  g_ptr_array_add(argv, g_strdup_printf("--cfg=smpi/send-is-detached-thresh:%" G_GUINT64_FORMAT,
                                        opt->eager_threshold));
  if (!ns_sim_model_cfg(argv, opt))
    return NULL;
  ns_sim_user_cfg(argv, opt);
  /* a directory named like an option is cd'ed to as ./-NAME */
  g_autofree char *path = dir[0] == '-' ? g_strconcat("./", dir, NULL) : g_strdup(dir);
  g_autofree char *where = ns_shell_word(path);
  GString *line = g_string_new(NULL);
  g_string_append_printf(line, "cd %s &&", where);
  for (guint i = 0; i < argv->len; i++) {
    g_autofree char *word = ns_shell_word(g_ptr_array_index(argv, i));
    g_string_append_printf(line, " %s", word);
  }
  return g_string_free(line, FALSE);
}

/* ---- GOAL ----------------------------------------------------------------- */

typedef struct {
  GString *o;
  uint64_t next;                 /* the next label number */
  uint64_t join;                 /* the label the next operations require (0: none) */
} Goal;

/* Appends "lN: <op>" and its dependency on the current join; returns N. */
static uint64_t goal_op(Goal *g, const char *op, uint64_t size, int peer, uint64_t tag)
{
  uint64_t l = g->next++;
  gboolean send = strcmp(op, "send") == 0;
  g_string_append_printf(g->o, "l%" G_GUINT64_FORMAT ": %s %" G_GUINT64_FORMAT "b %s %d tag %"
                         G_GUINT64_FORMAT "\n", l, op, size, send ? "to" : "from", peer, tag);
  if (g->join != 0)
    g_string_append_printf(g->o, "l%" G_GUINT64_FORMAT " requires l%" G_GUINT64_FORMAT "\n", l,
                           g->join);
  return l;
}

static void goal_requires(Goal *g, uint64_t a, uint64_t b)
{
  g_string_append_printf(g->o, "l%" G_GUINT64_FORMAT " requires l%" G_GUINT64_FORMAT "\n", a, b);
}

/* A join ("calc 0") requiring `labels`, the operations that must complete
 * before anything later starts; it becomes what later operations require. */
static void goal_join(Goal *g, const uint64_t *labels, guint n)
{
  if (n == 0)
    return;
  uint64_t j = g->next++;
  g_string_append_printf(g->o, "l%" G_GUINT64_FORMAT ": calc 0\n", j);
  for (guint i = 0; i < n; i++)
    goal_requires(g, j, labels[i]);
  g->join = j;
}

static void goal_barrier(Goal *g, const Lowering *L, int x, uint32_t b)
{
  const Program *P = L->prog;
  uint32_t r = 0;
  for (int dist = 1; dist < P->p; dist *= 2, r++) {
    uint64_t tag = barrier_tag(L, b, r);
    uint64_t l[2] = { goal_op(g, "send", P->sync_size, (x + dist) % P->p, tag),
                      goal_op(g, "recv", P->sync_size, (x - dist + P->p) % P->p, tag) };
    goal_join(g, l, 2);
  }
}

static void goal_step(Goal *g, const Lowering *L, const Step *st)
{
  const Program *P = L->prog;
  uint64_t ss = P->sync_size;
  guint n = st->n_sends + st->n_recvs;
  uint64_t *data = g_new(uint64_t, n + 1);
  guint k = 0;
  for (uint32_t i = 0; i < st->n_recvs; i++) {
    uint32_t t = P->ops[st->recv_first + i];
    if (P->light)
      goal_op(g, "send", ss, P->src[t], L->tag_ready + t);
    data[k++] = goal_op(g, "recv", (uint64_t)P->bytes[t], P->src[t], t);
  }
  for (uint32_t i = 0; i < st->n_sends; i++) {
    uint32_t t = P->ops[st->send_first + i];
    guint waits = L->in_start[t + 1] - L->in_start[t] + (P->light ? 1 : 0);
    uint64_t *w = g_new(uint64_t, waits + 1);
    guint nw = 0;
    for (uint32_t j = L->in_start[t]; j < L->in_start[t + 1]; j++)
      w[nw++] = goal_op(g, "recv", ss, sync_sender(L, L->in_edge[j]), L->tag_sync + L->in_edge[j]);
    if (P->light)
      w[nw++] = goal_op(g, "recv", ss, P->dst[t], L->tag_ready + t);
    data[k] = goal_op(g, "send", (uint64_t)P->bytes[t], P->dst[t], t);
    for (guint j = 0; j < nw; j++)
      goal_requires(g, data[k], w[j]);
    k++;
    g_free(w);
  }
  /* The syncs each completion releases. */
  uint64_t join = g->join;
  for (guint i = 0; i < n; i++) {
    gboolean send = i >= st->n_recvs;
    uint32_t t = send ? P->ops[st->send_first + i - st->n_recvs] : P->ops[st->recv_first + i];
    if (!releases(P, t, send))
      continue;
    g->join = data[i];
    for (uint32_t e = P->sync_start[t]; e < P->sync_start[t + 1]; e++)
      goal_op(g, "send", ss, P->src[P->sync_to[e]], L->tag_sync + e);
  }
  g->join = join;
  goal_join(g, data, n);
  g_free(data);
}

static gboolean export_goal(const Lowering *L, FILE *out, const char *name, GError **error)
{
  const Program *P = L->prog;
  g_autoptr(GString) o = g_string_new(NULL);
  fprintf(out, "num_ranks %d\n", P->p);
  for (int x = 0; x < P->p && !ferror(out); x++) {
    Goal g = { .o = o, .next = 1 };
    g_string_truncate(o, 0);
    g_string_append_printf(o, "\nrank %d {\n", x);
    uint32_t b = 0;
    for (uint32_t s = P->step_start[x]; s < P->step_start[x + 1]; s++) {
      const Step *st = &P->steps[s];
      while (b < P->n_barriers && P->barrier_phase[b] <= st->phase)
        goal_barrier(&g, L, x, b++);
      goal_step(&g, L, st);
    }
    while (b < P->n_barriers)
      goal_barrier(&g, L, x, b++);
    g_string_append(o, "}\n");
    fwrite(o->str, 1, o->len, out);
  }
  if (fflush(out) != 0 || ferror(out)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "%s: cannot write the GOAL schedule: %s", name,
                    g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}

gboolean ns_sim_export_check(const Program *prog, const NsSimExport *exp, GError **error)
{
  if (exp->goal != NULL && prog->hardware_barrier && prog->n_barriers > 0) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "GOAL has no barrier hardware: export the message barriers (without "
                    "--hardware-barrier)");
    return FALSE;
  }
  for (uint64_t t = 0; t < prog->n_all; t++)
    if (prog->compute[t] > 0) { /* the exports carry messages only: no silent difference */
      ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                      "the exports carry no reduction compute: export with --reduce-rate 0");
      return FALSE;
    }
  Lowering L;
  gboolean ok = lowering_init(&L, prog, error);
  if (ok)
    lowering_clear(&L);
  return ok;
}

gboolean ns_sim_export_program(const Program *prog, const NsTopology *topo,
                               const NsSimGridExport *platform, const NsSimExport *exp,
                               GError **error)
{
  Lowering L;
  if (!ns_sim_export_check(prog, exp, error) || !lowering_init(&L, prog, error))
    return FALSE;
  gboolean ok = (exp->ti_trace_dir == NULL ||
                 export_ti_trace(&L, topo, platform, exp->ti_trace_dir, error)) &&
                (exp->goal == NULL ||
                 export_goal(&L, exp->goal, exp->goal_name ? exp->goal_name : "GOAL", error));
  lowering_clear(&L);
  return ok;
}
