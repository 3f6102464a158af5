/* netsched — the verifier's relay holdings: an open-addressing hash set of
 * 8-byte slots. See relay_set_internal.h.
 *
 * Why not GHashTable: an indirect all-to-all (Bruck, Liu Gang et al.'s
 * torus and ring exchanges) relays every message through many machines,
 * and each receipt is a lookup and an insertion — 138 M entries for AT2 on
 * a 64 × 64 torus. A GHashTable keeps a hash, a key and a value array and
 * calls its hash and equality functions through pointers: three cache
 * misses and two calls an operation. Here a slot packs the message (32
 * bits), the machine (16) and the hops (16) into one 64-bit word, probed
 * linearly: one cache miss, no call, 8 bytes a slot at a load of at most
 * 0.7. */
#include "sched/verify/relay_set_internal.h"
#include <string.h>

/* A free slot. Never a key: its message c = 2^32 − 1 is (65535 → 65535)
 * of 65,536 machines, held by its origin 65535, never by a relay. */
#define EMPTY UINT64_MAX

struct NsRelaySet {
  uint64_t *slot;
  uint64_t mask;             /* slots − 1 (a power of two) */
  uint64_t used;
};

static inline uint64_t key_of(uint32_t c, uint32_t m)
{
  return (uint64_t)c << 32 | (uint64_t)(m & 0xffffu) << 16;
}

/* splitmix64's finaliser: every key bit reaches the low bits probed. */
static inline uint64_t mix(uint64_t k)
{
  k ^= k >> 30;
  k *= 0xbf58476d1ce4e5b9ULL;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebULL;
  return k ^ (k >> 31);
}

NsRelaySet *ns_relay_set_new(void)
{
  NsRelaySet *set = g_new0(NsRelaySet, 1);
  set->mask = 1023;
  set->slot = g_new(uint64_t, set->mask + 1);
  memset(set->slot, 0xff, sizeof(uint64_t) * (set->mask + 1));
  return set;
}

void ns_relay_set_free(NsRelaySet *set)
{
  if (set == NULL)
    return;
  g_free(set->slot);
  g_free(set);
}

/* The slot holding `key` (its low 16 bits clear), or the free one where it
 * would go. */
static inline uint64_t *probe(const NsRelaySet *set, uint64_t key)
{
  for (uint64_t i = mix(key >> 16) & set->mask;; i = (i + 1) & set->mask) {
    uint64_t *s = &set->slot[i];
    if (*s == EMPTY || (*s & ~(uint64_t)0xffff) == key)
      return s;
  }
}

static void grow(NsRelaySet *set)
{
  uint64_t *old = set->slot, n = set->mask + 1;
  set->mask = 2 * n - 1;
  set->slot = g_new(uint64_t, 2 * n);
  memset(set->slot, 0xff, sizeof(uint64_t) * 2 * n);
  for (uint64_t i = 0; i < n; i++)
    if (old[i] != EMPTY)
      *probe(set, old[i] & ~(uint64_t)0xffff) = old[i];
  g_free(old);
}

gboolean ns_relay_set_add(NsRelaySet *set, uint32_t c, uint32_t m, uint32_t hops)
{
  /* the one key that would read as a free slot; no relay holds it */
  g_return_val_if_fail(c != G_MAXUINT32 || m != 0xffffu, FALSE);
  uint64_t key = key_of(c, m), *s = probe(set, key);
  if (*s != EMPTY)
    return FALSE;
  *s = key | MIN(hops, 0xffffu);
  if (++set->used * 10 > (set->mask + 1) * 7)
    grow(set);
  return TRUE;
}

gboolean ns_relay_set_find(const NsRelaySet *set, uint32_t c, uint32_t m, uint32_t *hops)
{
  const uint64_t *s = probe(set, key_of(c, m));
  if (*s == EMPTY)
    return FALSE;
  if (hops != NULL)
    *hops = (uint32_t)(*s & 0xffff);
  return TRUE;
}

void ns_relay_set_prefetch(const NsRelaySet *set, uint32_t c, uint32_t m)
{
#if defined(__GNUC__)
  __builtin_prefetch(&set->slot[mix(key_of(c, m) >> 16) & set->mask], 0, 0);
#endif
}

uint64_t ns_relay_set_size(const NsRelaySet *set)
{
  return set->used;
}
