/* netsched — a schedule lowered into per-machine programs (see program.h). */
#include "sched/lower/program.h"
#include "platforms/error.h"
#include <string.h>

typedef struct {
  uint32_t phase;
  int32_t src, dst;
} Dummy;

/* The dissertation's dummy scheme (§3.2.3.1): in every phase, a machine
 * that does not send sends a dummy message to a machine of its own switch
 * that does not receive; when there is none it would send to itself, which
 * costs nothing on the network and is left out. Dummies carry msize bytes,
 * like the messages they stand in for. */
static GArray *dummy_transfers(const NsTopology *topo, const NsSchedule *s, const int *node)
{
  GArray *dummies = g_array_new(FALSE, FALSE, sizeof(Dummy));
  int p = s->n_machines;
  /* Machines grouped by the switch they hang from. */
  GHashTable *by_switch = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                                (GDestroyNotify)g_array_unref);
  int *sw = g_new(int, p);
  for (int m = 0; m < p; m++) {
    const int *inc = ns_topology_incident(topo, node[m]);
    sw[m] = ns_topology_link_other(topo, inc[0], node[m]);
    GArray *group = g_hash_table_lookup(by_switch, GINT_TO_POINTER(sw[m]));
    if (group == NULL) {
      group = g_array_new(FALSE, FALSE, sizeof(int));
      g_hash_table_insert(by_switch, GINT_TO_POINTER(sw[m]), group);
    }
    g_array_append_val(group, m);
  }
  uint32_t *sending = g_new0(uint32_t, p), *receiving = g_new0(uint32_t, p);
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    uint32_t stamp = ph + 1;
    for (uint64_t t = first; t < first + n; t++) {
      sending[ns_schedule_transfer(s, t)->src] = stamp;
      receiving[ns_schedule_transfer(s, t)->dst] = stamp;
    }
    for (int x = 0; x < p; x++) {
      if (sending[x] == stamp)
        continue;
      GArray *group = g_hash_table_lookup(by_switch, GINT_TO_POINTER(sw[x]));
      for (guint k = 0; k < group->len; k++) {
        int y = g_array_index(group, int, k);
        if (y != x && receiving[y] != stamp) {
          g_array_append_val(dummies, ((Dummy){ ph, x, y }));
          sending[x] = receiving[y] = stamp;
          break;
        }
      }
    }
  }
  g_free(sending);
  g_free(receiving);
  g_free(sw);
  g_hash_table_unref(by_switch);
  return dummies;
}

/* Per-machine steps: the machine's sends (posting order) and receives of
 * each phase it takes part in. Posted schedules are one step. */
static void build_steps(NsLowered *prog, const NsSchedule *s, const GArray *dummies)
{
  int p = prog->p;
  uint32_t n_phases = ns_schedule_n_phases(s);
  /* Transfers in phase order, dummies after the real ones of their phase. */
  uint32_t *order = g_new(uint32_t, prog->n_all + 1), *phase_of = g_new(uint32_t, prog->n_all + 1);
  uint64_t k = 0;
  guint d = 0;
  for (uint32_t ph = 0; ph < n_phases; ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    for (uint64_t t = first; t < first + n; t++) {
      order[k] = (uint32_t)t;
      phase_of[k++] = ph;
    }
    for (; d < dummies->len && g_array_index(dummies, Dummy, d).phase == ph; d++) {
      order[k] = (uint32_t)(prog->n_real + d);
      phase_of[k++] = ph;
    }
  }
  /* Count entries and steps per machine. */
  uint32_t *entries = g_new0(uint32_t, p + 1), *last_phase = g_new(uint32_t, p);
  prog->step_start = g_new0(uint32_t, p + 1);
  for (int m = 0; m < p; m++)
    last_phase[m] = G_MAXUINT32;
  for (uint64_t i = 0; i < prog->n_all; i++) {
    int ends[2] = { prog->src[order[i]], prog->dst[order[i]] };
    for (int e = 0; e < 2; e++) {
      entries[ends[e] + 1]++;
      if (last_phase[ends[e]] != phase_of[i]) {
        last_phase[ends[e]] = phase_of[i];
        prog->step_start[ends[e] + 1]++;
      }
    }
  }
  for (int m = 0; m < p; m++) {
    entries[m + 1] += entries[m];
    prog->step_start[m + 1] += prog->step_start[m];
  }
  prog->steps = g_new0(NsStep, prog->step_start[p] + 1);
  prog->ops = g_new(uint32_t, entries[p] + 1);
  /* Fill: sends of a step first (in list order = posting order), then its
   * receives; two cursors per machine step. */
  uint32_t *step_fill = g_memdup2(prog->step_start, sizeof(uint32_t) * (gsize)p);
  uint32_t *op_fill = g_memdup2(entries, sizeof(uint32_t) * (gsize)p);
  for (int m = 0; m < p; m++)
    last_phase[m] = G_MAXUINT32;
  uint64_t i = 0;
  while (i < prog->n_all) {
    uint64_t j = i;
    while (j < prog->n_all && phase_of[j] == phase_of[i])
      j++;
    /* Phase [i, j): open a step for every machine taking part, sends first. */
    for (int pass = 0; pass < 2; pass++)
      for (uint64_t x = i; x < j; x++) {
        uint32_t t = order[x];
        int m = pass == 0 ? prog->src[t] : prog->dst[t];
        if (last_phase[m] != phase_of[x]) {
          last_phase[m] = phase_of[x];
          NsStep *st = &prog->steps[step_fill[m]++];
          st->phase = phase_of[x];
          st->send_first = op_fill[m];
        }
        NsStep *st = &prog->steps[step_fill[m] - 1];
        if (pass == 0) {
          prog->ops[op_fill[m]++] = t;
          st->n_sends++;
          st->recv_first = op_fill[m];
        } else {
          if (st->n_recvs == 0 && st->n_sends == 0)
            st->recv_first = op_fill[m];
          prog->ops[op_fill[m]++] = t;
          st->n_recvs++;
        }
      }
    i = j;
  }
  g_free(step_fill);
  g_free(op_fill);
  g_free(entries);
  g_free(last_phase);
  g_free(order);
  g_free(phase_of);
}


