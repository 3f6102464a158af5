/* libFuzzer harness: the Schedule JSON reader (sched/schedule_json.c).
 * A schedule that parses is written back and re-read; the second text must
 * equal the first write (the writer and reader agree on everything). */
#include "fuzz/fuzz_common.h"
#include "sched/schedule_json.h"

#include <string.h>

#define SOURCE "fuzz.json"

static char *write_text(const NsSchedule *s, size_t *len)
{
  char *text = NULL;
  FILE *out = open_memstream(&text, len);
  NS_FUZZ_CHECK(out != NULL, "open_memstream");
  GError *err = NULL;
  gboolean ok = ns_schedule_write_json(s, out, &err);
  NS_FUZZ_CHECK(ok, "cannot write a schedule that was read: %s", err ? err->message : "?");
  fclose(out);
  return text;
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
  if (s != NULL) {
    size_t len1, len2;
    char *text1 = write_text(s, &len1);
    NsSchedule *again = ns_schedule_parse_json("rewritten.json", text1, len1, &err);
    NS_FUZZ_CHECK(again != NULL, "written schedule does not re-read: %s\n--- written:\n%s",
                  err ? err->message : "?", text1);
    char *text2 = write_text(again, &len2);
    NS_FUZZ_CHECK(len1 == len2 && memcmp(text1, text2, len1) == 0,
                  "round trip changed the schedule:\n%s\n---\n%s", text1, text2);
    free(text2);
    free(text1);
    ns_schedule_free(again);
    ns_schedule_free(s);
  }
  g_clear_error(&err);
  return 0;
}
