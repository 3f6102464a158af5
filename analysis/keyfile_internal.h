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

/* Who wrote a key file, and so what '#' and empty values mean in it. */
typedef enum {
  /* Specifications (scenario, sweep, design, prices): '#' after a blank
   * or at the start of a line begins a comment that runs to the end of the
   * line (docs/scenarios.md writes `runs = 1   # simulations per row`);
   * an empty value is refused. */
  NS_KEYFILE_HAND_WRITTEN,
  /* Files netsched writes with GKeyFile (calibrations): GKeyFile's syntax,
   * in which a '#' inside a value belongs to it and a value may be empty. */
  NS_KEYFILE_MACHINE_WRITTEN,
} NsKeyfileAuthor;

/* The groups of the key file at `path`, in file order (a GPtrArray of
 * NsKeyGroup*, g_ptr_array_unref). NULL with NS_ERROR_IO (unreadable) or
 * NS_ERROR_INPUT `file:line: ...` (a NUL byte, a malformed line, a group
 * or key twice, a key before any group, an empty value, GKeyFile's own
 * complaints). O(size). Hand-written (NS_KEYFILE_HAND_WRITTEN). */
GPtrArray *ns_keyfile_scan(const char *path, GError **error);

/* The same over `len` bytes of `text` read from `source`. */
GPtrArray *ns_keyfile_scan_text(const char *text, gsize len, const char *source,
                                NsKeyfileAuthor author, GError **error);

/* The group called `name` of a scan, or NULL. O(groups). */
const NsKeyGroup *ns_keyfile_find_group(const GPtrArray *groups, const char *name);

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
