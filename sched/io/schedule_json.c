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

/**
 * \function ns_schedule_parse_json
 * \brief Reads a schedule held in memory.
 *
 * JSON, JSON Lines, gzip and zstd data are recognised. Strict RFC 8259:
 * nesting <= 64, integers within int64, no duplicate top-level keys; every
 * index is range-checked, so a schedule that parses can be verified
 * without further checks of its shape. Streams: no document tree.
 *
 * \param source Name used in messages (NULL: "<schedule>").
 * \param text, len The data (need not be NUL-terminated).
 * \param error Set on failure (see errors).
 * \return The schedule (ns_schedule_free() it), or NULL.
 * \errors NS_ERROR_INPUT "source:LINE:COLUMN: what" for syntax errors,
 *         "source: $.phases[3][7][1]: what" for schema errors (a JSON path to
 *         the value at fault).
 * \complexity O(len) time; memory O(the schedule).
 * \source docs/schedule-format.md.
 */
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

/**
 * \function ns_schedule_load_json
 * \brief Reads a schedule file in either format, compressed or not.
 *
 * \param path The file; "-" reads standard input (named <stdin> in
 *        messages).
 * \param error Set on failure (see errors).
 * \return The schedule (ns_schedule_free() it), or NULL.
 * \errors NS_ERROR_IO when the file cannot be read; the errors of
 *         ns_schedule_parse_json() "PATH:LINE:COLUMN: what".
 * \complexity O(file size) time; memory O(the schedule).
 * \source docs/schedule-format.md.
 */
NsSchedule *ns_schedule_load_json(const char *path, GError **error)
{
  return ns_schedule_load(path, error);
}

/**
 * \function ns_schedule_write_json
 * \brief Writes a schedule as a JSON document, phase by phase.
 *
 * \param s The schedule.
 * \param out The stream (checked for write errors).
 * \param error Set on failure (see errors).
 * \return TRUE when everything was written.
 * \errors NS_ERROR_INPUT for what the format cannot express, NS_ERROR_IO for
 *         write errors.
 * \complexity O(schedule) time; no copy of the schedule.
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_write_json(const NsSchedule *s, FILE *out, GError **error)
{
  return ns_schedule_write(s, NS_SCHEDULE_JSON, out, error);
}

/**
 * \function ns_schedule_save_json
 * \brief Writes a schedule as JSON into a file, whole or not at all.
 *
 * Into a temporary file beside `path`, renamed over it when complete (a
 * link at `path` is replaced, never followed); compressed when the name
 * ends in .gz or .zst.
 *
 * \param s The schedule.
 * \param path The file.
 * \param error Set on failure (see errors).
 * \return TRUE when the file was written.
 * \errors Those of ns_schedule_write_json(), "PATH: what".
 * \complexity O(schedule).
 * \source docs/schedule-format.md.
 */
gboolean ns_schedule_save_json(const NsSchedule *s, const char *path, GError **error)
{
  return ns_schedule_save(s, NS_SCHEDULE_JSON, path, error);
}
