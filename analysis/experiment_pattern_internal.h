/* netsched — the size-pattern axis of an experiment (compare, design,
 * sweep, scenarios): which pattern of alltoallv or allgatherv a row plans
 * with, and the digest that keys the row to that pattern's content.
 *
 * A study runs at message sizes; a size pattern (sched/ir/pattern.h) has
 * its own. The axis says how they combine (docs/pattern-format.md,
 * "Patterns in experiments"):
 *   scaled   a generator without its size, which takes the row's message
 *            size as its average count:
 *              uniform            uniform:MSIZE
 *              random:SKEW,SEED   random:MSIZE,SKEW,SEED
 *              nas-is:SEED        nas-is:KEYS,SEED with KEYS = MSIZE·p/4
 *                                 (alltoallv: every pair's average count,
 *                                 the diagonal included, is MSIZE) or
 *                                 MSIZE/4 (allgatherv: the average block),
 *                                 at least 1;
 *   fixed    a whole generator spec (uniform:SIZE, random:AVG,SKEW,SEED,
 *            nas-is:KEYS,SEED) or a pattern file: used as is, so the
 *            study must have exactly one message size (the rows' msize
 *            column then only names the run); more is refused.
 * Rows are keyed by the SHA-256 of the pattern's counts (ns_pattern_axis_digest),
 * so a resumed row of another pattern — a changed file, another seed — is
 * refused as a row of another configuration, never kept as a number.
 */
#ifndef NETSCHED_EXPERIMENT_PATTERN_H
#define NETSCHED_EXPERIMENT_PATTERN_H

#include "sched/ir/pattern.h"
#include <glib.h>

/* Does `text` scale with the message size (a generator without its size)? */
gboolean ns_pattern_axis_scaled(const char *text);

/* Checks a study's pattern axis before the first run: collective c takes
 * a pattern iff it is alltoallv or allgatherv (one is required then), and
 * a fixed pattern goes with exactly one of `sizes` (uint64_t). `option`
 * names the setting in messages ("--pattern", "pattern"). FALSE with
 * NS_ERROR_INPUT "OPTION: what is wrong". O(1). */
gboolean ns_pattern_axis_check(const char *text, NsCollective c, const GArray *sizes,
                               const char *option, GError **error);

/* The --pattern argument that makes the pattern of a row (collective c, p
 * machines, message size msize): a scaled generator's whole spec
 * ("random:65536B,0.5,7"), else `text`. Newly allocated. O(|text|). */
char *ns_pattern_axis_spec(const char *text, NsCollective c, int p, uint64_t msize);

/* The pattern of a row: `text` for collective c on p machines at message
 * size msize (a scaled generator's average; ignored by a fixed pattern).
 * NULL with the generator's or the reader's error (a scaled generator's
 * message names `option`, `text` and the size). O(that of the generator
 * or the reader). */
NsSizePattern *ns_pattern_axis_at(const char *text, const char *option, NsCollective c, int p,
                                  uint64_t msize, GError **error);

/* A digest of a pattern's content (collective, p and every count): 64
 * hex digits of SHA-256. Newly allocated. O(n_sizes). */
char *ns_pattern_axis_digest(const NsSizePattern *pat);

#endif
