/* netsched — the pieces the allreduce planners share (see
 * allreduce_common_internal.h). */
#include "platforms/model/error.h"
#include "sched/planners/allreduce/allreduce_common_internal.h"

NsSchedule *ns_allreduce_new(const NsTopology *topo, const char *algorithm, uint64_t n,
                             uint32_t blocks, NsBlockSplit split, GError **error)
{
  if (n < blocks) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "allreduce/%s cuts the vector into %u blocks and needs at least %u bytes "
                    "(got %" G_GUINT64_FORMAT ")",
                    algorithm, blocks, blocks, n);
    return NULL;
  }
  uint64_t base = n / blocks, rest = n % blocks;
  NsSchedule *s = ns_schedule_for_topology(topo, NS_COLL_ALLREDUCE, algorithm, base);
  s->n_segments = blocks;
  if (rest == 0)
    return s;
  uint64_t *sizes = g_new(uint64_t, blocks);
  for (uint32_t b = 0; b < blocks; b++)
    sizes[b] = split == NS_BLOCKS_SPREAD ? base + (b < rest) : base + (b + 1 == blocks) * rest;
  gboolean ok = ns_schedule_set_chunk_bytes(s, sizes, blocks, error);
  g_free(sizes);
  g_assert(ok); /* blocks = n_segments: the count it takes */
  return s;
}

void ns_allreduce_add_range(NsSchedule *s, int src, int dst, gboolean combine, uint32_t lo,
                            uint32_t hi, uint32_t *buf)
{
  if (lo >= hi)
    return;
  for (uint32_t c = lo; c < hi; c++)
    buf[c - lo] = c;
  if (combine)
    ns_schedule_add_combine(s, src, dst, hi - lo, buf);
  else
    ns_schedule_add_chunks(s, src, dst, hi - lo, buf);
}

void ns_allreduce_fold(NsSchedule *s, int r)
{
  if (r == 0)
    return;
  uint32_t *buf = g_new(uint32_t, s->n_segments);
  ns_schedule_begin_phase(s);
  for (int j = 0; j < r; j++)
    ns_allreduce_add_range(s, 2 * j, 2 * j + 1, TRUE, 0, s->n_segments, buf);
  g_free(buf);
}

void ns_allreduce_unfold(NsSchedule *s, int r, uint32_t segs)
{
  if (r == 0)
    return;
  uint32_t *buf = g_new(uint32_t, segs);
  ns_schedule_begin_phase(s);
  for (int j = 0; j < r; j++)
    ns_allreduce_add_range(s, 2 * j + 1, 2 * j, FALSE, 0, segs, buf);
  g_free(buf);
}

/* The distance of step i of the halving. */
static int distance(const NsHalving *h, int i, int steps)
{
  return h->largest_first ? 1 << (steps - 1 - i) : 1 << i;
}

static int steps_of(int q)
{
  int steps = 0;
  while ((1 << steps) < q)
    steps++;
  return steps;
}

/* Partners k and k^d hold the same slot range before a step (the range
 * depends only on the bits of k already used); the lower keeps the lower
 * half. */
void ns_allreduce_halving(NsSchedule *s, const NsHalving *h)
{
  int q = h->q, steps = steps_of(q);
  int *lo = g_new(int, q), *hi = g_new(int, q);
  uint32_t *buf = g_new(uint32_t, s->n_segments);
  for (int k = 0; k < q; k++) {
    lo[k] = 0;
    hi[k] = q;
  }
  for (int i = 0; i < steps; i++) {
    int d = distance(h, i, steps);
    ns_schedule_begin_phase(s);
    for (int k = 0; k < q; k++) {
      int mid = (lo[k] + hi[k]) / 2, partner = k ^ d;
      gboolean lower = k < partner;
      int send_lo = lower ? mid : lo[k], send_hi = lower ? hi[k] : mid;
      ns_allreduce_add_range(s, h->machine[k], h->machine[partner], TRUE, h->slot[send_lo],
                             h->slot[send_hi], buf);
    }
    for (int k = 0; k < q; k++) {
      int mid = (lo[k] + hi[k]) / 2;
      if (k < (k ^ d))
        hi[k] = mid;
      else
        lo[k] = mid;
    }
  }
  g_free(buf);
  g_free(lo);
  g_free(hi);
}

/* The halving backwards: before the step of distance d participant k
 * holds the slot range its halving kept at that step, and sends it whole
 * to its partner, whose range is the other half. */
