/* netsched — the replayed program exported for other simulators.
 *
 * The per-machine programs the replay runs (sim/program.h: steps of
 * receives and sends, pair-wise syncs, light-barrier "ready" messages,
 * barriers) written as
 *   - a SimGrid time-independent trace (`smpirun -replay`): one file of
 *     actions per rank, an index file naming them, the platform (with the
 *     schedule's own routes) and a hostfile, so SMPI's MPI point-to-point
 *     replays exactly what netsched's actors do;
 *   - a GOAL schedule (LogGOPSim's txt2bin, htsim's GOAL input): per rank
 *     send/recv operations and the dependencies between them.
 * Both are written after a completed replay (NsSimOptions.export_to):
 * the trace's waits follow the order in which the replay saw a step's
 * transfers complete, which is what decides when pair-wise syncs leave
 * (a time-independent trace has no wait-any). docs/simulator.md,
 * "Cross-checking with SMPI and other simulators".
 *
 * The exporter reads only Program and Step; when the lowering moves, it
 * is re-pointed at the lowered form, nothing else changes.
 */
#ifndef NETSCHED_SIM_EXPORT_TRACE_H
#define NETSCHED_SIM_EXPORT_TRACE_H

#include "platforms/io/topology_simgrid.h"
#include "sim/program.h"
#include <stdio.h>

typedef struct NsSimExport {
  const char *ti_trace_dir; /* trace.txt, rank-R.txt, platform.xml, hostfile in this
                               directory (created when missing; NULL: none) */
  FILE *goal;               /* the GOAL schedule is written here (NULL: none; not owned) */
  const char *goal_name;    /* its name in messages */
} NsSimExport;

/* The files an exported trace directory holds, besides rank-R.txt. */
#define NS_TI_TRACE_INDEX "trace.txt"
#define NS_TI_TRACE_PLATFORM "platform.xml"
#define NS_TI_TRACE_HOSTFILE "hostfile"

/* The shell command that replays a time-independent trace written into
 * `dir` under smpirun with the settings of the replay netsched ran (opt):
 *   cd DIR && smpirun -platform platform.xml -hostfile hostfile
 *     -replay trace.txt --cfg=smpi/simulate-computation:no
 *     --cfg=smpi/send-is-detached-thresh:EAGER MODEL... USER...
 * EAGER is opt's eager threshold (SMPI's detached sends are netsched's
 * eager ones), MODEL ns_sim_model_cfg's settings, USER the user's --cfg
 * (ns_sim_user_cfg), last; every word shell-quoted (ns_shell_word). NULL
 * for the packet and ns3 models, which smpirun does not run. Newly
 * allocated. */
char *ns_sim_ti_trace_command(const char *dir, const NsSimOptions *opt);

/* Whether the exports `exp` asks for can express `prog`, checked before
 * the replay runs: the errors of ns_sim_export_program() for what a format
 * cannot express. O(transfers + sync edges). */
gboolean ns_sim_export_check(const Program *prog, const NsSimExport *exp, GError **error);

/* Writes the exports `exp` asks for of the replayed `prog` (its results
 * filled: transfer end times order the trace's waits). `platform` is the
 * export the replay ran on (the schedule's own routes). Errors:
 * NS_ERROR_UNSUPPORTED for what a format cannot express (the global window
 * in both, hardware barriers in GOAL, more than 2^31 tags, host names a
 * hostfile cannot hold), NS_ERROR_IO naming the file that failed.
 * O(transfers + sync edges + barrier messages). */
gboolean ns_sim_export_program(const Program *prog, const NsTopology *topo,
                               const NsSimGridExport *platform, const NsSimExport *exp,
                               GError **error);

#endif
