/* netsched — decision tables as the MPI libraries' own selection files.
 *
 * For users who keep their MPI library's algorithms (Faraj's dissertation
 * §4.1: STAGE-MPI tunes a library's algorithms per message size): the rows
 * of tuned decision tables (decision.h) written as
 *
 *  - an Open MPI 4.1 coll/tuned dynamic-rules file, the classic format that
 *    version reads (coll_tuned_dynamic_file.c): the number of collectives;
 *    per collective its id and the number of communicator sizes; per
 *    communicator size the size and the number of message-size rules; per
 *    rule the message size (the first 0), the algorithm id, the fan-in/out
 *    and the segment size. `#` starts a comment to the end of the line.
 *    Used with `mpirun --mca coll_tuned_use_dynamic_rules 1 --mca
 *    coll_tuned_dynamic_rules_filename FILE`.
 *  - an MPICH 4.0 collective-selection JSON file
 *    (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE): "collective=...",
 *    "comm_type=intra", "comm_size<=...", "avg_msg_size<=..." (per peer;
 *    all-gather: "total_msg_size<=...") down to "algorithm=MPIR_...".
 *
 * Sizes as the library compares them: Open MPI 4.1 compares the bytes of
 * the whole exchange for an all-to-all and an all-gather (block ×
 * communicator size) and the message for a broadcast; MPICH the bytes per
 * peer for an all-to-all (avg_msg_size), the gathered total for an
 * all-gather (total_msg_size: MPICH 4.0 defines no avg_msg_size for it) and
 * the message for a broadcast. A table's thresholds are exact on the
 * communicator size it was tuned for. docs/mpi-rules.md.
 */
#ifndef NETSCHED_MPI_RULES_H
#define NETSCHED_MPI_RULES_H

#include "sched/lower/decision.h"
#include <glib.h>

/* Whether the writers below take tables of `collective`: alltoall,
 * allgather and bcast. The others (the reductions, the v-collectives) are
 * refused with NS_ERROR_UNSUPPORTED: Open MPI 4.1 picks its alltoallv by
 * communicator size alone, and netsched does not map the reductions' and
 * allgatherv's size keys yet. */
gboolean ns_rules_collective_written(NsCollective collective);

/* Appends the Open MPI 4.1 dynamic-rules file for `tables` (any order; at
 * most one per collective and communicator size) to `out`. FALSE with
 * NS_ERROR_UNSUPPORTED naming the row when Open MPI 4.1 has no algorithm
 * for a row's planner (or not its parameters); NS_ERROR_INPUT for no
 * table, two tables of one collective and size, a table that fails
 * ns_decision_table_check. Nothing is appended on failure. */
gboolean ns_ompi_rules_write(const NsDecisionTable *const *tables, guint n, GString *out,
                             GError **error);

/* Appends the MPICH 4.0 selection file for `tables` to `out`: MPICH
 * 4.0.2's own tree for every collective, the tuned collectives' branches
 * replaced (the file replaces the whole tree). Errors as
 * ns_ompi_rules_write, and NS_ERROR_UNSUPPORTED for a threshold above
 * MPICH's int. */
gboolean ns_mpich_csel_write(const NsDecisionTable *const *tables, guint n, GString *out,
                             GError **error);

#endif