void ns_allreduce_doubling(NsSchedule *s, const NsHalving *h)
{
  int q = h->q, steps = steps_of(q);
  int *lo = g_new(int, q), *hi = g_new(int, q);
  uint32_t *buf = g_new(uint32_t, s->n_segments);
  for (int k = 0; k < q; k++) { /* where the halving left it: one slot */
    lo[k] = 0;
    hi[k] = q;
    for (int i = 0; i < steps; i++) {
      int mid = (lo[k] + hi[k]) / 2;
      if (k < (k ^ distance(h, i, steps)))
        hi[k] = mid;
      else
        lo[k] = mid;
    }
  }
  for (int i = steps - 1; i >= 0; i--) {
    int d = distance(h, i, steps);
    ns_schedule_begin_phase(s);
    for (int k = 0; k < q; k++)
      ns_allreduce_add_range(s, h->machine[k], h->machine[k ^ d], FALSE, h->slot[lo[k]],
                             h->slot[hi[k]], buf);
    for (int k = 0; k < q; k++) {
      int width = hi[k] - lo[k];
      if (k < (k ^ d))
        hi[k] += width;
      else
        lo[k] -= width;
    }
  }
  g_free(buf);
  g_free(lo);
  g_free(hi);
}

/* Copies route r of `from` onto transfer t of s, its nodes reversed when
 * the transfer was turned round. */
static void copy_route(NsSchedule *s, uint32_t t, const NsSchedule *from, uint64_t ft,
                       gboolean reversed)
{
  const char *const *nodes = NULL;
  int n = ns_schedule_route_of(from, ft, &nodes);
  if (n == 0)
    return;
  const char **names = g_new(const char *, n);
  for (int i = 0; i < n; i++)
    names[i] = nodes[reversed ? n - 1 - i : i];
  ns_schedule_set_route(s, t, n, names);
  g_free(names);
}

gboolean ns_allreduce_append_allgather(NsSchedule *s, const NsTopology *topo, const char *allgather,
                                       const uint32_t *segment_of, gboolean reversed,
                                       GError **error)
{
  NsPlanParams pp = { .msize = s->msize, .root = 0 }; /* the largest block */
  g_autoptr(NsSchedule) ag = ns_plan(topo, NS_COLL_ALLGATHER, allgather, &pp, error);
  if (ag == NULL)
    return FALSE;
  uint32_t *buf = g_new(uint32_t, (gsize)s->n_machines);
  uint32_t n_phases = ns_schedule_n_phases(ag);
  for (uint32_t i = 0; i < n_phases; i++) {
    uint32_t ph = reversed ? n_phases - 1 - i : i;
    uint64_t first, count;
    ns_schedule_phase_range(ag, ph, &first, &count);
    ns_schedule_begin_phase(s);
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(ag, t);
      const uint32_t *chunks = ns_schedule_chunks(ag, tr);
      for (uint32_t k = 0; k < tr->n_chunks; k++)
        buf[k] = segment_of[chunks[k]];
      uint32_t added = reversed ? ns_schedule_add_combine(s, tr->dst, tr->src, tr->n_chunks, buf)
                                : ns_schedule_add_chunks(s, tr->src, tr->dst, tr->n_chunks, buf);
      copy_route(s, added, ag, t, reversed);
    }
  }
  g_free(buf);
  return TRUE;
}

gboolean ns_allreduce_append_alltoall(NsSchedule *s, const NsTopology *topo, const char *alltoall,
                                      GError **error)
{
  NsPlanParams pp = { .msize = s->msize, .root = 0 }; /* the largest block */
  g_autoptr(NsSchedule) a2a = ns_plan(topo, NS_COLL_ALLTOALL, alltoall, &pp, error);
  if (a2a == NULL)
    return FALSE;
  int p = s->n_machines;
  for (uint32_t ph = 0; ph < ns_schedule_n_phases(a2a); ph++) {
    uint64_t first, count;
    ns_schedule_phase_range(a2a, ph, &first, &count);
    ns_schedule_begin_phase(s);
    for (uint64_t t = first; t < first + count; t++) {
      const NsTransfer *tr = ns_schedule_transfer(a2a, t);
      if (tr->n_chunks != 1 || tr->chunk != ns_a2a_chunk(p, tr->src, tr->dst)) {
        ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                        "allreduce/%s needs a direct all-to-all (each message from its origin "
                        "to its destination), and alltoall/%s relays messages",
                        s->algorithm, alltoall);
        return FALSE;
      }
      uint32_t seg = (uint32_t)tr->dst;
      uint32_t added = ns_schedule_add_combine(s, tr->src, tr->dst, 1, &seg);
      copy_route(s, added, a2a, t, FALSE);
    }
  }
  return TRUE;
}
