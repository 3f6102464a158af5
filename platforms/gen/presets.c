/* netsched — calibrated presets: gen:quadrics:N and gen:gige:N. See shapes.h.
 *
 * A preset is a generator specification with link values fitted from a
 * measured table (analysis/calibrate_internal.h, the plain linear fit rounded to 4
 * digits, per link of a two-link route) and the switches of the machine
 * the table was measured on. Its bundled calibration (scenarios/
 * calibrations/NAME.ini, fitted on this very topology between n0 and n1)
 * adds the SMPI factors that reproduce the table exactly.
 */
#include "platforms/model/error.h"
#include "platforms/gen/presets.h"
#include <string.h>

typedef struct {
  const char *name;
  const char *links;        /* generator options: link values and forwarding */
  const char *calibration;  /* the bundled calibration fitted on it */
  const char *what;
} Preset;

static const Preset presets[] = {
  /* Faraj, dissertation Table 4.6: Lemieux, Quadrics QsNet (Elan3) fat tree.
   * Linear fit: 8.110 us + size / 1.805 Gbit/s between two machines. */
  { "quadrics", ":bandwidth=1.805Gbps:latency=4.055us:forwarding=cut-through", "lemieux",
    "Quadrics-like 4-ary fat tree, cut-through" },
  /* Table 4.7: 16 Dell Dimension 2400 on a Dell PowerConnect 2624 Gigabit
   * switch, MPICH2. Linear fit: 63.42 us + size / 652.6 Mbit/s. */
  { "gige", ":bandwidth=652.6Mbps:latency=31.71us:forwarding=store-and-forward", "beowulf-gige",
    "Gigabit Ethernet, one store-and-forward switch" },
};

static const Preset *find(const char *shape)
{
  for (gsize i = 0; i < G_N_ELEMENTS(presets); i++)
    if (g_strcmp0(shape, presets[i].name) == 0)
      return &presets[i];
  return NULL;
}

/**
 * \function ns_shape_is_preset
 * \brief Whether a shape name is a calibrated preset ("quadrics", "gige").
 *
 * \param shape The shape name.
 * \return TRUE for a preset.
 * \errors none.
 * \complexity O(presets).
 * \source Faraj's dissertation Tables 4.6 and 4.7; docs/simulator.md.
 */
gboolean ns_shape_is_preset(const char *shape) { return find(shape) != NULL; }

/**
 * \function ns_shape_preset_calibration
 * \brief The bundled calibration of a preset.
 *
 * \param shape The shape name.
 * \return "lemieux" or "beowulf-gige", or NULL for other shapes.
 * \errors none.
 * \complexity O(presets).
 * \source docs/simulator.md.
 */
const char *ns_shape_preset_calibration(const char *shape)
{
  const Preset *p = find(shape);
  return p != NULL ? p->calibration : NULL;
}

/**
 * \function ns_shape_preset_expand
 * \brief The generator specification and title a preset stands for.
 *
 * \param spec The specification without "gen:" ("quadrics:64").
 * \param generator Receives the generator specification (newly allocated).
 * \param title Receives the topology's title (newly allocated).
 * \param error Set on failure (see errors).
 * \return FALSE on error.
 * \errors NS_ERROR_INPUT for a bad N.
 * \complexity O(length of the result).
 * \source Faraj's dissertation Tables 4.6 and 4.7.
 */
gboolean ns_shape_preset_expand(const char *spec, char **generator_out, char **title_out,
                                GError **error)
{
  const char *colon = strchr(spec, ':');
  g_autofree char *shape = colon ? g_strndup(spec, (gsize)(colon - spec)) : g_strdup(spec);
  const Preset *p = find(shape);
  const char *args = colon ? colon + 1 : "";
  const char *options = strchr(args, ':'); /* the user's, after the preset's */
  g_autofree char *count = options ? g_strndup(args, (gsize)(options - args)) : g_strdup(args);
  char *end = NULL;
  gint64 n = g_ascii_strtoll(count, &end, 10);
  /* quadrics: 4^9 machines is the largest 4-ary n-tree under the
   * 1,000,000-node limit of the generators. */
  gint64 max = p != NULL && strcmp(p->name, "quadrics") == 0 ? 262144 : 1000000;
  if (p == NULL || end == count || *end != '\0' || n < 2 || n > max) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "gen:%s: expected %s:N with 2 <= N <= %" G_GINT64_FORMAT " machines", spec,
                    p != NULL ? p->name : "quadrics|gige", max);
    return FALSE;
  }
  g_autofree char *generator = NULL;
  g_autofree char *title = NULL;
  if (strcmp(p->name, "quadrics") == 0) {
    int levels = 1;
    for (gint64 machines = 4; machines < n; machines *= 4)
      levels++;
    generator = g_strdup_printf("fattree:4,%d%s%s", levels, p->links, options ? options : "");
    title = g_strdup_printf("gen:%s: %s, 4-ary %d-tree of %d machines (calibration %s)", spec,
                            p->what, levels, 1 << (2 * levels), p->calibration);
  } else {
    generator = g_strdup_printf("star:%" G_GINT64_FORMAT "%s%s", n, p->links,
                                options ? options : "");
    title = g_strdup_printf("gen:%s: %s, %" G_GINT64_FORMAT " machines (calibration %s)", spec,
                            p->what, n, p->calibration);
  }
  *generator_out = g_steal_pointer(&generator);
  *title_out = g_steal_pointer(&title);
  return TRUE;
}
