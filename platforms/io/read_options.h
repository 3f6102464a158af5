/* netsched — what a reader needs beyond the file: the options of a format
 * specification such as `slurm:1Gbps:core=10Gbps` or
 * `graphml:machines-per-switch=2:largest-component` (the CLI's `-f`, a
 * scenario's `format =`). docs/topology-format.md lists them per format. */
#ifndef NETSCHED_READ_OPTIONS_H
#define NETSCHED_READ_OPTIONS_H

#include "platforms/model/topology.h"

typedef enum {
  NS_TOPO_FORMAT_AUTO,
  NS_TOPO_FORMAT_NATIVE,
  NS_TOPO_FORMAT_SLURM,
  NS_TOPO_FORMAT_GRAPHML,
  NS_TOPO_FORMAT_DOT,      /* writer only */
  NS_TOPO_FORMAT_SIMGRID,  /* SimGrid platform XML (read_simgrid.c, topology_simgrid.h) */
} NsTopoFormat;

/* "native", "slurm", "graphml", "dot" -> format; FALSE if unknown. */
gboolean ns_topo_format_from_name(const char *name, NsTopoFormat *format);
const char *ns_topo_format_name(NsTopoFormat format);

typedef struct {
  NsTopoFormat format;        /* NS_TOPO_FORMAT_AUTO: guessed from the file name */
  /* slurm */
  double link_unit;           /* bit/s of LinkSpeed=1 (`slurm:UNIT`); 0: none given */
  double core_bandwidth;      /* `core=SPEED`: a core switch joins the top-level
                               * switches with links of this speed; 0: none */
  /* graphml */
  int machines_per_switch;    /* `machines-per-switch=K` for a graph without the
                               * `kind` attribute; 0: not given (1 is taken) */
  gboolean largest_component; /* `largest-component`: drop the other components */
  double bandwidth;           /* `bandwidth=SPEED`: links the file gives no speed,
                               * and machine links; 0: not given (100Mbps) */
} NsReadOptions;

/* Zero options: format guessed, nothing assumed. */
void ns_read_options_init(NsReadOptions *o);

/* Parses FORMAT[:OPTION]... ("slurm:1Gbps:core=10Gbps"); NULL is the
 * guessed format without options. NS_ERROR_INPUT "format 'TEXT': what is
 * wrong" for an unknown format, an option the format does not take, an
 * option given twice or a bad value. O(length of text). */
gboolean ns_read_options_parse(const char *text, NsReadOptions *o, GError **error);

/* Reads `path` with the options (ns_topology_load() otherwise). */
NsTopology *ns_topology_load_with(const char *path, const NsReadOptions *o, NsWarnFunc warn,
                                  void *warn_data, GError **error);


/* The readers with their options (the plain ns_topology_parse_* of
 * topology_io.h are these with zero options). */
NsTopology *ns_topology_parse_slurm_with(const char *source, const char *text, gsize len,
                                         const NsReadOptions *o, NsWarnFunc warn,
                                         void *warn_data, GError **error);
NsTopology *ns_topology_parse_graphml_with(const char *source, const char *text, gsize len,
                                           const NsReadOptions *o, NsWarnFunc warn,
                                           void *warn_data, GError **error);
/* SimGrid platform XML (read_simgrid.c). */
NsTopology *ns_topology_parse_simgrid(const char *source, const char *text, gsize len,
                                      NsWarnFunc warn, void *warn_data, GError **error);

#endif
