/* netsched — what names a topology, in one place: the command line's -T
 * (with -f and --spanning), a scenario's [topology NAME] (file, format,
 * spanning), a sweep over files (files, format) all mean the same thing.
 *
 *   FILE       a topology file, read in `format` (FORMAT[:OPTION]...,
 *              platforms/io/read_options.h) or in the format guessed from
 *              its name and contents
 *   gen:SPEC   a generated topology (platforms/gen/shapes.h)
 *
 * and, with `spanning` (METHOD[:SEED][@ROOT], platforms/routing/spanning.h),
 * that spanning tree of the graph under tree routing. */
#ifndef NETSCHED_TOPOLOGY_SPEC_H
#define NETSCHED_TOPOLOGY_SPEC_H

#include "platforms/model/topology.h"

typedef struct {
  const char *format;   /* FORMAT[:OPTION]... of a FILE; NULL: guessed */
  const char *spanning; /* METHOD[:SEED][@ROOT]; NULL: the graph itself */
  NsWarnFunc warn;      /* the readers' warnings (pruned switches, ...); NULL: dropped */
  void *warn_data;
} NsTopologySpecOptions;

/* TRUE when `spec` names a generator (gen:SPEC), not a file. */
gboolean ns_topology_spec_is_generator(const char *spec);

/* `spec` as written in a file of directory `dir`: a relative FILE is
 * relative to `dir`; gen:SPEC and absolute paths are kept. Newly
 * allocated. */
char *ns_topology_spec_resolve(const char *spec, const char *dir);

/*
 * ns_topology_from_spec — the finalised topology `spec` names, with the
 * options. The spanning method is checked before anything is read or
 * generated. Errors: NS_ERROR_INPUT "format 'TEXT': ..." or "spanning
 * 'TEXT': ..." for bad options, "FILE:LINE: what is wrong" from the
 * readers, "gen:SPEC: what is wrong" from the generators; NS_ERROR_IO when
 * the file cannot be read. Time: the reader or the generator, and
 * O(S + L log L) for a spanning tree.
 */
NsTopology *ns_topology_from_spec(const char *spec, const NsTopologySpecOptions *options,
                                  GError **error);

#endif
