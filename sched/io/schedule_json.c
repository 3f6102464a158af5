/* netsched — Schedule IR as JSON. See schedule_json.h and
 * docs/schedule-format.md.
 *
 * Both directions stream (sched/io/schedule_stream.h): the reader validates
 * while it reads, with a tokenizer of its own (strict RFC 8259, nesting
 * <= 64, integers within int64, no duplicate top-level keys), never
 * building a document tree; the writer formats phase by phase. These are
 * the in-memory conveniences over them.
 */
#include "sched/io/schedule_json.h"
#include "platforms/model/error.h"
#include "sched/io/schedule_stream.h"

NsSchedule *ns_schedule_parse_json(const char *source, const char *text, gsize len,
                                   GError **error)
{
  g_return_val_if_fail(text != NULL || len == 0, NULL);
  if (source == NULL)
    source = "<schedule>";
  NsScheduleReader *r = ns_schedule_reader_new_for_data(source, text != NULL ? text : "", len);
  NsSchedule *s = ns_schedule_reader_read_all(r, error);
  ns_schedule_reader_free(r);
  return s;
}

NsSchedule *ns_schedule_load_json(const char *path, GError **error)
{
  return ns_schedule_load(path, error);
}

gboolean ns_schedule_write_json(const NsSchedule *s, FILE *out, GError **error)
{
  return ns_schedule_write(s, NS_SCHEDULE_JSON, out, error);
}

gboolean ns_schedule_save_json(const NsSchedule *s, const char *path, GError **error)
{
  return ns_schedule_save(s, NS_SCHEDULE_JSON, path, error);
}
