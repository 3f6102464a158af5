/* netsched — a digest of a schedule's contents (see schedule_digest.h). */
#include "sched/lower/schedule_digest_internal.h"
#include <string.h>

static void put_u64(GChecksum *c, uint64_t v)
{
  guchar b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (guchar)(v >> (8 * i));
  g_checksum_update(c, b, sizeof b);
}

static void put_string(GChecksum *c, const char *s)
{
  put_u64(c, strlen(s));
  g_checksum_update(c, (const guchar *)s, (gssize)strlen(s));
}

char *ns_schedule_digest(const NsSchedule *s)
{
  GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
  put_string(c, ns_collective_name(s->collective));
  put_string(c, s->algorithm);
  put_u64(c, (uint64_t)s->n_machines);
  for (int m = 0; m < s->n_machines; m++)
    put_string(c, s->machines[m]);
  put_u64(c, (uint64_t)(int64_t)s->root);
  put_u64(c, s->n_segments);
  put_u64(c, s->execution);
  /* Per-chunk sizes and the reductions' transfer kinds enter only where a
   * schedule has them, so the digests of every other schedule (kept in
   * routine tables already written) stay what they were. */
  if (s->chunk_bytes != NULL) {
    put_string(c, "chunk_bytes");
    put_u64(c, s->chunk_bytes->len);
    for (guint k = 0; k < s->chunk_bytes->len; k++)
      put_u64(c, g_array_index(s->chunk_bytes, uint64_t, k));
  }
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(s); ph++) {
    uint64_t first, n;
    ns_schedule_phase_range(s, ph, &first, &n);
    put_u64(c, n);
    for (uint64_t t = first; t < first + n; t++) {
      const NsTransfer *tr = ns_schedule_transfer(s, t);
      const uint32_t *chunks = ns_schedule_chunks(s, tr);
      put_u64(c, (uint64_t)tr->src);
      put_u64(c, (uint64_t)tr->dst);
      /* Bit 32 and up: combine (1) and raw (2); 0 for a plain copy. */
      put_u64(c, tr->n_chunks | (uint64_t)(tr->combine | tr->raw << 1) << 32);
      for (uint32_t k = 0; k < tr->n_chunks; k++)
        put_u64(c, chunks[k]);
    }
  }
  char *hex = g_strdup(g_checksum_get_string(c));
  g_checksum_free(c);
  return hex;
}
