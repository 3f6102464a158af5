/* netsched — the fat tree and grid generators (platforms/gen/fabrics.c),
 * part of the shapes of shapes.h. */
#ifndef NETSCHED_FABRICS_H
#define NETSCHED_FABRICS_H

#include "platforms/gen/shape_options.h"

/*
 * ns_shape_fattree — the k-ary n-tree of Petrini & Vanneschi (1997): k^n
 * machines n0..n{k^n-1}, and n levels of k^(n-1) switches "L<l>s<w>" (l = 1
 * the leaves). Switch w of level l has digits w = (w_0, …, w_(n-2)) in
 * base k; its up-port j (j = 0..k-1) joins switch w' of level l+1 equal to
 * w with digit l-1 replaced by j; machine i hangs from leaf switch ⌊i/k⌋.
 * Up-links are declared in port order, so dmodk routing (set here) takes
 * up-port ⌊d / k^(l-1)⌋ mod k at level l, as Zahavi et al. define it.
 * `suffix` is appended to the topology's name ("gen:fattree:4,3" + suffix).
 * NS_ERROR_INPUT for k < 2, n < 1 or more than 1,000,000 nodes.
 * Time O(n · k^n).
 */
NsTopology *ns_shape_fattree(int k, int n, const NsShapeOptions *o, const char *suffix,
                             GError **error);

/*
 * ns_shape_grid — a torus (`wrap`) or mesh of dims[0] × dims[1] × …
 * machines n0.., machine i at coordinates (i mod N_0, ⌊i/N_0⌋ mod N_1, …),
 * each linked to its positive neighbour in every dimension (declared from
 * it, so a ring dimension of size 2 gets two parallel links). Grid and
 * dimension-order routing are set; machines are all-port unless `o` says
 * otherwise. NS_ERROR_INPUT for a size < 1, fewer than 2 machines or more
 * than 1,000,000. Time O(P · dims).
 */
NsTopology *ns_shape_grid(const int *dims, int n_dims, gboolean wrap, const NsShapeOptions *o,
                          const char *suffix, GError **error);

#endif
