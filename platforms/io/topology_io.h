/* netsched — topology readers and writers.
 *
 * Readers return a finalized topology or NULL with an NS_ERROR_INPUT /
 * NS_ERROR_IO error whose message is "file:line: what is wrong". Non-fatal
 * findings (pruned switches) go to `warn`. Invisible characters of the
 * input (U+200B, U+FEFF, controls, ...) appear escaped ("\u200b") in
 * messages and warnings, never raw.
 *
 * Limits (docs/topology-format.md, "Input: encoding and limits"): a file
 * is read through a bounded reader, at most NS_TOPOLOGY_MAX_BYTES,
 * whatever it is (regular file, pipe, FIFO, character device); a topology
 * has at most NS_HOSTLIST_MAX (1,000,000) nodes and as many links.
 *
 * Formats:
 *   native   line-oriented text, see docs/topology-format.md (*.topo)
 *   slurm    Slurm topology.conf: SwitchName= Switches= Nodes= LinkSpeed=
 *   graphml  GraphML through igraph: node attribute `kind` = machine|switch,
 *            name in `name` (else the GraphML id), optional edge attributes
 *            `bandwidth` (bit/s) and `latency` (s); a pre-check with line
 *            numbers refuses duplicate node ids and what igraph would
 *            silently drop or take too long on. Without `kind` (Topology
 *            Zoo) every node is a switch with machines attached
 *   simgrid  SimGrid platform XML: one cluster (FLAT, TORUS, FAT_TREE,
 *            DRAGONFLY) or one flat zone with routes (read_simgrid.c)
 * Formats take options (read_options.h: `slurm:1Gbps:core=10Gbps`,
 * `graphml:largest-component`).
 * Writers: native, dot, graphml, simgrid (platform XML for SimGrid and
 * `smpirun -platform`).
 */
#ifndef NETSCHED_TOPOLOGY_IO_H
#define NETSCHED_TOPOLOGY_IO_H

#include "platforms/io/read_options.h"
#include "platforms/model/topology.h"
#include <stdio.h>

/* NsTopoFormat and its names: platforms/io/read_options.h. */
/* Guess from the file name: *.graphml or *.xml -> graphml, topology.conf and
 * *.conf -> slurm, anything else -> native. The loaders then read a guessed
 * graphml file whose root element is <platform> as simgrid. */
NsTopoFormat ns_topo_format_guess(const char *path);

/* The most bytes of topology text a reader takes from one file: 256 MiB.
 * More is refused with NS_ERROR_INPUT "file: topology larger than the
 * 256 MiB limit" before it is read (regular files) or as soon as the
 * limit is passed (streams). */
#define NS_TOPOLOGY_MAX_BYTES ((gsize)256 * 1024 * 1024)

/* Parse text already in memory. `source` is used in messages ("file:line").
 * The buffer need not be NUL-terminated. A UTF-8 byte-order mark at the
 * very start is skipped; anywhere else it is an error that names it. */
NsTopology *ns_topology_parse_native(const char *source, const char *text, gsize len,
                                     NsWarnFunc warn, void *warn_data, GError **error);
NsTopology *ns_topology_parse_slurm(const char *source, const char *text, gsize len,
                                    NsWarnFunc warn, void *warn_data, GError **error);
/* The same with the bit/s that LinkSpeed=1 stands for (Slurm's speeds are
 * unitless): the links of a SwitchName line get LinkSpeed × link_unit;
 * link_unit 0 ignores LinkSpeed (with a warning) as the plain reader does. */
NsTopology *ns_topology_parse_slurm_unit(const char *source, const char *text, gsize len,
                                         double link_unit, NsWarnFunc warn, void *warn_data,
                                         GError **error);
/* GraphML in memory (at most NS_TOPOLOGY_MAX_BYTES), or read from `path`
 * through the bounded reader. */
NsTopology *ns_topology_parse_graphml(const char *source, const char *text, gsize len,
                                      NsWarnFunc warn, void *warn_data, GError **error);
NsTopology *ns_topology_read_graphml(const char *path, NsWarnFunc warn, void *warn_data,
                                     GError **error);

/* Reads a file in the given (or guessed) format, at most
 * NS_TOPOLOGY_MAX_BYTES of it. */
NsTopology *ns_topology_load(const char *path, NsTopoFormat format, NsWarnFunc warn,
                             void *warn_data, GError **error);
/* The same with another size limit (tests use a small one). */
NsTopology *ns_topology_load_limited(const char *path, NsTopoFormat format, gsize max_bytes,
                                     NsWarnFunc warn, void *warn_data, GError **error);
/* ns_topology_load() of a Slurm topology.conf whose LinkSpeed=1 stands for
 * `link_unit` bit/s (ns_topology_parse_slurm_unit). */
NsTopology *ns_topology_load_slurm(const char *path, double link_unit, NsWarnFunc warn,
                                   void *warn_data, GError **error);

/* Writers. Native output re-reads to an identical topology. */
gboolean ns_topology_write_native(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_write_dot(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_write_graphml(const NsTopology *topo, FILE *out, GError **error);
gboolean ns_topology_save(const NsTopology *topo, NsTopoFormat format, FILE *out,
                          GError **error);

#endif
