/* netsched — scenario files: declarative experiments and design studies
 * (GLib key files, read strictly by analysis/keyfile_internal.h).
 *
 *   [scenario]                     one, required
 *   description   = text (printed)
 *   collective    = alltoall | allgather | bcast        (one collective: with
 *   algorithms    = ALGORITHM[:SYNC],...                 [collective] groups, neither)
 *   msizes        = 8KiB..256KiB | 8KiB,64KiB           (default 8KiB..256KiB)
 *   models        = ideal,tcp,smpi,packet               (default ideal)
 *   output        = DIR, relative to the file           (required)
 *   root, segment = bcast root machine, segment size    (defaults for [collective])
 *   pattern       = alltoallv/allgatherv size pattern   (default for [collective]:
 *                   analysis/experiment_pattern_internal.h; a file is resolved
 *                   relative to the file)
 *   wall-limit    = seconds per simulation
 *   runs          = simulations per row (packet model: different random streams)
 *   queue, tcp    = packet model switch queue (packets), TCP variant
 *   calibration   = smpi model factors (file or bundled name)
 *   cfg           = NAME:VALUE NAME:VALUE ...: SimGrid options for the replay and
 *                   every smpirun run, after netsched's own (whitespace-separated,
 *                   as SimGrid's own --cfg="A:1 B:2": ';' belongs to SimGrid
 *                   values such as smpi/bw-factor's)
 *   spanning      = METHOD[:SEED][@ROOT] for every topology
 *   prices        = FILE: a price file (analysis/design_internal.h) for the cost column
 *
 *   [collective NAME]              zero or more: NAME is a collective (ns_collective_names)
 *   algorithms    = ALGORITHM[:SYNC],...   (default: every registered algorithm)
 *   root, segment = bcast root machine, segment size
 *   pattern       = alltoallv/allgatherv size pattern
 *
 *   [topology NAME]                one or more: a design; NAME is [A-Za-z0-9._-]
 *   file        = FILE (relative to the file) or gen:SPEC  (required)
 *   format      = native | slurm | graphml
 *   models      = overrides [scenario] models
 *   spanning    = overrides [scenario] spanning
 *   description = one line for the report
 *   versus      = NAME of the design this one changes one part of
 *   change      = what changed, for the report ("10 Gbit/s uplinks")
 *   prices      = FILE: this design's prices, key by key over [scenario]'s
 *
 * Unknown groups or keys, a key twice, empty values, a missing required
 * key, a bad number: `file:line: what is wrong` (NS_ERROR_INPUT) — never a
 * silent default. Names (algorithms, schemes, models) are checked before
 * anything runs. */
#ifndef NETSCHED_SCENARIO_H
#define NETSCHED_SCENARIO_H

#include <glib.h>

typedef struct {
  char *name;           /* NAME of [collective NAME] (or [scenario] collective) */
  char *algorithms;     /* NULL: every registered algorithm */
  char *root, *segment; /* NULL: [scenario]'s, else none */
  char *pattern;        /* alltoallv/allgatherv: the size pattern's text (a file
                           resolved); NULL: [scenario]'s, else none */
  char *pattern_where;  /* "file:line" of the pattern key */
  char *where;          /* "file:line" of the group or key */
} NsScenarioCollective;

typedef struct {
  char *name;           /* NAME of [topology NAME] */
  char *file;           /* resolved against the scenario's directory (or gen:...) */
  char *format;         /* NULL: guessed */
  char **models;        /* NULL-terminated */
  char *spanning;       /* NULL: none */
  char *description, *versus, *change;
  char *prices;         /* resolved; NULL: [scenario]'s */
  char *where;          /* "file:line" of the group */
  char *models_where;   /* "file:line" of the models key it takes (else the group's) */
} NsScenarioTopology;

typedef struct {
  char *path;
  char *description, *msizes, *output, *tcp, *calibration, *prices;
  char *eager_threshold; /* eager-threshold / --eager-threshold SIZE; NULL: the default */
  char *reduce_rate;    /* reduce-rate / --reduce-rate RATE; NULL: the default */
  char **cfg;           /* cfg: SimGrid options NAME:VALUE, NULL-terminated; NULL: none */
  double wall_limit;
  int queue;
  int runs;             /* 0: one */
  GArray *collectives;  /* NsScenarioCollective, at least one */
  GArray *topologies;   /* NsScenarioTopology, at least one */
} NsScenario;

/* Reads and checks a scenario file. NULL with NS_ERROR_INPUT / NS_ERROR_IO
 * (`file:line: ...`). O(size). */
NsScenario *ns_scenario_load(const char *path, GError **error);
void ns_scenario_free(NsScenario *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsScenario, ns_scenario_free)

/* A SimGrid option as a scenario's `cfg` and every command's --cfg take it
 * (SimGrid's --cfg=NAME:VALUE): a ':' after a NAME that is not empty. O(length). */
gboolean ns_simgrid_option_valid(const char *option);

#endif
