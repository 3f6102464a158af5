/* netsched — strict GLib key files for experiment specifications.
 *
 * Scenario, sweep and design files are GLib key files. GKeyFile keeps no
 * line numbers and silently accepts what a specification must refuse — a
 * group or key given twice, an empty value, a key outside any group, a
 * misspelt key that then falls back to a default. ns_keyfile_scan reads a
 * file twice: a scan of its lines records where every group and key is
 * and refuses those; GKeyFile then supplies the values (its escapes and
 * syntax). Every message reads `file:line: what is wrong`.
 */
#ifndef NETSCHED_KEYFILE_H
#define NETSCHED_KEYFILE_H

#include <glib.h>

/* One KEY = VALUE of a group, and where it was written ("file:line"). */
typedef struct {
  char *key, *value, *where;
} NsKeyEntry;

typedef struct {
  char *name;
  char *where;
  GPtrArray *entries;  /* NsKeyEntry* */
} NsKeyGroup;

/* The groups of the key file at `path`, in file order (a GPtrArray of
 * NsKeyGroup*, g_ptr_array_unref). NULL with NS_ERROR_IO (unreadable) or
 * NS_ERROR_INPUT `file:line: ...` (a NUL byte, a malformed line, a group
 * or key twice, a key before any group, an empty value, GKeyFile's own
 * complaints). O(size). */
GPtrArray *ns_keyfile_scan(const char *path, GError **error);

/* Groups built in code (command-line grids go through the same checks as
 * files): a new group, an entry appended (strings copied), and the free
 * functions of both (GDestroyNotify). */
NsKeyGroup *ns_keygroup_new(const char *name, const char *where);
NsKeyEntry *ns_keygroup_add(NsKeyGroup *g, const char *key, const char *value, const char *where);
void ns_keygroup_free(gpointer g);
void ns_keyentry_free(gpointer e);

/* The entry for `key` in group g, or NULL. O(entries). */
const NsKeyEntry *ns_keygroup_find(const NsKeyGroup *g, const char *key);

/* Refuses any key of g not in the NULL-terminated `known`:
 * "file:line: unknown key 'segment ' in [topology y] (known: a, b, ...)".
 * O(entries × known). */
gboolean ns_keygroup_check_keys(const NsKeyGroup *g, const char *const *known, GError **error);

/* Sets NS_ERROR_INPUT "WHERE: message" and returns FALSE. */
gboolean ns_keyfile_fail(GError **error, const char *where, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

#endif
