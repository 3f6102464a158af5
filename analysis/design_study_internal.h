/* netsched — the design study's shared state, between design.c (runs),
 * design_cells.c (the summary per cell) and design_report.c (tables, plots,
 * report). Not installed. */
#ifndef NETSCHED_DESIGN_PRIVATE_H
#define NETSCHED_DESIGN_PRIVATE_H

#include "analysis/design_cost_internal.h"
#include "analysis/design_types_internal.h"

/* A row of one run, as the compare engine reported it. */
typedef struct {
  char *label, *algorithm, *sync, *status;
  uint64_t msize;
  gboolean ok, contention_free, valid;
  double completion_s, bound_s, mbps, bound_mbps;
  double min_s, max_s;   /* over the runs (= completion_s for one) */
  int runs;
} NsStoredRow;

/* One collective × size × model × design. Row pointers point into the
 * study's row tables. */
typedef struct {
  double bound_s;
  char *bottleneck;            /* what binds (sched/bound/lower_bound.h) */
  const NsStoredRow *best;     /* fastest verified contention-free, or NULL */
  const NsStoredRow *fastest;  /* fastest verified (contention-free or not), or NULL */
  GPtrArray *tied;             /* every verified schedule the model cannot separate from it:
                                  fluid, within NS_DESIGN_FLUID_TIE; packet, whose runs
                                  overlap its runs */
  gboolean named;              /* the model may name `fastest` (design_internal.h) */
  const NsStoredRow *mpich, *ompi;
} NsCell;

typedef struct {
  const NsDesignSpec *spec;
  GPtrArray **rows;            /* [collective][design][model] of NsStoredRow* */
  NsCell *cells;               /* [collective][size][model][design] */
  int *roots;                  /* [design][collective] bcast roots */
  NsHardware *hardware;        /* [design] */
  double *costs;               /* [design], with prices */
} NsStudy;

/* design_cells.c: a design's rows of one collective and model, a cell,
 * summarising every cell from the rows (step 2 of the study), and the
 * model that ranks a collective × size × design (-1: none completed). */
GPtrArray *ns_study_rows(NsStudy *st, int c, int d, int m);
NsCell *ns_study_cell(NsStudy *st, int c, int k, int m, int d);
void ns_study_summarise(NsStudy *st);
int ns_study_ranking_model(NsStudy *st, int c, int k, int d);

/* TRUE when the model cannot tell rows a and b apart: a fluid model's
 * times within NS_DESIGN_FLUID_TIE of each other, the packet model's runs
 * overlapping (their [fastest, slowest] run intervals; one run each: equal
 * times). Used for schedules within a design and for designs alike. */
gboolean ns_study_rows_tie(gboolean fluid, const NsStoredRow *a, const NsStoredRow *b);

/* design_report.c: each writes its files whole (temporary file, rename). */
gboolean ns_study_write_tables(NsStudy *st, GError **error);
gboolean ns_study_write_plots(NsStudy *st, GError **error);
gboolean ns_study_write_report(NsStudy *st, GError **error);

#endif