gboolean ns_lower_scheme(const NsSchedule *s, const NsSyncScheme *given, NsSyncScheme *scheme,
                         GError **error)
{
  if (given != NULL) {
    *scheme = *given;
    return TRUE;
  }
  *scheme = (NsSyncScheme){ NS_SYNC_NONE, 0 };
  return s->sync_scheme == NULL || ns_sync_scheme_parse(s->sync_scheme, scheme, error);
}

gboolean ns_lower_has_sync(const NsSchedule *s, const NsSyncScheme *scheme)
{
  if (!ns_sync_uses_pairwise(scheme))
    return FALSE;
  g_autofree char *want = ns_sync_scheme_to_string(scheme);
  return s->sync_set && g_strcmp0(s->sync_scheme, want) == 0;
}

NsLowered *ns_lower_program(const NsTopology *topo, const NsSchedule *s,
                            const NsSyncScheme *scheme, GError **error)
{
  int p = s->n_machines;
  int *node = ns_schedule_machine_nodes(topo, s, error);
  if (node == NULL)
    return NULL;
  gboolean phased = s->execution == NS_EXEC_PHASED;
  if (scheme->kind == NS_SYNC_WINDOW && phased) {
    g_autofree char *name = ns_sync_scheme_to_string(scheme);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "sync scheme %s gates the sends of posted schedules; %s/%s is phased (its "
                    "phases already bound what is in flight)",
                    name, ns_collective_name(s->collective), s->algorithm);
    g_free(node);
    return NULL;
  }
  GArray *dummies = phased && scheme->kind == NS_SYNC_DUMMY
                        ? dummy_transfers(topo, s, node)
                        : g_array_new(FALSE, FALSE, sizeof(Dummy));
  NsLowered *prog = g_new0(NsLowered, 1);
  prog->p = p;
  prog->n_real = ns_schedule_n_transfers(s);
  prog->n_all = prog->n_real + dummies->len;
  prog->src = g_new(int32_t, prog->n_all + 1);
  prog->dst = g_new(int32_t, prog->n_all + 1);
  for (uint64_t t = 0; t < prog->n_real; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    prog->src[t] = tr->src;
    prog->dst[t] = tr->dst;
  }
  for (guint d = 0; d < dummies->len; d++) {
    const Dummy *du = &g_array_index(dummies, Dummy, d);
    prog->src[prog->n_real + d] = du->src;
    prog->dst[prog->n_real + d] = du->dst;
  }
  build_steps(prog, s, dummies);
  g_array_unref(dummies);
  g_free(node);

  /* Barriers and pair-wise syncs (phased schedules only). */
  GArray *barriers = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  if (phased)
    for (uint32_t ph = 1; ph < ns_schedule_n_phases(s); ph++)
      if (ns_sync_barrier_before(scheme, ph))
        g_array_append_val(barriers, ph);
  prog->n_barriers = barriers->len;
  prog->barrier_phase = (uint32_t *)g_array_free(barriers, FALSE);
  prog->receiver_based = ns_sync_is_receiver_based(scheme);
  prog->light = phased && scheme->kind == NS_SYNC_LIGHT;
  if (scheme->kind == NS_SYNC_WINDOW) {
    prog->window = (uint32_t)scheme->block;
    prog->item_bytes = NS_SYNC_WINDOW_ITEM;
  }
  prog->needed = g_new0(uint32_t, prog->n_all + 1);
  prog->sync_start = g_new0(uint32_t, prog->n_all + 2);
  guint n_sync = phased && ns_sync_uses_pairwise(scheme) ? s->sync->len : 0;
  prog->sync_to = g_new(uint32_t, n_sync + 1);
  for (guint i = 0; i < n_sync; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    prog->needed[e->to]++;
    prog->sync_start[e->from + 1]++;
  }
  for (uint64_t t = 0; t < prog->n_all; t++) {
    prog->sync_start[t + 1] += prog->sync_start[t];
    if (prog->light)
      prog->needed[t]++; /* the receiver's "ready" */
  }
  uint32_t *fill = g_memdup2(prog->sync_start, sizeof(uint32_t) * (gsize)(prog->n_all + 1));
  for (guint i = 0; i < n_sync; i++) {
    const NsSyncEdge *e = &g_array_index(s->sync, NsSyncEdge, i);
    prog->sync_to[fill[e->from]++] = e->to;
  }
  g_free(fill);
  return prog;
}

void ns_lowered_free(NsLowered *l)
{
  if (l == NULL)
    return;
  g_free(l->src);
  g_free(l->dst);
  g_free(l->step_start);
  g_free(l->steps);
  g_free(l->ops);
  g_free(l->barrier_phase);
  g_free(l->needed);
  g_free(l->sync_start);
  g_free(l->sync_to);
  g_free(l);
}
