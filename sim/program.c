/* netsched — per-machine programs for the SimGrid replay (see program.h). */
#include "sim/program.h"
#include "platforms/model/error.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
static void build_steps(Program *prog, const NsSchedule *s, const GArray *dummies)
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
  prog->steps = g_new0(Step, prog->step_start[p] + 1);
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
          Step *st = &prog->steps[step_fill[m]++];
          st->phase = phase_of[x];
          st->send_first = op_fill[m];
        }
        Step *st = &prog->steps[step_fill[m] - 1];
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

static gboolean map_results(Program *prog, gboolean create);

Program *ns_program_build(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *opt,
                          uint64_t msize, GError **error)
{
  int p = s->n_machines;
  int *node = ns_schedule_machine_nodes(topo, s, error);
  if (node == NULL)
    return NULL;
  gboolean phased = s->execution == NS_EXEC_PHASED;
  if (opt->sync.kind == NS_SYNC_WINDOW && phased) {
    g_autofree char *scheme = ns_sync_scheme_to_string(&opt->sync);
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "sync scheme %s gates the sends of posted schedules; %s/%s is phased (its "
                    "phases already bound what is in flight)",
                    scheme, ns_collective_name(s->collective), s->algorithm);
    g_free(node);
    return NULL;
  }
  GArray *dummies = phased && opt->sync.kind == NS_SYNC_DUMMY
                        ? dummy_transfers(topo, s, node)
                        : g_array_new(FALSE, FALSE, sizeof(Dummy));
  Program *prog = g_new0(Program, 1);
  prog->p = p;
  prog->hosts = g_new0(char *, p + 1);
  for (int m = 0; m < p; m++)
    prog->hosts[m] = g_strdup(s->machines[m]);
  prog->n_real = ns_schedule_n_transfers(s);
  prog->n_all = prog->n_real + dummies->len;
  prog->src = g_new(int32_t, prog->n_all + 1);
  prog->dst = g_new(int32_t, prog->n_all + 1);
  prog->bytes = g_new(double, prog->n_all + 1);
  for (uint64_t t = 0; t < prog->n_real; t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    prog->src[t] = tr->src;
    prog->dst[t] = tr->dst;
    prog->bytes[t] = (double)tr->n_chunks * (double)msize;
  }
  for (guint d = 0; d < dummies->len; d++) {
    const Dummy *du = &g_array_index(dummies, Dummy, d);
    prog->src[prog->n_real + d] = du->src;
    prog->dst[prog->n_real + d] = du->dst;
    prog->bytes[prog->n_real + d] = (double)msize;
  }
  build_steps(prog, s, dummies);
  g_array_unref(dummies);
  g_free(node);

  /* Barriers and pair-wise syncs (phased schedules only). */
  GArray *barriers = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  if (phased)
    for (uint32_t ph = 1; ph < ns_schedule_n_phases(s); ph++)
      if (ns_sync_barrier_before(&opt->sync, ph))
        g_array_append_val(barriers, ph);
  prog->n_barriers = barriers->len;
  prog->hardware_barrier = opt->hardware_barrier;
  prog->barrier_phase = (uint32_t *)g_array_free(barriers, FALSE);
  prog->receiver_based = ns_sync_is_receiver_based(&opt->sync);
  prog->light = phased && opt->sync.kind == NS_SYNC_LIGHT;
  prog->sync_size = opt->sync_size;
  if (opt->sync.kind == NS_SYNC_WINDOW) {
    prog->window = (uint32_t)opt->sync.block;
    prog->item_bytes = NS_SYNC_WINDOW_ITEM;
  }
  prog->needed = g_new0(uint32_t, prog->n_all + 1);
  prog->sync_start = g_new0(uint32_t, prog->n_all + 2);
  guint n_sync = phased && ns_sync_uses_pairwise(&opt->sync) ? s->sync->len : 0;
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

  /* Results live in a shared memfd so the replay process can hand them back. */
  prog->results_fd = memfd_create("netsched-results", 0);
  if (prog->results_fd < 0 || !map_results(prog, TRUE)) {
    ns_set_error_at(error, NS_ERROR_IO, NULL, 0, "cannot map %" G_GSIZE_FORMAT " bytes of results",
                    prog->shared_size);
    ns_program_free(prog);
    return NULL;
  }
  return prog;
}

