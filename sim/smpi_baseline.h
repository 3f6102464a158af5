/* netsched — SimGrid's own MPI collectives (SMPI) as baselines.
 *
 * SMPI ships real MPI implementations of the collectives — MPICH's, Open
 * MPI's, MVAPICH2's and Intel MPI's selectors, and the algorithms of the
 * STAR-MPI repository (pair_light_barrier, ring_mpi_barrier, ...). A
 * baseline "smpi:ALGO" (SMPI's --cfg=smpi/COLLECTIVE:ALGO) or
 * "smpi:coll-selector=NAME" (--cfg=smpi/coll-selector:NAME) is measured
 * by running that code under smpirun on the topology's SimGrid platform:
 * "what MPI gives out of the box" on SimGrid's MPI, beside netsched's own
 * re-implementations (compare, design; docs/simulator.md, "Cross-checking
 * with SMPI and other simulators").
 *
 * A small timing program is compiled with smpicc once per process (kept
 * in memory); each measurement writes it, the platform and a hostfile into
 * a private temporary directory (mkdtemp), runs smpirun there (an argument
 * vector, no shell; its own temporary files go there too) and removes the
 * directory, on every exit path including SIGINT, SIGTERM and SIGHUP
 * (sim/child.h).
 */
#ifndef NETSCHED_SIM_SMPI_BASELINE_H
#define NETSCHED_SIM_SMPI_BASELINE_H

#include "analysis/experiment_internal.h"
#include "sched/planners/registry.h"
#include "platforms/io/topology_simgrid.h"
#include "sim/sim.h"

/* The spelling of a baseline in algorithm lists: "smpi:pair". */
#define NS_SMPI_BASELINE_PREFIX "smpi:"

/* Checks a baseline SPEC (what follows "smpi:") for collective `c`: an
 * algorithm SMPI 3.32 ships for it, or coll-selector=NAME (ompi, mpich,
 * mvapich2, impi, default). NS_ERROR_INPUT naming the known ones. O(1). */
gboolean ns_smpi_baseline_check(NsCollective c, const char *spec, GError **error);

/* Runs SMPI's implementation of collective `c` (SPEC as above) on every
 * machine of `topo`, `msize` bytes (per pair for alltoall, per machine
 * for allgather, whole for bcast from machine `root`), under the SMPI
 * network model with opt's calibration factors and store-and-forward
 * setting, and sets *completion to the last rank's end minus the first
 * rank's start, in simulated seconds. NS_ERROR_INPUT unless opt->model is
 * smpi (or calibrated), NS_ERROR_UNSUPPORTED above 2^31 - 1 bytes,
 * NS_ERROR_IO when smpicc or smpirun is missing, fails (its last message
 * quoted), exceeds opt->wall_limit or is interrupted. */
gboolean ns_smpi_baseline_measure(const NsTopology *topo, NsCollective c, const char *spec,
                                  uint64_t msize, int root, const NsSimOptions *opt,
                                  double *completion, GError **error);

/* The variants of a row list that are SMPI baselines (smpi:SPEC) name an
 * algorithm SMPI ships for collective c (ns_smpi_baseline_check) and, when
 * `opt` is given, run under SMPI's network model (--model smpi or a
 * calibration). NS_ERROR_INPUT naming the variant otherwise. */
gboolean ns_smpi_baselines_check(const GArray *variants, NsCollective c, const NsSimOptions *opt,
                                 GError **error);

/* A row of a baseline variant `v` measured: SMPI's own implementation
 * under smpirun; `s` is the reference schedule, for the root, the bound
 * and the bytes. The row is never `valid` (no schedule of netsched's was
 * verified); its sync column says "smpirun". Errors of
 * ns_smpi_baseline_measure. */
gboolean ns_smpi_baseline_row(const NsTopology *topo, const NsSchedule *s, const NsVariant *v,
                              uint64_t msize, NsMeasure *out, const NsSimOptions *opt,
                              GError **error);

#endif
