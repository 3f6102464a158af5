/* netsched — size patterns of the v-collectives (alltoallv, allgatherv).
 *
 * MPI_Alltoallv and MPI_Allgatherv move a different number of bytes per
 * pair (per machine); STAGE-MPI asks for a *pattern description* beside
 * the topology when it tunes them (Faraj's dissertation §4.1.1, §4.1.1.1
 * "Algorithms for MPI_Alltoallv / MPI_Allgatherv"). A size pattern is that
 * description: the number of machines p and
 *   alltoallv   p×p byte counts, bytes[src·p + dst] (the diagonal is each
 *               machine's local copy: kept, never moved);
 *   allgatherv  p byte counts, bytes[origin] (each machine's block).
 * A count may be 0 (MPI moves nothing for it). Patterns come from a text
 * file (docs/pattern-format.md) or a generator spec: uniform:SIZE,
 * random:AVG,SKEW,SEED, nas-is:KEYS,SEED.
 */
#ifndef NETSCHED_PATTERN_H
#define NETSCHED_PATTERN_H

#include "sched/ir/schedule.h"
#include <glib.h>
#include <stdint.h>

/* Most machines of an alltoallv pattern: p² counts of 8 bytes, 128 MiB at
 * 4096 (docs/security.md, "Limits"). An allgatherv pattern takes up to
 * NS_MAX_PAIRWISE_MACHINES. */
#define NS_PATTERN_MAX_A2A_MACHINES 4096
/* The largest pattern file read (bytes). */
#define NS_PATTERN_MAX_FILE_BYTES ((gsize)256 * 1024 * 1024)
/* The largest total of a pattern: 2^50 bytes (1 PiB), so totals and
 * per-link sums stay exact in 64 bits and in double. */
#define NS_PATTERN_MAX_TOTAL ((uint64_t)1 << 50)
/* The most keys a nas-is pattern draws in all (p·KEYS): bounds its time. */
#define NS_PATTERN_MAX_KEYS ((uint64_t)1 << 28)

typedef struct {
  NsCollective collective; /* NS_COLL_ALLTOALLV or NS_COLL_ALLGATHERV */
  int p;                   /* machines */
  uint64_t *bytes;         /* p·p (alltoallv, row = sender) or p counts */
} NsSizePattern;

NsSizePattern *ns_size_pattern_new(NsCollective collective, int p, GError **error);
void ns_size_pattern_free(NsSizePattern *pat);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsSizePattern, ns_size_pattern_free)

/**
 * \function ns_size_pattern_n_sizes
 * \brief Number of byte counts of a pattern.
 *
 * \param pat The pattern.
 * \return p² for alltoallv, p for allgatherv.
 * \errors none.
 * \complexity O(1).
 * \source docs/pattern-format.md.
 */
static inline uint64_t ns_size_pattern_n_sizes(const NsSizePattern *pat)
{
  return pat->collective == NS_COLL_ALLTOALLV ? (uint64_t)pat->p * (uint64_t)pat->p
                                              : (uint64_t)pat->p;
}

uint64_t ns_size_pattern_total(const NsSizePattern *pat);
uint64_t ns_size_pattern_max(const NsSizePattern *pat);

NsSizePattern *ns_size_pattern_parse(const char *text, gsize len, const char *source,
                                     GError **error);
NsSizePattern *ns_size_pattern_read(const char *path, GError **error);
NsSizePattern *ns_size_pattern_generate(const char *spec, NsCollective collective, int p,
                                        GError **error);
gboolean ns_size_pattern_is_spec(const char *text);
NsSizePattern *ns_size_pattern_load(const char *spec_or_path, NsCollective collective, int p,
                                    GError **error);
char *ns_size_pattern_to_text(const NsSizePattern *pat);
gboolean ns_size_pattern_apply(const NsSizePattern *pat, NsSchedule *s, GError **error);

#endif
