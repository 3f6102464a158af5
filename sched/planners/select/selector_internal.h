/* netsched — the MPI libraries' selections as decision tables.
 *
 * An MPI library picks one of its algorithms for a collective by the
 * communicator size p and the message size (Open MPI's coll/tuned
 * *_intra_dec_fixed functions, MPICH's collective selection JSON). Each
 * such choice is a table here: rows "p range, size range (and p a power of
 * two / even) -> a registered planner with its parameters", read by one
 * chooser, ns_select_plan(). The tables live one file per library and
 * version (ompi.c: Open MPI 4.1.4; ompi_legacy.c: Open MPI 1.6 - 3.x;
 * mpich.c: MPICH 4.0.2), each saying which source file it mirrors. Every
 * algorithm a table names is a registered planner (planners.def), so what
 * a library chose can also be planned by name.
 */
#ifndef NETSCHED_SELECTOR_H
#define NETSCHED_SELECTOR_H

#include "sched/planners/registry.h"

/* What a table's size ranges measure. */
typedef enum {
  NS_SEL_MSG,   /* msize: bytes per destination (alltoall), per block
                   (allgather), of the whole message (bcast) */
  NS_SEL_TOTAL, /* msize·p: the whole gathered vector (MPICH's allgather) */
} NsSelMeasure;

/* A condition on p beside its range. */
typedef enum {
  NS_SEL_ANY_P,
  NS_SEL_POW2_P, /* p a power of two */
  NS_SEL_EVEN_P,
} NsSelShape;

/* One row. Ranges are half-open, as the libraries' `<` tests are: a row
 * applies when p_from <= p < p_below, size_from <= size < size_below (a
 * `below` of 0: no upper limit), p has the row's shape and, when line_a is
 * not 0, p < line_a·size + line_b (Open MPI 1.6 - 3.x's fitted lines). The
 * first row that applies is taken. */
typedef struct {
  int p_from, p_below;
  NsSelShape shape;
  uint64_t size_from, size_below;
  double line_a, line_b;
  const char *library_name; /* the library's name of its algorithm */
  const char *algorithm;    /* the registered planner that plans it */
  NsPlanFunc plan;          /* that planner's function (called directly:
                               the registry's table refers to the
                               selectors, so they do not look it up) */
  uint64_t segment;         /* bcast: the segment size the library uses
                               (0: the whole message); replaces the user's */
  int arity;                /* bcast/knomial: the radix (0: the planner's) */
  const char *note;         /* NULL, or where the planner differs from the
                               library's algorithm */
} NsSelRow;

typedef struct {
  const char *name;        /* the selector planner, e.g. "ompi": the
                              schedule is labelled "ompi(ring)" */
  NsCollective collective;
  NsSelMeasure measure;
  const char *mirrors;     /* library version and source file */
  const NsSelRow *rows;
  int n_rows;
} NsSelTable;

/* Every table (mpich, ompi, ompi-legacy for each collective); *n receives
 * the count. */
const NsSelTable *const *ns_select_tables(int *n);

/* The size a table's rows are compared with for msize on p machines. */
uint64_t ns_select_size(const NsSelTable *t, int p, uint64_t msize);

/* The first row of t that applies to p machines and msize, or NULL when
 * none does (the tables end with rows for every size: a test checks it).
 * O(rows). */
const NsSelRow *ns_select_row(const NsSelTable *t, int p, uint64_t msize);

/*
 * ns_select_plan — plans what the table chooses: the row's planner with
 * params' msize and root, the row's segment and arity, and labels the
 * schedule "NAME(ALGORITHM)", or "NAME(ALGORITHM/SEGMENT)" when the row
 * sets a segment ("ompi(linear/128KiB)").
 * Errors: those of the chosen planner, NS_ERROR_UNSUPPORTED ones prefixed
 * with "COLLECTIVE/NAME chose LABEL: " (e.g. a forced segment size that
 * makes too many transfers); NS_ERROR_UNSUPPORTED when no row applies.
 * Time: that of the chosen planner.
 */
NsSchedule *ns_select_plan(const NsSelTable *t, const NsTopology *topo,
                           const NsPlanParams *params, GError **error);

/* A row for the table files: p_from <= p < p_below, size_from <= size <
 * size_below, the library's name `lib` of an algorithm planned by the
 * registered planner `name` (function ns_<coll>_<ident>); further fields
 * (.shape, .segment, .arity, .note, .line_a/.line_b) after them. */
#define NS_SEL_ROW(pf, pb, sf, sb, lib, coll, ident, name, ...)                               \
  { .p_from = (pf), .p_below = (pb), .size_from = (sf), .size_below = (sb),                 \
    .library_name = (lib), .algorithm = (name), .plan = ns_##coll##_##ident, __VA_ARGS__ }

/* Defines the table `var` from the array `rows_` and the registered
 * selector planner `func` that plans by it (planners.def). */
#define NS_SEL_TABLE(var, func, name_, coll, measure_, mirrors_, rows_)                       \
  const NsSelTable var = { .name = (name_), .collective = (coll), .measure = (measure_),    \
                           .mirrors = (mirrors_), .rows = (rows_),                          \
                           .n_rows = (int)G_N_ELEMENTS(rows_) };                            \
  NsSchedule *func(const NsTopology *topo, const NsPlanParams *params, GError **error)      \
  {                                                                                         \
    return ns_select_plan(&var, topo, params, error);                                       \
  }

/* The tables, defined beside their libraries' planners. */
extern const NsSelTable ns_sel_alltoall_mpich, ns_sel_allgather_mpich, ns_sel_bcast_mpich;
extern const NsSelTable ns_sel_alltoall_ompi, ns_sel_allgather_ompi, ns_sel_bcast_ompi;
extern const NsSelTable ns_sel_alltoall_ompi_legacy, ns_sel_allgather_ompi_legacy,
    ns_sel_bcast_ompi_legacy;
extern const NsSelTable ns_sel_reduce_mpich, ns_sel_reduce_ompi;

extern const NsSelTable ns_sel_allreduce_mpich, ns_sel_allreduce_ompi;

/* The v-collectives' tables (vector_selectors.c): their rows are read with
 * a measure of the pattern in place of msize (vector_select). */
extern const NsSelTable ns_sel_alltoallv_mpich, ns_sel_alltoallv_ompi;
extern const NsSelTable ns_sel_allgatherv_mpich, ns_sel_allgatherv_ompi;

#endif
