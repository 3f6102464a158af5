/* netsched — per-machine programs for the SimGrid replay (see program.h). */
#include "sim/program.h"
#include "platforms/model/error.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static gboolean map_results(Program *prog, gboolean create);

/* The local combine of raw contributions at the end of a reduction
 * (schedule.h, "Raw contributions"; Faraj's dissertation §4.1.1.1, the
 * all-gather-based allreduce): per machine, seconds combining the raw
 * chunks of other origins it received, each distinct one once, at its
 * segment's size (`msize` when the schedule has no sizes of its own),
 * into `final` (p entries, zeroed). Every such chunk is charged, also one
 * whose origin the machine's partial holds already: the simulator keeps no
 * partial results, and the all-gather-based planners send none. O(raw
 * chunks). */
static void raw_combine_costs(const NsSchedule *s, uint64_t msize, double rate, double *final)
{
  if (!ns_collective_is_reduction(s->collective) || rate <= 0)
    return;
  uint32_t segs = MAX(s->n_segments, 1);
  GHashTable *seen = NULL; /* dst · p · S + chunk */
  for (uint64_t t = 0; t < ns_schedule_n_transfers(s); t++) {
    const NsTransfer *tr = ns_schedule_transfer(s, t);
    if (!tr->raw)
      continue;
    if (seen == NULL)
      seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    const uint32_t *c = ns_schedule_chunks(s, tr);
    for (uint32_t k = 0; k < tr->n_chunks; k++) {
      if (c[k] / segs == (uint32_t)tr->dst)
        continue; /* its own contribution: in its partial from the start */
      gint64 key = ((gint64)tr->dst * s->n_machines) * segs + c[k];
      if (g_hash_table_contains(seen, &key))
        continue;
      g_hash_table_add(seen, g_memdup2(&key, sizeof key));
      double bytes = s->chunk_bytes != NULL ? (double)ns_schedule_chunk_size(s, c[k]) : (double)msize;
      final[tr->dst] += bytes / rate;
    }
  }
  if (seen != NULL)
    g_hash_table_destroy(seen);
}

Program *ns_program_build(const NsTopology *topo, const NsSchedule *s, const NsSimOptions *opt,
                          uint64_t msize, GError **error)
{
  NsLowered *low = ns_lower_program(topo, s, &opt->sync, error);
  if (low == NULL)
    return NULL;
  /* The lowering's arrays become the program's. */
  Program *prog = g_new0(Program, 1);
  prog->p = low->p;
  prog->hosts = g_new0(char *, low->p + 1);
  for (int m = 0; m < low->p; m++)
    prog->hosts[m] = g_strdup(s->machines[m]);
  prog->n_real = low->n_real;
  prog->n_all = low->n_all;
  prog->src = g_steal_pointer(&low->src);
  prog->dst = g_steal_pointer(&low->dst);
  prog->step_start = g_steal_pointer(&low->step_start);
  prog->steps = g_steal_pointer(&low->steps);
  prog->ops = g_steal_pointer(&low->ops);
  prog->n_barriers = low->n_barriers;
  prog->barrier_phase = g_steal_pointer(&low->barrier_phase);
  prog->receiver_based = low->receiver_based;
  prog->light = low->light;
  prog->needed = g_steal_pointer(&low->needed);
  prog->sync_start = g_steal_pointer(&low->sync_start);
  prog->sync_to = g_steal_pointer(&low->sync_to);
  prog->window = low->window;
  prog->item_bytes = low->item_bytes;
  ns_lowered_free(low);
  prog->hardware_barrier = opt->hardware_barrier;
  prog->arrival = g_new0(double, (gsize)prog->p + 1); /* the caller sets a pattern's */
  prog->sync_size = opt->sync_size;
  prog->eager_threshold = opt->eager_threshold;
  prog->iterations = (uint32_t)MAX(opt->iterations, 1);
  prog->gap = opt->iteration_gap;
  prog->compute_s = opt->iteration_compute_s;
  if (prog->iterations > 1 && prog->window > 0) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "repeated invocations are not replayed under the window scheme");
    ns_program_free(prog);
    return NULL;
  }
  /* Each transfer its chunks' bytes (a v-collective's own sizes); dummies
   * carry msize bytes (the largest chunk), like the messages they stand in
   * for. A combining transfer keeps its receiver busy bytes / rate. */
  prog->bytes = g_new(double, prog->n_all + 1);
  prog->compute = g_new0(double, prog->n_all + 1);
  for (uint64_t t = 0; t < prog->n_all; t++) {
    const NsTransfer *tr = t < prog->n_real ? ns_schedule_transfer(s, t) : NULL;
    prog->bytes[t] = tr != NULL ? (double)ns_schedule_transfer_bytes_at(s, tr, msize) : (double)msize;
    if (tr != NULL && tr->combine && opt->reduce_rate > 0)
      prog->compute[t] = prog->bytes[t] / opt->reduce_rate;
  }
  prog->final_compute = g_new0(double, (gsize)prog->p + 1);
  raw_combine_costs(s, msize, opt->reduce_rate, prog->final_compute);

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

