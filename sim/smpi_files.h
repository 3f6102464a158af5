/* netsched — the files smpirun reads (smpi_files.c). */
#ifndef NETSCHED_SIM_SMPI_FILES_H
#define NETSCHED_SIM_SMPI_FILES_H

#include "platforms/io/topology_simgrid.h"
#include "platforms/model/topology.h"
#include "sched/ir/schedule.h"

/* The files smpirun reads, written into `dir` (each through a temporary
 * file renamed into place): NAME, the SimGrid platform of `topo` with
 * `exp`; NAME, a hostfile naming `hosts[0 .. n)` in rank order.
 * NS_ERROR_UNSUPPORTED for a host name a hostfile cannot hold (':',
 * blanks, control characters), NS_ERROR_IO naming the file. Shared by the
 * SMPI baselines and the trace export (sim/export_trace.h). */
gboolean ns_smpi_write_platform(const char *dir, const char *name, const NsTopology *topo,
                                const NsSimGridExport *exp, GError **error);
/* The same platform with the routes schedule `s`'s transfers take
 * (ns_sim_write_platform, sim/sim.h), as NAME in `dir`: what the replay
 * of s simulates. Its errors. */
gboolean ns_smpi_write_schedule_platform(const char *dir, const char *name,
                                         const NsTopology *topo, const NsSchedule *s,
                                         GError **error);
gboolean ns_smpi_write_hostfile(const char *dir, const char *name, const char *const *hosts,
                                int n, GError **error);

#endif
