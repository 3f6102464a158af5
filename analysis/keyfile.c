/* netsched — strict GLib key files (see keyfile_internal.h). */
#include "analysis/keyfile_internal.h"
#include "platforms/model/error.h"
#include "platforms/io/topology_input_internal.h"
#include <string.h>

void ns_keyentry_free(gpointer p)
{
  NsKeyEntry *e = p;
  g_free(e->key);
  g_free(e->value);
  g_free(e->where);
  g_free(e);
}

void ns_keygroup_free(gpointer p)
{
  NsKeyGroup *g = p;
  g_free(g->name);
  g_free(g->where);
  g_ptr_array_unref(g->entries);
  g_free(g);
}

NsKeyGroup *ns_keygroup_new(const char *name, const char *where)
{
  NsKeyGroup *g = g_new0(NsKeyGroup, 1);
  g->name = g_strdup(name);
  g->where = g_strdup(where);
  g->entries = g_ptr_array_new_with_free_func(ns_keyentry_free);
  return g;
}

const NsKeyEntry *ns_keygroup_find(const NsKeyGroup *g, const char *key)
{
  for (guint i = 0; i < g->entries->len; i++) {
    const NsKeyEntry *e = g_ptr_array_index(g->entries, i);
    if (strcmp(e->key, key) == 0)
      return e;
  }
  return NULL;
}

gboolean ns_keyfile_fail(GError **error, const char *where, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, NS_ERROR, NS_ERROR_INPUT, "%s: %s", where, msg);
  return FALSE;
}


const NsKeyGroup *ns_keyfile_find_group(const GPtrArray *groups, const char *name)
{
  for (guint k = 0; k < groups->len; k++) {
    const NsKeyGroup *g = g_ptr_array_index(groups, k);
    if (strcmp(g->name, name) == 0)
      return g;
  }
  return NULL;
}

/* Cuts a hand-written line at its comment: a '#' first on the line or
 * after a blank. */
static void cut_comment(char *line)
{
  for (char *p = line; *p != '\0'; p++)
    if (*p == '#' && (p == line || p[-1] == ' ' || p[-1] == '\t')) {
      *p = '\0';
      return;
    }
}

GPtrArray *ns_keyfile_scan(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!ns_input_read_file(path, NS_INPUT_CONFIG_MAX_BYTES, "configuration", &text, &len, error))
    return NULL;
  return ns_keyfile_scan_text(text, len, path, NS_KEYFILE_HAND_WRITTEN, error);
}

/* Scans the file's lines into groups with line numbers; values come from
 * GKeyFile (escapes), given the lines without their comments. */
