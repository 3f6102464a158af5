/* netsched — internal: the verifier's delivery record, one bit per
 * (chunk, machine) pair that can be delivered: set once it was. One bit
 * where a byte counter was (a second delivery only needs "already
 * there"): 32 MiB instead of 256 MiB for an all-to-all on 16,384
 * machines. Not part of the public API: included by the verifier and its
 * tests only. */
#ifndef NETSCHED_CHUNK_BITS_H
#define NETSCHED_CHUNK_BITS_H

#include <glib.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  uint64_t *words;
  uint64_t n_bits;           /* bits allocated, all clear until set */
} NsChunkBits;

/* Words that hold n bits. */
static inline uint64_t ns_chunk_bits_words(uint64_t n) { return (n + 63) / 64; }

/* Room for n bits, all clear (n = 0 allowed). O(n / 64). */
static inline void ns_chunk_bits_init(NsChunkBits *b, uint64_t n)
{
  b->words = g_new0(uint64_t, MAX(ns_chunk_bits_words(n), 1));
  b->n_bits = n;
}

/* Room for n bits (n >= the bits allocated); the new ones clear. */
static inline void ns_chunk_bits_grow(NsChunkBits *b, uint64_t n)
{
  uint64_t old = ns_chunk_bits_words(b->n_bits), want = ns_chunk_bits_words(n);
  if (want > old) {
    b->words = g_renew(uint64_t, b->words, want);
    memset(b->words + old, 0, sizeof(uint64_t) * (gsize)(want - old));
  }
  b->n_bits = MAX(b->n_bits, n);
}

static inline void ns_chunk_bits_clear(NsChunkBits *b)
{
  g_free(b->words);
  b->words = NULL;
  b->n_bits = 0;
}

/* Is bit i set? (i < n_bits) */
static inline gboolean ns_chunk_bits_test(const NsChunkBits *b, uint64_t i)
{
  return (b->words[i >> 6] >> (i & 63)) & 1;
}

/* Sets bit i (i < n_bits); TRUE when it was clear (a first delivery). */
static inline gboolean ns_chunk_bits_set(NsChunkBits *b, uint64_t i)
{
  uint64_t *w = &b->words[i >> 6], m = (uint64_t)1 << (i & 63);
  gboolean first = (*w & m) == 0;
  *w |= m;
  return first;
}

/* The first clear bit in [from, to), or `to` (to <= n_bits): skips 64
 * set bits a step, so a complete record is scanned in O(n / 64). */
static inline uint64_t ns_chunk_bits_next_clear(const NsChunkBits *b, uint64_t from, uint64_t to)
{
  while (from < to) {
    uint64_t clear = ~b->words[from >> 6] >> (from & 63); /* clear bits from `from` on */
    if (clear != 0) {
      uint64_t at = from + (uint64_t)__builtin_ctzll(clear);
      return MIN(at, to);
    }
    from = (from | 63) + 1; /* the next word */
  }
  return to;
}

/* Asks the processor for the word of bit i ahead of a test or a set. */
static inline void ns_chunk_bits_prefetch(const NsChunkBits *b, uint64_t i)
{
#if defined(__GNUC__)
  __builtin_prefetch(&b->words[i >> 6], 1, 0);
#else
  (void)b;
  (void)i;
#endif
}

#endif
