/* libFuzzer harness: the schedule readers (sched/io/schedule_stream_read.c and
 * its tokenizer; JSON, JSON Lines, gzip and zstd are all recognised by
 * content, so one harness reaches every path).
 *
 * Contracts checked on every input:
 *  - the reader gives a schedule or an error naming the source, never both;
 *  - reads of 1 byte and of a few bytes at a time give exactly the result
 *    of one read of everything (the same message, or the same schedule):
 *    no token, escape or UTF-8 sequence is misread at a buffer boundary;
 *  - the general path alone (no fast path for transfers) gives it too;
 *  - the streaming API (header, phases one at a time, finish) agrees with
 *    reading the whole schedule;
 *  - a schedule that reads is written back as JSON and re-read, the second
 *    text equal to the first; and written as JSON Lines, re-read and
 *    written as JSON again, the same text (JSON -> JSON Lines -> JSON). */
#include "fuzz/fuzz_common.h"
#include "sched/io/schedule_json.h"
#include "sched/io/schedule_stream.h"
#include "sched/io/schedule_stream_internal.h"

#include <string.h>

#define SOURCE "fuzz.json"

static char *write_text(const NsSchedule *s, NsScheduleFormat format, size_t *len)
{
  char *text = NULL;
  FILE *out = open_memstream(&text, len);
  NS_FUZZ_CHECK(out != NULL, "open_memstream");
  GError *err = NULL;
  gboolean ok = ns_schedule_write(s, format, out, &err);
  NS_FUZZ_CHECK(ok, "cannot write a schedule that was read: %s", err ? err->message : "?");
  fclose(out);
  return text;
}

static NsSchedule *read_in(const uint8_t *data, size_t size, gsize read_size,
                           gboolean general_only, GError **err)
{
  NsScheduleReader *r = ns_schedule_reader_new_for_data(SOURCE, data, size);
  ns_schedule_reader_set_read_size(r, read_size);
  ns_schedule_reader_set_general_only(r, general_only);
  NsSchedule *s = ns_schedule_reader_read_all(r, err);
  ns_schedule_reader_free(r);
  return s;
}

/* The same outcome: both errors with one message, or equal schedules. */
static void check_same(const NsSchedule *a, const GError *ea, const NsSchedule *b,
                       const GError *eb, const char *what)
{
  NS_FUZZ_CHECK((a == NULL) == (b == NULL), "%s: %s vs %s", what, ea ? ea->message : "a schedule",
                eb ? eb->message : "a schedule");
  if (a == NULL) {
    NS_FUZZ_CHECK(strcmp(ea->message, eb->message) == 0, "%s: '%s' vs '%s'", what, ea->message,
                  eb->message);
    return;
  }
  size_t la, lb;
  char *ta = write_text(a, NS_SCHEDULE_JSON, &la), *tb = write_text(b, NS_SCHEDULE_JSON, &lb);
  NS_FUZZ_CHECK(la == lb && memcmp(ta, tb, la) == 0, "%s: different schedules", what);
  free(ta);
  free(tb);
}

/* Header, phases and tail one at a time: the counts of the whole read. */
static void check_streaming(const uint8_t *data, size_t size, const NsSchedule *whole)
{
  NsScheduleReader *r = ns_schedule_reader_new_for_data(SOURCE, data, size);
  GError *err = NULL;
  const NsSchedule *h = ns_schedule_reader_header(r, &err);
  NS_FUZZ_CHECK(h != NULL, "header of a schedule that reads: %s", err ? err->message : "?");
  NsPhase ph;
  uint64_t transfers = 0;
  uint32_t phases = 0;
  int got;
  while ((got = ns_schedule_reader_next_phase(r, &ph, &err)) > 0) {
    NS_FUZZ_CHECK(ph.index == phases && ph.first == transfers, "phase numbering");
    phases++;
    transfers += ph.n;
  }
  NS_FUZZ_CHECK(got == 0, "phases of a schedule that reads: %s", err ? err->message : "?");
  NsSchedule *tail = ns_schedule_reader_finish(r, &err);
  NS_FUZZ_CHECK(tail != NULL, "tail of a schedule that reads: %s", err ? err->message : "?");
  NS_FUZZ_CHECK(phases == ns_schedule_n_phases(whole) &&
                    transfers == ns_schedule_n_transfers(whole) &&
                    tail->sync->len == whole->sync->len,
                "streaming disagrees with the whole read");
  ns_schedule_free(tail);
  ns_schedule_reader_free(r);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  ns_fuzz_setup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  GError *err = NULL;
  NsSchedule *s = ns_schedule_parse_json(SOURCE, (const char *)data, size, &err);
  ns_fuzz_check_result(s, err, SOURCE);

  /* reads of 1 byte, and of 2 to 9 (chosen by the input) */
  gsize small = 2 + (size > 0 ? data[size - 1] % 8 : 0);
  const gsize sizes[] = { 1, small, 0 };
  for (unsigned i = 0; i < G_N_ELEMENTS(sizes); i++) {
    GError *e2 = NULL;
    /* 0: one read of everything, through the general path only */
    NsSchedule *s2 = read_in(data, size, sizes[i] > 0 ? sizes[i] : size + 1, sizes[i] == 0, &e2);
    check_same(s, err, s2, e2, sizes[i] == 1 ? "reads of 1 byte" : sizes[i] > 0 ? "small reads"
                                                                              : "the general path");
    g_clear_error(&e2);
    ns_schedule_free(s2);
  }

  if (s != NULL) {
    check_streaming(data, size, s);
    size_t len1, len2, len3, len4;
    char *text1 = write_text(s, NS_SCHEDULE_JSON, &len1);
    NsSchedule *again = ns_schedule_parse_json("rewritten.json", text1, len1, &err);
    NS_FUZZ_CHECK(again != NULL, "written schedule does not re-read: %s\n--- written:\n%s",
                  err ? err->message : "?", text1);
    char *text2 = write_text(again, NS_SCHEDULE_JSON, &len2);
    NS_FUZZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0,
                  "round trip changed the schedule:\n%s\n---\n%s", text1, text2);
    /* JSON -> JSON Lines -> JSON */
    char *lines = write_text(s, NS_SCHEDULE_JSONL, &len3);
    NsSchedule *from_lines = ns_schedule_parse_json("rewritten.jsonl", lines, len3, &err);
    NS_FUZZ_CHECK(from_lines != NULL, "written JSON Lines do not re-read: %s\n--- written:\n%s",
                  err ? err->message : "?", lines);
    char *text4 = write_text(from_lines, NS_SCHEDULE_JSON, &len4);
    NS_FUZZ_CHECK(len1 == len4 && memcmp(text1, text4, len1) == 0,
                  "JSON -> JSON Lines -> JSON changed the text:\n%s\n---\n%s", text1, text4);
    free(text4);
    free(lines);
    free(text2);
    free(text1);
    ns_schedule_free(from_lines);
    ns_schedule_free(again);
    ns_schedule_free(s);
  }
  g_clear_error(&err);
  return 0;
}
