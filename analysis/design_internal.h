/* netsched — the design study: candidate cluster designs side by side.
 *
 * A design study answers "which of these fabrics gives the best all-to-all,
 * all-gather and broadcast, and how far from the bound?". It runs the
 * compare engine (experiment_internal.h) for every design × collective × model —
 * each run resumable in its own directory — collects every row through
 * the engine's row sink, and writes across designs:
 *
 *   design.csv     every row of every run (the compare.csv columns: config,
 *                  topology, collective, model, label, ...): one file to
 *                  filter, no join needed;
 *   summary.csv    one row per collective × size × model × design: the
 *                  bound, the fastest verified schedule (or the tie a
 *                  fluid model cannot break), the best contention-free one,
 *                  the MPI defaults, the bottleneck, switch and cable
 *                  counts, and the cost when prices are given;
 *   COLL-MODEL.{dat,gp,svg,png}
 *                  one plot per collective and model, designs side by side
 *                  (clustered bars per message size: bound, fastest
 *                  verified, best contention-free, MPICH's and Open MPI's
 *                  defaults), time
 *                  and ratio to the bound, both from zero with headroom,
 *                  each bar labelled with its algorithm, the subtitle
 *                  computed from the bars;
 *   report.md      the recommendation, also printed; designs ranked with
 *                  every ratio to the fastest, ties (ns_study_rows_tie)
 *                  said as ties; links to the plots that exist.
 *
 * Which model ranks. The fluid models (ideal, tcp, smpi) share bandwidth
 * perfectly: any schedule whose link loads fit — the all-posted `simple`
 * as much as an optimal phased one — meets the bound, so they cannot tell
 * schedules apart by contention. The report names the schedule to
 * configure from the packet model when the study has it (always the
 * fastest verified one); from a fluid model only when that fastest is
 * contention-free and ahead of every other by more than
 * NS_DESIGN_FLUID_TIE; otherwise it lists the tie (or says the fastest
 * shares links) and names none. Every ranking states its model.
 *
 * "Verified" means planned, proved complete by the verifier and simulated
 * to completion; "best contention-free" is the fastest verified schedule
 * the verifier also proved contention-free. The MPI defaults are the
 * registry's `mpich` and `ompi` selectors, added to every collective's
 * algorithm list when the study does not name them: what the cluster gets
 * out of the box.
 */
#ifndef NETSCHED_DESIGN_H
#define NETSCHED_DESIGN_H

#include "analysis/design_cost_internal.h"
#include "analysis/design_types_internal.h"

/*
 * ns_design_study — runs the study described by `spec` and writes the
 * files listed above into spec->outdir.
 *
 * Steps:
 *  1. for every collective × design × model: the compare engine into its
 *     run directory, resuming what a previous run of the same configuration
 *     left there, every row passed back to the study;
 *  2. per collective × size × model × design: bound, best verified
 *     contention-free schedule (or the tie the fluid model cannot break),
 *     MPI defaults, bottleneck (sched/bound/lower_bound.h), hardware counts;
 *  3. design.csv, summary.csv, plots and report.md, each written whole
 *     (temporary file and rename).
 * Errors: NS_ERROR_INPUT (a bcast root that is not a machine of a design,
 * a resume of another configuration), NS_ERROR_IO. Rows that fail (an
 * algorithm that cannot plan a fabric, a simulation that stopped) are rows
 * with a status, not errors.
 * Time: the runs' planning and simulation, plus O(rows · designs) for the
 * summary.
 */
gboolean ns_design_study(const NsDesignSpec *spec, GError **error);

/* A design name fit for paths and plots: 1–64 of [A-Za-z0-9._-], not
 * starting with '.' or '-'. */
gboolean ns_design_name_valid(const char *name);

#endif
