/* netsched — calibrated presets (platforms/gen/presets.c), part of the shapes
 * of shapes.h. */
#ifndef NETSCHED_PRESETS_H
#define NETSCHED_PRESETS_H

#include "platforms/model/topology.h"

/*
 * Calibrated presets (platforms/gen/presets.c), specifications "gen:NAME:N":
 *   quadrics:N   the smallest 4-ary n-tree with at least N machines (4^n;
 *                the extra machines idle), cut-through switches, links
 *                1.805Gbps/4.055us: Lemieux's Quadrics network, Faraj's
 *                Table 4.6 (calibration "lemieux")
 *   gige:N       N machines on one store-and-forward switch, links
 *                652.6Mbps/31.71us: the Gigabit Ethernet Beowulf cluster
 *                of Table 4.7 (calibration "beowulf-gige")
 * Link values are the plain linear fit of the table (docs/simulator.md);
 * generator options after N override them. ns_shape_preset_expand() takes
 * the specification without "gen:" and gives the generator specification
 * it stands for and the topology's title (newly allocated), or FALSE with
 * NS_ERROR_INPUT for a bad N; ns_shape_preset() (shapes.c) builds it, NULL
 * with NS_ERROR_INPUT for a bad N or option; ns_shape_preset_calibration()
 * names the bundled calibration of a preset (NULL for other shapes).
 * O(size of the result).
 */
gboolean ns_shape_is_preset(const char *shape);
gboolean ns_shape_preset_expand(const char *spec, char **generator, char **title,
                                GError **error);
NsTopology *ns_shape_preset(const char *spec, GError **error);
const char *ns_shape_preset_calibration(const char *shape);

#endif
