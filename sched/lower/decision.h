/* netsched — a decision table: which algorithm to run for which message
 * size, the product of tuning (Faraj's dissertation §4.1.1.4, STAGE-MPI's
 * drivers: "a message size range for each of the best performing
 * algorithms").
 *
 * `netsched tune` measures and fills one; the lowering turns it into what
 * an MPI job runs: a tuned routine that dispatches by size, an Open MPI
 * coll_tuned rules file, an MPICH collective-selection file. The file form
 * is JSON (docs/tune.md, "Decision file"):
 *
 *   { "format": "netsched-decision", "version": 1,
 *     "collective": "alltoall", "machines": 32,
 *     "topology": "...", "measure": "...", "timing": "...",
 *     "rows": [ { "from_bytes": 0, "algorithm": "bruck", "params": "",
 *                 "measured_bytes": 1, "time_s": 1.2e-4,
 *                 "runner_up": "ring", "runner_up_params": "",
 *                 "runner_up_s": 1.5e-4 }, ... ] }
 *
 * Sizes are netsched's msize: the bytes one machine sends to one other
 * (all-to-all, all-gather), the whole message (broadcast). Row i covers
 * [from_bytes_i, from_bytes_{i+1}); the last row every larger size. */
#ifndef NETSCHED_DECISION_H
#define NETSCHED_DECISION_H

#include "sched/ir/schedule.h"
#include <glib.h>
#include <stdint.h>

#define NS_DECISION_MAX_ROWS 4096
#define NS_DECISION_MAX_STRING 256

typedef struct {
  uint64_t from_bytes;     /* the first size this row covers */
  char *algorithm;         /* a planner of `plan --list`, e.g. "faraj" */
  char *params;            /* its parameters as tuned ("barriers=4", "segment=8192"), "" if none */
  uint64_t measured_bytes; /* the size time_s and runner_up_s were measured at */
  double time_s;           /* the chosen algorithm's time there; < 0: not measured */
  char *runner_up;         /* the second best there, NULL when it was the only candidate */
  char *runner_up_params;  /* its parameters, "" if none (NULL with runner_up) */
  double runner_up_s;      /* its time; < 0 when runner_up is NULL */
} NsDecisionRow;

typedef struct {
  NsCollective collective;
  int64_t n_machines; /* the communicator size tuned for */
  char *topology;     /* what was tuned on (a name or spec), informational */
  char *measure;      /* how: "replay:ideal", "smpirun", ... */
  char *timing;       /* the timing mechanism: "mpptest", "mpptest+barrier", ... */
  GPtrArray *rows;    /* NsDecisionRow*, from_bytes strictly increasing, the first 0 */
} NsDecisionTable;

NsDecisionTable *ns_decision_table_new(NsCollective collective, int64_t n_machines);
void ns_decision_table_free(NsDecisionTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsDecisionTable, ns_decision_table_free)

/* Appends a row (strings copied; params may be NULL for none). Rows must
 * come in increasing from_bytes: checked by ns_decision_table_check. */
NsDecisionRow *ns_decision_table_append(NsDecisionTable *t, uint64_t from_bytes,
                                        const char *algorithm, const char *params);

/* The row that covers `bytes`; NULL only for an empty table. */
const NsDecisionRow *ns_decision_table_lookup(const NsDecisionTable *t, uint64_t bytes);

/* Rows present, first at 0, increasing, names and parameters bounded. */
gboolean ns_decision_table_check(const NsDecisionTable *t, GError **error);

/* The JSON form above, newline-terminated. */
char *ns_decision_table_to_json(const NsDecisionTable *t);

/* Parses the JSON form; `name` labels errors ("name:line: what is wrong").
 * Checked as ns_decision_table_check does. */
NsDecisionTable *ns_decision_table_from_json(const char *text, gsize len, const char *name,
                                             GError **error);

#endif
