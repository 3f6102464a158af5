/* netsched — internal: the verifier's record of partial results for the
 * reductions (reduce, allreduce; sched/ir/schedule.h, "Reductions").
 *
 * For every (machine, segment) the set of origins whose contributions the
 * machine's partial result combines, one bit per origin: p · segments ·
 * ⌈p / 64⌉ words, bounded by NS_REDUCTION_MAX_BYTES (1024 machines and
 * 1024 segments — Rabenseifner's and the ring's blocks — take 128 MiB).
 * A phase is two passes, as the data flow of the other collectives: every
 * sender's set is staged first (receipts become visible only after the
 * whole phase), then each receipt combines (the sets must be disjoint:
 * else a contribution would be counted twice) or copies.
 *
 * Raw contributions (schedule.h, "Raw contributions"): which raw chunks
 * (origin o's untouched contribution to segment c, id o·S + c) each
 * machine holds, one bit per machine and raw chunk: p² · S bits, about
 * what the origin sets take, allocated at the first raw transfer only (a
 * schedule without them pays nothing). A raw receipt sets a bit and
 * leaves the partial results alone; the final check counts the raw chunks
 * of origins other than the machine itself towards its segments. Not
 * part of the public API: included by the verifier and its tests only. */
#ifndef NETSCHED_REDUCTION_STATE_H
#define NETSCHED_REDUCTION_STATE_H

#include <glib.h>
#include <stdint.h>

/* The most memory the origin sets may take (docs/security.md, "Limits"). */
#define NS_REDUCTION_MAX_BYTES ((uint64_t)2 << 30)

typedef struct {
  int p;
  uint32_t n_segments;
  uint64_t words;            /* per set: ⌈p / 64⌉ */
  uint64_t *sets;            /* (machine · n_segments + segment) · words */
  GArray *staged;            /* uint64: the senders' sets staged this phase, back to back */
  uint64_t raw_words;        /* per machine: ⌈p · S / 64⌉ */
  uint64_t *raw;             /* machine · raw_words: the raw chunks it holds; NULL until the
                                first raw transfer */
} NsReductionState;

/* Every machine holding only its own contribution to every segment. FALSE
 * with NS_ERROR_UNSUPPORTED naming the need and the limit when the sets
 * would take more than NS_REDUCTION_MAX_BYTES. O(p · segments · p / 64). */
gboolean ns_reduction_state_init(NsReductionState *rs, int p, uint32_t n_segments,
                                 GError **error);
void ns_reduction_state_clear(NsReductionState *rs);

/* Starts a phase: forgets the staged sets. O(1). */
void ns_reduction_stage_begin(NsReductionState *rs);
/* Stages machine m's set of segment c (its state before the phase);
 * returns the stage's index for ns_reduction_apply. O(p / 64). */
uint64_t ns_reduction_stage(NsReductionState *rs, int m, uint32_t c);
/* Receipt of staged set `k` at machine m for segment c: combined with m's
 * set (`combine`) or copied over it. Returns the first origin counted
 * twice (in both sets of a combine: m's set then holds their union all the
 * same), else -1. O(p / 64). */
int ns_reduction_apply(NsReductionState *rs, uint64_t k, int m, uint32_t c, gboolean combine);
/* Does machine m hold raw chunk `raw` (o·S + c; its own from the start)?
 * O(1). */
gboolean ns_reduction_raw_held(const NsReductionState *rs, int m, uint32_t raw);
/* Machine m receives raw chunk `raw`: FALSE when it held it already (a
 * redundant delivery; it holds it all the same). The first call allocates
 * the record, O(p² · S / 64); then O(1). */
gboolean ns_reduction_raw_give(NsReductionState *rs, int m, uint32_t raw);
/* The origins machine m's segment c lacks once it has combined the raw
 * chunks of other origins it holds: their number, and the first of them
 * in *first (-1 when none). O(p / 64), O(p) with raw chunks. */
uint64_t ns_reduction_missing(const NsReductionState *rs, int m, uint32_t c, int *first);

#endif
