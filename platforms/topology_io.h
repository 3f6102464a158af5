/* netsched — topology readers and writers.
 *
 * Readers return a finalized topology or NULL with an NS_ERROR_INPUT /
 * NS_ERROR_IO error whose message is "file:line: what is wrong". Non-fatal
 * findings (pruned switches) go to `warn`.
 *
 * Formats:
 *   native   line-oriented text, see docs/topology-format.md (*.topo)
 *   slurm    Slurm topology.conf: SwitchName= Switches= Nodes= LinkSpeed=
 *   graphml  GraphML through igraph: node attribute `kind` = machine|switch,
 *            name in `name` (else the GraphML id), optional edge attributes
 *            `bandwidth` (bit/s) and `latency` (s)
 * Writers: native, dot, graphml, simgrid (platform XML for SimGrid and
 * `smpirun -platform`).
 */
#ifndef NETSCHED_TOPOLOGY_IO_H
#define NETSCHED_TOPOLOGY_IO_H

#include "platforms/topology.h"
#include <stdio.h>

typedef enum {
  NS_TOPO_FORMAT_AUTO,
  NS_TOPO_FORMAT_NATIVE,
  NS_TOPO_FORMAT_SLURM,
  NS_TOPO_FORMAT_GRAPHML,
  NS_TOPO_FORMAT_DOT,      /* writer only */
  NS_TOPO_FORMAT_SIMGRID,  /* writer only: SimGrid platform XML (topology_simgrid.h) */
} NsTopoFormat;

/* "native", "slurm", "graphml", "dot" -> format; FALSE if unknown. */
gboolean ns_topo_format_from_name(const char *name, NsTopoFormat *format);
const char *ns_topo_format_name(NsTopoFormat format);
/* Guess from the file name: *.graphml or *.xml -> graphml, topology.conf and
 * *.conf -> slurm, anything else -> native. */
NsTopoFormat ns_topo_format_guess(const char *path);

/* Parse text already in memory. `source` is used in messages ("file:line").
 * The buffer need not be NUL-terminated. */
NsTopology *ns_topology_parse_native(const char *source, const char *text, gsize len,
                                     NsWarnFunc warn, void *warn_data, GError **error);
NsTopology *ns_topology_parse_slurm(const char *source, const char *text, gsize len,
                                    NsWarnFunc warn, void *warn_data, GError **error);
NsTopology *ns_topology_read_graphml(const char *path, NsWarnFunc warn, void *warn_data,
                                     GError **error);

/* Reads a file in the given (or guessed) format. */
NsTopology *ns_topology_load(const char *path, NsTopoFormat format, NsWarnFunc warn,
                             void *warn_data, GError **error);

/* Writers. Native output re-reads to an identical topology. */
gboolean ns_topology_write_native(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_write_dot(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_write_graphml(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_save(const NsTopology *topo, NsTopoFormat format, FILE *out,
                          GError **error);

#endif
