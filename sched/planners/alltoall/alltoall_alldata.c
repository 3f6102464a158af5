/* netsched — all-to-all as an all-gather of all data: the block
 * book-keeping shared by alltoall/2dmesh, 3dmesh and rdb. See
 * alltoall_alldata_internal.h (dissertation §4.1.1.1). */
#include "sched/planners/alltoall/alltoall_alldata_internal.h"
#include "platforms/model/error.h"

struct NsAllData {
  int p;
  GArray **held;   /* held[m]: int origins of the blocks m holds, own first */
  int *frozen;     /* frozen[m]: the first frozen[m] of held[m] may be sent */
  GArray *chunks;  /* scratch: the chunks of one transfer */
};

NsAllData *ns_alldata_new(int p)
{
  NsAllData *st = g_new0(NsAllData, 1);
  st->p = p;
  st->held = g_new(GArray *, MAX(p, 1));
  st->frozen = g_new0(int, MAX(p, 1));
  for (int m = 0; m < p; m++) {
    st->held[m] = g_array_new(FALSE, FALSE, sizeof(int));
    g_array_append_val(st->held[m], m);
  }
  st->chunks = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  ns_alldata_freeze(st);
  return st;
}

void ns_alldata_free(NsAllData *st)
{
  if (st == NULL)
    return;
  for (int m = 0; m < st->p; m++)
    g_array_unref(st->held[m]);
  g_free(st->held);
  g_free(st->frozen);
  g_array_unref(st->chunks);
  g_free(st);
}

void ns_alldata_freeze(NsAllData *st)
{
  for (int m = 0; m < st->p; m++)
    st->frozen[m] = (int)st->held[m]->len;
}

int ns_alldata_send(NsAllData *st, NsSchedule *s, int src, int dst)
{
  int p = st->p, sent = 0;
  g_array_set_size(st->chunks, 0);
  for (int b = 0; b < st->frozen[src]; b++) {
    int o = g_array_index(st->held[src], int, b);
    if (o == dst)
      continue;
    for (int d = 0; d < p; d++)
      if (d != o) {
        uint32_t c = ns_a2a_chunk(p, o, d);
        g_array_append_val(st->chunks, c);
      }
    /* Received blocks go after dst's frozen prefix, so they are not
     * forwarded before the next ns_alldata_freeze(). */
    g_array_append_val(st->held[dst], o);
    sent++;
  }
  if (st->chunks->len > 0)
    ns_schedule_add_chunks(s, src, dst, st->chunks->len,
                           (const uint32_t *)(const void *)st->chunks->data);
  return sent;
}

uint32_t ns_alldata_mesh(NsAllData *st, NsSchedule *s, int n_dims, const int *dims)
{
  int P = 1;
  for (int e = 0; e < n_dims; e++)
    P *= dims[e];
  g_return_val_if_fail(P <= st->p, 0);
  uint32_t phases = 0;
  int stride = 1;
  for (int e = 0; e < n_dims; e++) {
    int k = dims[e];
    ns_alldata_freeze(st);
    for (int j = 1; j < k; j++) {
      ns_schedule_begin_phase(s);
      phases++;
      for (int i = 0; i < P; i++) {
        int c = (i / stride) % k;
        ns_alldata_send(st, s, i, i + ((c + j) % k - c) * stride);
      }
    }
    stride *= k;
  }
  return phases;
}

gboolean ns_alldata_check_size(int p, const char *algorithm, GError **error)
{
  uint64_t moves = (uint64_t)p * (uint64_t)(p - 1) * (uint64_t)(p - 1);
  if (p > 1 && moves >= G_MAXUINT32) {
    g_set_error(error, NS_ERROR, NS_ERROR_UNSUPPORTED,
                "alltoall/%s gathers all data at every machine: %d machines would move "
                "%" G_GUINT64_FORMAT " chunks, more than a schedule can hold (%u); use "
                "bruck, ring or pair for this many machines",
                algorithm, p, moves, G_MAXUINT32 - 1);
    return FALSE;
  }
  return TRUE;
}
