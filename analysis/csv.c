/* netsched — RFC 4180 CSV fields. See csv_internal.h. */
#include "analysis/csv_internal.h"
#include <string.h>

void ns_csv_append(GString *row, const char *field)
{
  if (row->len > 0)
    g_string_append_c(row, ',');
  if (field == NULL)
    return;
  if (strpbrk(field, ",\"\r\n") == NULL) {
    g_string_append(row, field);
    return;
  }
  g_string_append_c(row, '"');
  for (const char *p = field; *p != '\0'; p++) {
    if (*p == '"')
      g_string_append_c(row, '"');
    g_string_append_c(row, *p);
  }
  g_string_append_c(row, '"');
}

void ns_csv_appendf(GString *row, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *field = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  ns_csv_append(row, field);
}

void ns_csv_append_bound(GString *row, int digits, double value)
{
  if (value > 0)
    ns_csv_appendf(row, "%.*f", digits, value);
  else
    ns_csv_append(row, "");
}

char **ns_csv_split(const char *line)
{
  GPtrArray *fields = g_ptr_array_new();
  GString *cur = g_string_new(NULL);
  const char *p = line;
  for (;;) {
    g_string_truncate(cur, 0);
    if (*p == '"') { /* quoted: up to the closing quote, "" is one quote */
      for (p++;; p++) {
        if (*p == '\0')
          goto malformed;
        if (*p == '"') {
          if (p[1] != '"')
            break;
          p++;
        }
        g_string_append_c(cur, *p);
      }
      p++;
      if (*p != ',' && *p != '\0')
        goto malformed;
    } else {
      for (; *p != ',' && *p != '\0'; p++) {
        if (*p == '"')
          goto malformed;
        g_string_append_c(cur, *p);
      }
    }
    g_ptr_array_add(fields, g_strdup(cur->str));
    if (*p == '\0')
      break;
    p++; /* the comma */
  }
  g_string_free(cur, TRUE);
  g_ptr_array_add(fields, NULL);
  return (char **)g_ptr_array_free(fields, FALSE);
malformed:
  g_string_free(cur, TRUE);
  g_ptr_array_set_free_func(fields, g_free);
  g_ptr_array_free(fields, TRUE);
  return NULL;
}