/* Sizes (and, when `create`, allocates) the results memfd and maps it. */
static gboolean map_results(Program *prog, gboolean create)
{
  prog->shared_size =
      sizeof(SharedHeader) + sizeof(double) * ((gsize)prog->p + 2 * prog->n_all + 2);
  if (create && ftruncate(prog->results_fd, (off_t)prog->shared_size) != 0)
    return FALSE;
  prog->shared = mmap(NULL, prog->shared_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                      prog->results_fd, 0);
  if (prog->shared == MAP_FAILED) {
    prog->shared = NULL;
    return FALSE;
  }
  prog->header = prog->shared;
  prog->finish = (double *)((char *)prog->shared + sizeof(SharedHeader));
  prog->start = prog->finish + prog->p;
  prog->end = prog->start + prog->n_all;
  return TRUE;
}

/* ---- serialisation for the replay process ------------------------------ */

#define BLOB_MAGIC 0x6e7373696d763032ull /* "nssimv02" */

typedef struct {
  uint64_t magic;
  int32_t p, receiver_based, light, hardware_barrier;
  uint64_t n_real, n_all, n_steps, n_ops, n_barriers, n_sync, sync_size, names_len;
  uint64_t window, item_bytes;
} BlobHeader;

/* The arrays of a program in blob order: pointer, element size, count. */
typedef struct {
  void **ptr;
  gsize elem;
  uint64_t count;
} BlobArray;

static int blob_arrays(Program *prog, const BlobHeader *h, BlobArray *a)
{
  int n = 0;
  a[n++] = (BlobArray){ (void **)&prog->src, sizeof(int32_t), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->dst, sizeof(int32_t), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->bytes, sizeof(double), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->step_start, sizeof(uint32_t), (uint64_t)h->p + 1 };
  a[n++] = (BlobArray){ (void **)&prog->steps, sizeof(Step), h->n_steps };
  a[n++] = (BlobArray){ (void **)&prog->ops, sizeof(uint32_t), h->n_ops };
  a[n++] = (BlobArray){ (void **)&prog->barrier_phase, sizeof(uint32_t), h->n_barriers };
  a[n++] = (BlobArray){ (void **)&prog->needed, sizeof(uint32_t), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->sync_start, sizeof(uint32_t), h->n_all + 1 };
  a[n++] = (BlobArray){ (void **)&prog->sync_to, sizeof(uint32_t), h->n_sync };
  return n;
}

static gboolean write_all(int fd, const void *data, gsize len)
{
  const char *p = data;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w <= 0)
      return FALSE;
    p += w;
    len -= (gsize)w;
  }
  return TRUE;
}

int ns_program_to_fd(const Program *prog)
{
  GString *names = g_string_new(NULL);
  for (int m = 0; m < prog->p; m++)
    g_string_append_len(names, prog->hosts[m], (gssize)strlen(prog->hosts[m]) + 1);
  BlobHeader h = {
    .magic = BLOB_MAGIC, .p = prog->p, .receiver_based = prog->receiver_based,
    .light = prog->light, .hardware_barrier = prog->hardware_barrier, .n_real = prog->n_real, .n_all = prog->n_all,
    .n_steps = prog->step_start[prog->p], .n_ops = 2 * prog->n_all,
    .n_barriers = prog->n_barriers, .n_sync = prog->sync_start[prog->n_all],
    .sync_size = prog->sync_size, .names_len = names->len,
    .window = prog->window, .item_bytes = prog->item_bytes,
  };
  int fd = memfd_create("netsched-program", 0);
  gboolean ok = fd >= 0 && write_all(fd, &h, sizeof h);
  BlobArray a[16];
  int n = blob_arrays((Program *)prog, &h, a);
  static const char zeros[8];
  for (int i = 0; ok && i < n; i++) {
    gsize len = a[i].elem * a[i].count;
    ok = write_all(fd, *a[i].ptr, len) && write_all(fd, zeros, (8 - len % 8) % 8);
  }
  ok = ok && write_all(fd, names->str, names->len) && lseek(fd, 0, SEEK_SET) == 0;
  g_string_free(names, TRUE);
  if (!ok && fd >= 0) {
    close(fd);
    fd = -1;
  }
  return fd;
}

