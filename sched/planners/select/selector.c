/* netsched — the one chooser over the MPI libraries' decision tables. */
#include "sched/planners/select/selector_internal.h"
#include "platforms/model/error.h"
#include "platforms/model/units.h"

const NsSelTable *const *ns_select_tables(int *n)
{
  static const NsSelTable *const tables[] = {
    &ns_sel_alltoall_mpich,       &ns_sel_allgather_mpich,       &ns_sel_bcast_mpich,
    &ns_sel_alltoall_ompi,        &ns_sel_allgather_ompi,        &ns_sel_bcast_ompi,
    &ns_sel_alltoall_ompi_legacy, &ns_sel_allgather_ompi_legacy, &ns_sel_bcast_ompi_legacy,
    &ns_sel_reduce_mpich,         &ns_sel_reduce_ompi,
    &ns_sel_allreduce_mpich,      &ns_sel_allreduce_ompi,
    &ns_sel_alltoallv_mpich,      &ns_sel_alltoallv_ompi,
    &ns_sel_allgatherv_mpich,     &ns_sel_allgatherv_ompi,
  };
  *n = (int)G_N_ELEMENTS(tables);
  return tables;
}

uint64_t ns_select_size(const NsSelTable *t, int p, uint64_t msize)
{
  /* msize <= 1 TiB and p < 2^31: the product fits. */
  return t->measure == NS_SEL_TOTAL ? msize * (uint64_t)p : msize;
}

static gboolean has_shape(NsSelShape shape, int p)
{
  switch (shape) {
  case NS_SEL_POW2_P:
    return p > 0 && (p & (p - 1)) == 0;
  case NS_SEL_EVEN_P:
    return p % 2 == 0;
  case NS_SEL_ANY_P:
    break;
  }
  return TRUE;
}

const NsSelRow *ns_select_row(const NsSelTable *t, int p, uint64_t msize)
{
  uint64_t size = ns_select_size(t, p, msize);
  for (int i = 0; i < t->n_rows; i++) {
    const NsSelRow *r = &t->rows[i];
    if (p < r->p_from || (r->p_below != 0 && p >= r->p_below) || !has_shape(r->shape, p))
      continue;
    if (size < r->size_from || (r->size_below != 0 && size >= r->size_below))
      continue;
    if (r->line_a != 0 && !((double)p < r->line_a * (double)size + r->line_b))
      continue;
    return r;
  }
  return NULL;
}

NsSchedule *ns_select_plan(const NsSelTable *t, const NsTopology *topo,
                           const NsPlanParams *params, GError **error)
{
  int p = ns_topology_n_machines(topo);
  const NsSelRow *row = ns_select_row(t, p, params->msize);
  if (row == NULL) {
    ns_set_error_at(error, NS_ERROR_UNSUPPORTED, NULL, 0,
                    "%s/%s: no row of the table for %d machines and %" G_GUINT64_FORMAT " B",
                    ns_collective_name(t->collective), t->name, p, params->msize);
    return NULL;
  }
  NsPlanParams pp = *params;
  pp.segment = row->segment;
  pp.arity = row->arity;
  g_autofree char *label = NULL;
  if (row->segment == 0) {
    label = g_strdup_printf("%s(%s)", t->name, row->algorithm);
  } else {
    g_autofree char *seg = ns_format_size(row->segment);
    label = g_strdup_printf("%s(%s/%s)", t->name, row->algorithm, seg);
  }
  NsSchedule *s = row->plan(topo, &pp, error);
  if (s == NULL) {
    if (error != NULL && *error != NULL && (*error)->domain == NS_ERROR &&
        (*error)->code == NS_ERROR_UNSUPPORTED)
      g_prefix_error(error, "%s/%s chose %s: ", ns_collective_name(t->collective), t->name,
                     label);
    return NULL;
  }
  ns_schedule_relabel(s, label, NULL);
  return s;
}
