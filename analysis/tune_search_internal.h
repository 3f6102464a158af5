/* netsched — STAGE-MPI's drivers: the best candidate per message size and
 * the sizes where the best changes (Faraj's dissertation §4.1.1.4,
 * Figure 4.4 steps 3.1–3.2 and 4.1–4.2).
 *
 * For a set of fixed sizes every candidate is measured (the linear search
 * of §4.1.1.3: all of them); the best at each size is the argmin (ties go
 * to the lower candidate index, so the choice is reproducible). For each
 * pair of adjacent sizes a < b whose bests A and B differ, a binary search
 * on the integer sizes between them finds the crossing point: the first
 * size c in (a, b] where B measures faster than A, with A no slower than B
 * at c − 1. Only A and B are compared there — a third candidate best only
 * between two fixed sizes is not looked for, as in the dissertation. Above
 * the last size the last best is kept (the dissertation's "the same
 * algorithm >= 256 KB").
 *
 * The measurement is a callback, so the search is tested with synthetic
 * curves (tests/test_tune.c) and run on simulations by analysis/tune.c. */
#ifndef NETSCHED_TUNE_SEARCH_H
#define NETSCHED_TUNE_SEARCH_H

#include <glib.h>
#include <stdint.h>

/* The time of candidate `candidate` at `msize` bytes in *time_s; a
 * negative time: the candidate does not apply at that size (its planner
 * refused the topology, a segment larger than the message). FALSE with an
 * error stops the search (an output that cannot be written). */
typedef gboolean (*NsTuneTimeFunc)(guint candidate, uint64_t msize, double *time_s, void *user,
                                   GError **error);

/* Where a candidate takes over: sizes >= from_bytes (until the next
 * switch) use `candidate`. */
typedef struct {
  uint64_t from_bytes;
  guint candidate;
} NsTuneSwitch;

/*
 * ns_tune_search — the drivers above over `n_candidates` candidates and
 * the `n_sizes` increasing sizes. Appends to `switches` (NsTuneSwitch) the
 * first at 0 (the best at the first size that has one), then one at each
 * crossing point. best_at[k] (n_sizes entries, may be NULL) gets the best
 * at sizes[k], or G_MAXUINT where no candidate applies. FALSE with
 * NS_ERROR_UNSUPPORTED when no candidate applies at any size, or the
 * callback's error. Measurements: n_candidates · n_sizes + 2 · ⌈log2 gap⌉
 * per switch (the callback may cache).
 */
gboolean ns_tune_search(guint n_candidates, const uint64_t *sizes, guint n_sizes,
                        NsTuneTimeFunc measure, void *user, GArray *switches, guint *best_at,
                        GError **error);

/* The candidate of `switches` for `msize` (the last switch at or below
 * it). switches must be non-empty. O(switches). */
guint ns_tune_switch_lookup(const GArray *switches, uint64_t msize);

#endif
