/* netsched — the inverse of hostlist expansion: names -> "n[0-7,12]". */
#include "platforms/io/hostlist_compress_internal.h"
#include <string.h>

/* Splits "node012" into prefix "node", number 12 and digit width 3.
 * Returns FALSE when the name does not end in digits. */
static gboolean split_name(const char *name, gsize *prefix_len, guint64 *number, int *width)
{
  gsize len = strlen(name), i = len;
  while (i > 0 && g_ascii_isdigit(name[i - 1]))
    i--;
  if (i == len || len - i > 9)
    return FALSE;
  *prefix_len = i;
  *number = g_ascii_strtoull(name + i, NULL, 10);
  *width = (int)(len - i);
  return TRUE;
}

/* Can `name` extend a run with this prefix, width, and next number? Zero
 * padding must match exactly so the expansion gives the names back. */
static gboolean same_family(const char *name, const char *prefix, gsize prefix_len, int width,
                            guint64 *number)
{
  gsize pl;
  int w;
  if (!split_name(name, &pl, number, &w) || pl != prefix_len ||
      strncmp(name, prefix, prefix_len) != 0)
    return FALSE;
  /* Unpadded numbers may grow in width (n9, n10); padded ones may not. */
  gboolean padded = width > 1 && prefix[prefix_len] == '0';
  return padded ? w == width : (name[pl] != '0' || w == 1);
}

char *ns_hostlist_compress(const char *const *names, int n)
{
  GString *out = g_string_new(NULL);
  int i = 0;
  while (i < n) {
    gsize pl;
    guint64 num;
    int width;
    if (out->len > 0)
      g_string_append_c(out, ',');
    if (!split_name(names[i], &pl, &num, &width)) {
      g_string_append(out, names[i++]);
      continue;
    }
    /* Collect ranges of the same family: prefix[a-b,c,...]. */
    GString *ranges = g_string_new(NULL);
    int members = 0;
    guint64 next, prev_end = 0;
    int j = i;
    while (j < n) {
      guint64 start;
      /* Keep the lists ascending, so every expander reads them back. */
      if (!same_family(names[j], names[i], pl, width, &start) ||
          (ranges->len > 0 && start <= prev_end))
        break;
      guint64 end = start;
      int k = j + 1;
      while (k < n && same_family(names[k], names[i], pl, width, &next) && next == end + 1) {
        end = next;
        k++;
      }
      gboolean padded = width > 1 && names[i][pl] == '0';
      int w = padded ? width : 1;
      if (ranges->len > 0)
        g_string_append_c(ranges, ',');
      if (end == start)
        g_string_append_printf(ranges, "%0*" G_GUINT64_FORMAT, w, start);
      else
        g_string_append_printf(ranges, "%0*" G_GUINT64_FORMAT "-%0*" G_GUINT64_FORMAT, w,
                               start, w, end);
      members += k - j;
      prev_end = end;
      j = k;
    }
    if (members == 1)
      g_string_append(out, names[i]);
    else
      g_string_append_printf(out, "%.*s[%s]", (int)pl, names[i], ranges->str);
    g_string_free(ranges, TRUE);
    i = j;
  }
  return g_string_free(out, FALSE);
}
