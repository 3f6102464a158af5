/* netsched — running SMPI's tools (smpicc, smpirun) in a private
 * directory: shared by the SMPI baselines (smpi_baseline.c) and the
 * generated routines measured under smpirun (smpi_routine.c). */
#ifndef NETSCHED_SIM_SMPI_TOOL_H
#define NETSCHED_SIM_SMPI_TOOL_H

#include "sim/sim.h"
#include <glib.h>

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

/* Appends to smpirun's argv (a GPtrArray of g_free'd strings) the SimGrid
 * settings of opt's calibration (latency and bandwidth factors), as the
 * replay sets them; nothing without a calibration. */
void ns_smpi_model_args(GPtrArray *argv, const NsSimOptions *opt);

#endif
