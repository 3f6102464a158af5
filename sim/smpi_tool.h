/* netsched — running SMPI's tools (smpicc, smpirun) in a private
 * directory: shared by the SMPI baselines (smpi_baseline.c) and the
 * generated routines measured under smpirun (smpi_routine.c). */
#ifndef NETSCHED_SIM_SMPI_TOOL_H
#define NETSCHED_SIM_SMPI_TOOL_H

#include "sim/sim.h"
#include <glib.h>
#include <stdint.h>

/* Runs argv (no shell) in `dir` between ns_signals_catch() and
 * ns_signals_release() (sim/child.h), its stdout in `out`. NS_ERROR_IO
 * quoting the child's last message when it cannot start (naming Debian's
 * libsimgrid-dev), fails, exceeds `wall_limit` seconds (0: none) or is
 * stopped. */
gboolean ns_smpi_run_tool(const char *const *argv, const char *dir, double wall_limit,
                          GString *out, GError **error);

/* From lines "rank R start S end E" of every rank 0 .. p-1 in `out`: the
 * last end minus the first start (simulated seconds). NS_ERROR_IO when a
 * rank did not report. */
gboolean ns_smpi_parse_times(const char *out, int p, double *completion, GError **error);

/* The smallest threshold of SMPI's automatic shared malloc netsched passes
 * to its timing runs (1 MiB; see ns_smpi_timing_args). */
#define NS_SMPI_SHARED_MALLOC_THRESH_MIN ((uint64_t)1 << 20)

/* The threshold of SMPI's automatic shared malloc for a timing run whose
 * program holds `control_bytes` of data it reads (a routine's table, 0 for
 * none) and, besides, reads from allocations of up to `read_bytes` (a
 * routine's block of sync messages, 0 for none):
 * NS_SMPI_SHARED_MALLOC_THRESH_MIN, the power of two at or above 32 x
 * control_bytes, or the power of two above read_bytes, whichever is
 * largest (see smpi_tool.c for why). */
uint64_t ns_smpi_shared_malloc_thresh(uint64_t control_bytes, uint64_t read_bytes);

/* The size of SMPI's shared block (smpi/shared-malloc-blocksize) for a run
 * moving blocks of `block_bytes`: the power of two at or above 16 x
 * block_bytes, at least 1 MiB (SimGrid's default), at most 1 GiB. */
uint64_t ns_smpi_shared_malloc_blocksize(uint64_t block_bytes);

/* Appends to the argv of an smpirun run made for TIMING only (the program
 * reads none of the data it moves) --cfg=smpi/auto-shared-malloc-thresh at
 * ns_smpi_shared_malloc_thresh(control_bytes, read_bytes) and
 * --cfg=smpi/shared-malloc-blocksize at
 * ns_smpi_shared_malloc_blocksize(block_bytes), then the user's SimGrid
 * options (opt->cfg, each as --cfg=NAME:VALUE): SimGrid applies its --cfg
 * options in order, so a user's own setting of either (or of anything
 * else) wins. Never for a run that checks received data. */
void ns_smpi_timing_args(GPtrArray *argv, const NsSimOptions *opt, uint64_t control_bytes,
                         uint64_t read_bytes, uint64_t block_bytes);

#endif
