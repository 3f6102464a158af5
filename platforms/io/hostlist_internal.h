/* netsched — Slurm-style hostlist expressions.
 *
 * "n[0-7,12]" -> n0 n1 ... n7 n12; "rack[1-2]-n[01-03]" -> rack1-n01 ...;
 * "a,b,c[1-2]" -> a b c1 c2. Zero padding follows the width of the lower
 * bound ("n[08-10]" -> n08 n09 n10). Commas outside brackets separate
 * expressions. Ranges must be ascending; an expansion larger than
 * NS_HOSTLIST_MAX names is refused (guards against "n[0-999999999]").
 */
#ifndef NETSCHED_HOSTLIST_H
#define NETSCHED_HOSTLIST_H

#include <glib.h>

#define NS_HOSTLIST_MAX 1000000

/* Expands `expr` into a newly allocated NULL-terminated vector of names (free
 * with g_strfreev). On error returns NULL and sets *why to a newly allocated
 * explanation (free with g_free), e.g. "unbalanced '[' in 'n[0-3'". */
char **ns_hostlist_expand(const char *expr, char **why);

#endif