GPtrArray *ns_keyfile_scan_text(const char *text, gsize len, const char *path,
                                NsKeyfileAuthor author, GError **error)
{
  if (memchr(text, '\0', len) != NULL) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "not a text file (it holds a NUL byte)");
    return NULL;
  }
  gboolean hand = author == NS_KEYFILE_HAND_WRITTEN;
  GPtrArray *groups = g_ptr_array_new_with_free_func(ns_keygroup_free);
  g_autoptr(GKeyFile) kf = g_key_file_new();
  g_autofree char *copy = g_strndup(text, len);
  g_auto(GStrv) lines = g_strsplit(copy, "\n", -1);
  g_autoptr(GString) uncommented = g_string_sized_new(len + 1);
  NsKeyGroup *cur = NULL;
  for (int i = 0; lines[i] != NULL; i++) {
    int lineno = i + 1;
    g_autofree char *where = g_strdup_printf("%s:%d", path, lineno);
    if (hand)
      cut_comment(lines[i]);
    char *line = g_strstrip(lines[i]);
    g_string_append(g_string_append(uncommented, line), "\n");
    if (*line == '\0' || *line == '#')
      continue;
    if (*line == '[') {
      char *close = strrchr(line, ']');
      if (close == NULL || close[1] != '\0' || close == line + 1) {
        ns_keyfile_fail(error, where, "a group header must read [NAME]");
        goto bad;
      }
      g_autofree char *name = g_strndup(line + 1, (gsize)(close - line - 1));
      const NsKeyGroup *seen = ns_keyfile_find_group(groups, name);
      if (seen != NULL) {
        ns_keyfile_fail(error, where, "group [%s] is given twice (first at %s)", name, seen->where);
        goto bad;
      }
      cur = ns_keygroup_new(name, where);
      g_ptr_array_add(groups, cur);
      continue;
    }
    char *eq = strchr(line, '=');
    if (eq == NULL) {
      g_autofree char *shown = g_strescape(line, NULL);
      ns_keyfile_fail(error, where, "'%s' is neither a [group], a KEY = VALUE nor a # comment", shown);
      goto bad;
    }
    *eq = '\0';
    char *key = g_strstrip(line), *value = g_strstrip(eq + 1);
    if (*key == '\0') {
      ns_keyfile_fail(error, where, "a key is missing before '='");
      goto bad;
    }
    if (cur == NULL) {
      ns_keyfile_fail(error, where, "key '%s' comes before any [group]", key);
      goto bad;
    }
    const NsKeyEntry *seen = ns_keygroup_find(cur, key);
    if (seen != NULL) {
      ns_keyfile_fail(error, where, "key '%s' is given twice in [%s] (first at %s)", key, cur->name,
           seen->where);
      goto bad;
    }
    if (*value == '\0' && hand) {
      ns_keyfile_fail(error, where, "empty value for '%s'", key);
      goto bad;
    }
    /* A lone backslash at the end, refused here: GLib 2.74 sets its
     * "escape character at end of line" over the error of a bad escape
     * earlier in the same value (a GLib warning; found by fuzz_scenario). */
    gsize n = strlen(value), slashes = 0;
    while (slashes < n && value[n - 1 - slashes] == '\\')
      slashes++;
    if (slashes % 2 == 1) {
      ns_keyfile_fail(error, where, "the value of '%s' ends with a lone backslash (write \\\\ "
                      "for one)", key);
      goto bad;
    }
    NsKeyEntry *e = g_new0(NsKeyEntry, 1);
    e->key = g_strdup(key);
    e->where = g_strdup(where);
    g_ptr_array_add(cur->entries, e);
  }
  GError *kerr = NULL;
  if (!g_key_file_load_from_data(kf, uncommented->str, uncommented->len, G_KEY_FILE_NONE,
                                 &kerr)) {
    ns_set_error_at(error, NS_ERROR_INPUT, path, 0, "%s", kerr->message);
    g_error_free(kerr);
    goto bad;
  }
  for (guint k = 0; k < groups->len; k++) {
    NsKeyGroup *g = g_ptr_array_index(groups, k);
    for (guint j = 0; j < g->entries->len; j++) {
      NsKeyEntry *e = g_ptr_array_index(g->entries, j);
      e->value = g_key_file_get_string(kf, g->name, e->key, &kerr);
      /* A bad escape ("\q") gives a value AND an error: test the error,
       * or the next key's error is set over it (found by fuzz_sweep). */
      if (kerr != NULL) {
        ns_keyfile_fail(error, e->where, "%s", kerr->message);
        g_error_free(kerr);
        goto bad;
      }
      g_strstrip(e->value);
      if (*e->value == '\0' && hand) {
        ns_keyfile_fail(error, e->where, "empty value for '%s'", e->key);
        goto bad;
      }
    }
  }
  return groups;
bad:
  g_ptr_array_unref(groups);
  return NULL;
}


NsKeyEntry *ns_keygroup_add(NsKeyGroup *g, const char *key, const char *value, const char *where)
{
  NsKeyEntry *e = g_new0(NsKeyEntry, 1);
  e->key = g_strdup(key);
  e->value = g_strdup(value);
  e->where = g_strdup(where);
  g_ptr_array_add(g->entries, e);
  return e;
}

gboolean ns_keygroup_check_keys(const NsKeyGroup *g, const char *const *known, GError **error)
{
  for (guint i = 0; i < g->entries->len; i++) {
    const NsKeyEntry *e = g_ptr_array_index(g->entries, i);
    gboolean ok = FALSE;
    for (int k = 0; known[k] != NULL && !ok; k++)
      ok = strcmp(known[k], e->key) == 0;
    if (!ok) {
      g_autofree char *list = g_strjoinv(", ", (char **)known);
      g_autofree char *shown = g_strescape(e->key, NULL);
      return ns_keyfile_fail(error, e->where, "unknown key '%s' in [%s] (known: %s)", shown,
                             g->name, list);
    }
  }
  return TRUE;
}