Program *ns_program_from_fds(int program_fd, int results_fd, const char **why)
{
  off_t size = lseek(program_fd, 0, SEEK_END);
  if (size < (off_t)sizeof(BlobHeader)) {
    *why = "program blob too short";
    return NULL;
  }
  void *blob = mmap(NULL, (gsize)size, PROT_READ, MAP_PRIVATE, program_fd, 0);
  if (blob == MAP_FAILED) {
    *why = "cannot map the program blob";
    return NULL;
  }
  const BlobHeader *h = blob;
  Program *prog = g_new0(Program, 1);
  prog->blob = blob;
  prog->blob_size = (gsize)size;
  prog->results_fd = results_fd;
  if (h->magic != BLOB_MAGIC) {
    *why = "not a netsched program blob (version mismatch?)";
    ns_program_free(prog);
    return NULL;
  }
  prog->p = h->p;
  prog->receiver_based = h->receiver_based;
  prog->light = h->light;
  prog->hardware_barrier = h->hardware_barrier;
  prog->n_real = h->n_real;
  prog->n_all = h->n_all;
  prog->n_barriers = (uint32_t)h->n_barriers;
  prog->sync_size = h->sync_size;
  if (h->window > G_MAXUINT32) {
    *why = "window out of range in the program blob";
    ns_program_free(prog);
    return NULL;
  }
  prog->window = (uint32_t)h->window;
  prog->item_bytes = h->item_bytes;
  BlobArray a[16];
  int n = blob_arrays(prog, h, a);
  gsize off = sizeof *h;
  for (int i = 0; i < n; i++) {
    gsize len = a[i].elem * a[i].count;
    if (off + len > (gsize)size) {
      *why = "truncated program blob";
      ns_program_free(prog);
      return NULL;
    }
    *a[i].ptr = (char *)blob + off;
    off += len + (8 - len % 8) % 8;
  }
  prog->hosts = g_new0(char *, (gsize)prog->p + 1);
  const char *name = (const char *)blob + off;
  for (int m = 0; m < prog->p; m++) {
    prog->hosts[m] = g_strdup(name);
    name += strlen(name) + 1;
  }
  if (!map_results(prog, FALSE)) {
    *why = "cannot map the results";
    ns_program_free(prog);
    return NULL;
  }
  return prog;
}

void ns_program_free(Program *prog)
{
  if (prog == NULL)
    return;
  g_strfreev(prog->hosts);
  if (prog->shared != NULL)
    munmap(prog->shared, prog->shared_size);
  if (prog->blob != NULL) { /* arrays point into the blob */
    munmap(prog->blob, prog->blob_size);
    g_free(prog);
    return;
  }
  if (prog->results_fd > 0)
    close(prog->results_fd);
  g_free(prog->src);
  g_free(prog->dst);
  g_free(prog->bytes);
  g_free(prog->step_start);
  g_free(prog->steps);
  g_free(prog->ops);
  g_free(prog->barrier_phase);
  g_free(prog->needed);
  g_free(prog->sync_start);
  g_free(prog->sync_to);
  g_free(prog);
}
