/* netsched — what the two rules writers share (mpi_rules.h). */
#ifndef NETSCHED_MPI_RULES_INTERNAL_H
#define NETSCHED_MPI_RULES_INTERNAL_H

#include "sched/lower/mpi_rules.h"
#include "sched/planners/select/mpi_library.h"

/* One collective's tables, sorted by communicator size. */
typedef struct {
  NsCollective collective;
  GPtrArray *tables; /* const NsDecisionTable *, n_machines increasing */
} NsRulesGroup;

/* Groups `tables` by collective (in the order alltoall, allgather, bcast),
 * each group sorted by communicator size, after checking each table;
 * NS_ERROR_INPUT for none, a failed check, two of one collective and size.
 * Free with g_array_unref (the groups' arrays go with it). */
GArray *ns_rules_groups(const NsDecisionTable *const *tables, guint n, GError **error);

/* A row's parameters as a library takes them. */
typedef struct {
  uint64_t segment; /* segment=N (0: none) */
  int arity;        /* arity=N (0: none) */
} NsRulesParams;

/* The library algorithm of row `r` of table t, its parameters checked
 * against what `lib` can express: NULL with NS_ERROR_UNSUPPORTED naming the
 * row when the library has no such algorithm or cannot take a parameter. */
const NsMpiAlgorithm *ns_rules_row_algorithm(NsMpiLibrary lib, const NsDecisionTable *t,
                                             const NsDecisionRow *r, NsRulesParams *params,
                                             GError **error);

/* MPICH 4.0.2's own selection tree, one collective an entry (mpich_csel_base.c). */
typedef struct {
  const char *collective; /* "bcast", "alltoall", ... as "collective=" names it */
  const char *json;       /* its subtree, compact JSON */
} NsMpichCselBase;
extern const NsMpichCselBase ns_mpich_csel_base[];
extern const int ns_mpich_csel_n_base;

#endif
