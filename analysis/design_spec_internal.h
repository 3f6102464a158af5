/* netsched — a design study (analysis/design_internal.h) built from a scenario
 * (analysis/scenario_internal.h): `design -T ...` and `scenario run` both end here.
 *
 * Everything ns_design_study needs is built below the command line: the
 * message sizes, the models (the union of the designs' lists, in order,
 * at most 64, each design's mask of them), the collectives with their
 * variants (every registered algorithm unless listed, the MPI libraries'
 * default selectors mpich and ompi added when registered and not listed:
 * what a cluster gets out of the box), the designs with their topologies
 * and their prices (a design's price file over the study's). Every name is
 * checked and every file read before the first run; errors name the
 * scenario's file:line (or the -T option) they come from.
 *
 * Two things belong to the layers above, and come as hooks: reading a
 * topology (FILE | gen:SPEC, a format, a spanning tree) and what a model
 * means to the measurement (the simulator's options, sim/sim.h). */
#ifndef NETSCHED_DESIGN_SPEC_H
#define NETSCHED_DESIGN_SPEC_H

#include "analysis/design_internal.h"
#include "analysis/scenario_internal.h"

typedef struct {
  /* Reads design topology `file` (format and spanning as the scenario
   * says, NULL: guessed, none). */
  NsTopology *(*load_topology)(const char *file, const char *format, const char *spanning,
                               void *user, GError **error);
  /* Refuses, before the first run, a topology the measurement cannot take
   * (NULL: any). */
  gboolean (*check_topology)(const NsTopology *topo, void *user, GError **error);
  /* Model `name` with the scenario's settings as model number `index` of the
   * study: fills *model (its canonical name, fluid, the settings digested
   * into the rows' config and the measurement's data, owned by the
   * caller). NS_ERROR_INPUT for an unknown model or settings it refuses. */
  gboolean (*model)(const char *name, const NsScenario *sc, int index, NsDesignModel *model,
                    void *user, GError **error);
  /* The canonical name of model `name` (as *model->name gets it), static;
   * NULL with NS_ERROR_INPUT for an unknown one. */
  const char *(*model_name)(const char *name, void *user, GError **error);
  /* Refuses variants the measurement cannot run (external baselines it
   * does not know: smpi:SPEC, sim/smpi_baseline.h); NULL: any. */
  gboolean (*check_variants)(const GArray *variants, NsCollective c, void *user, GError **error);
  NsMeasureFunc measure;
  void *user;
} NsDesignHooks;

/* What a study built from a scenario owns: the spec's designs, models,
 * collectives, sizes and prices. */
typedef struct NsDesignStudy NsDesignStudy;

/* Builds the study of `sc` into *spec (its designs, collectives, sizes,
 * models, measurement, prices and the output directory; the caller sets the
 * run's options: progress, jobs, restart, retry_failed, out). The spec
 * points into the returned study: free it after the run. NULL with the
 * first error, prefixed with the file:line it comes from. O(the topologies'
 * reading + registry · variants). */
NsDesignStudy *ns_design_study_build(const NsScenario *sc, const NsDesignHooks *hooks,
                                     NsDesignSpec *spec, GError **error);
void ns_design_study_free(NsDesignStudy *study);

#endif