#define BLOB_MAGIC 0x6e7373696d763037ull /* "nssimv07": the final combine of raw contributions */

typedef struct {
  uint64_t magic;
  int32_t p, receiver_based, light, hardware_barrier;
  uint64_t n_real, n_all, n_steps, n_ops, n_barriers, n_sync, sync_size, names_len;
  uint64_t window, item_bytes;
  uint64_t iterations, eager_threshold;
  int32_t gap, pad;
  double compute_s;
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
  a[n++] = (BlobArray){ (void **)&prog->compute, sizeof(double), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->step_start, sizeof(uint32_t), (uint64_t)h->p + 1 };
  a[n++] = (BlobArray){ (void **)&prog->steps, sizeof(Step), h->n_steps };
  a[n++] = (BlobArray){ (void **)&prog->ops, sizeof(uint32_t), h->n_ops };
  a[n++] = (BlobArray){ (void **)&prog->barrier_phase, sizeof(uint32_t), h->n_barriers };
  a[n++] = (BlobArray){ (void **)&prog->needed, sizeof(uint32_t), h->n_all };
  a[n++] = (BlobArray){ (void **)&prog->sync_start, sizeof(uint32_t), h->n_all + 1 };
  a[n++] = (BlobArray){ (void **)&prog->sync_to, sizeof(uint32_t), h->n_sync };
  a[n++] = (BlobArray){ (void **)&prog->arrival, sizeof(double), (uint64_t)h->p };
  a[n++] = (BlobArray){ (void **)&prog->final_compute, sizeof(double), (uint64_t)h->p };
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
    .iterations = prog->iterations, .eager_threshold = prog->eager_threshold, .gap = (int32_t)prog->gap, .compute_s = prog->compute_s,
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
  prog->eager_threshold = h->eager_threshold;
  if (h->iterations > G_MAXUINT32 || h->gap < NS_ITERATION_NOTHING ||
      h->gap > NS_ITERATION_COMPUTE || !(h->compute_s >= 0)) {
    *why = "repetitions out of range in the program blob";
    ns_program_free(prog);
    return NULL;
  }
  prog->iterations = (uint32_t)MAX(h->iterations, 1);
  prog->gap = (NsIterationGap)h->gap;
  prog->compute_s = h->compute_s;
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
  g_free(prog->compute);
  g_free(prog->step_start);
  g_free(prog->steps);
  g_free(prog->ops);
  g_free(prog->barrier_phase);
  g_free(prog->needed);
  g_free(prog->sync_start);
  g_free(prog->sync_to);
  g_free(prog->arrival);
  g_free(prog->final_compute);
  g_free(prog);
}
