/* netsched — internal: the verifier's one holder per message of an
 * all-to-all whose relays store and forward (NsSchedule.store_forward,
 * docs/verify.md, "Store-and-forward relays"). Not part of the public API:
 * included by the verifier only.
 *
 * Why: a relay that keeps every copy it ever received needs one entry per
 * (message, relay) — the relay set (relay_set_internal.h), 138 M entries
 * for Liu Gang et al.'s AT2 on a 64 × 64 torus and most of its verification
 * time. When the schedule declares that a relay's copy is consumed when it
 * is forwarded, each message has one holder at a time: one 8-byte word per
 * message, indexed by the chunk itself (origin · p + destination).
 *
 * A word: bits 0–31 the holder machine + 1 (0: the message still at its
 * origin, never moved, so that a zeroed table is the initial state and
 * its pages cost nothing until touched); bits 32–62 the links the held
 * copy travelled (saturated at 2^31 − 1, more than any shortest path of a
 * topology netsched reads: those have at most a few million nodes); bit 63
 * set between the holder's forwarding of the message in a phase and its
 * receipt in the same phase (a second forwarding in the phase finds it
 * set: the holder no longer has it).
 */
#ifndef NETSCHED_MESSAGE_HOLDER_H
#define NETSCHED_MESSAGE_HOLDER_H

#include <glib.h>
#include <stdint.h>

#define NS_HOLDER_FORWARDED (UINT64_C(1) << 63)
#define NS_HOLDER_MAX_HOPS UINT32_C(0x7fffffff)

/* The holder machine of message c (origin `o`) in word w, or -1 while it
 * is being forwarded in the current phase. O(1). */
static inline int64_t ns_holder_machine(uint64_t w, int o)
{
  if (w & NS_HOLDER_FORWARDED)
    return -1;
  uint32_t m1 = (uint32_t)w;
  return m1 == 0 ? (int64_t)o : (int64_t)m1 - 1;
}

/* The links the held copy travelled. O(1). */
static inline uint32_t ns_holder_hops(uint64_t w)
{
  return (uint32_t)(w >> 32) & NS_HOLDER_MAX_HOPS;
}

/* The word of machine m holding a copy that travelled `hops` links. O(1). */
static inline uint64_t ns_holder_word(int m, uint32_t hops)
{
  return (uint64_t)((uint32_t)m + 1) | (uint64_t)MIN(hops, NS_HOLDER_MAX_HOPS) << 32;
}

/* A zeroed table of n words (every message at its origin), in pages the
 * kernel fills on first touch and, where it can, in 2 MiB pages: the
 * table of a large all-to-all (2 GiB on 16,384 machines) is read at
 * random, and small pages would cost a TLB miss a lookup. Free with
 * ns_holders_free(table, n). */
uint64_t *ns_holders_new(uint64_t n);
void ns_holders_free(uint64_t *table, uint64_t n);

#endif
