/* netsched — compress machine names into a Slurm hostlist expression.
 *
 * ns_hostlist_compress({"n0","n1","n2","n5","x"}, 5) -> "n[0-2,5],x".
 * Names are kept in the given order (a run only groups consecutive names of
 * the same prefix and zero padding), so ns_hostlist_expand() of the result
 * gives back exactly the input sequence. O(total length). Newly allocated.
 */
#ifndef NETSCHED_HOSTLIST_COMPRESS_H
#define NETSCHED_HOSTLIST_COMPRESS_H

#include <glib.h>

char *ns_hostlist_compress(const char *const *names, int n);

#endif
