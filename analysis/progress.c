/* netsched — the progress reporter and its estimate of the time left (see
 * progress_internal.h). */
#include "analysis/progress_internal.h"
#include "platforms/model/error.h"
#include <string.h>
#include <unistd.h>

gboolean ns_progress_mode_parse(const char *text, NsProgressMode *mode, GError **error)
{
  static const char *const names[] = { "auto", "bar", "lines", "none" };
  for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
    if (strcmp(text, names[i]) == 0) {
      *mode = (NsProgressMode)i;
      return TRUE;
    }
  g_autofree char *shown = g_strescape(text, NULL);
  ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                  "--progress '%s': expected auto, bar, lines or none", shown);
  return FALSE;
}

/* ---- the estimate ------------------------------------------------------------------------ */

void ns_eta_init(NsEta *e, double total, double done_before, double t0)
{
  *e = (NsEta){ .total = total, .base = done_before, .t0 = t0 };
}

void ns_eta_skip(NsEta *e, double units)
{
  e->base += units;
}

double ns_eta_left(const NsEta *e, double done, double now)
{
  if (done >= e->total)
    return 0;
  double ran = done - e->base, to_run = e->total - e->base, elapsed = now - e->t0;
  /* Under 5 % of this run's work the rate says little (see progress_internal.h). */
  if (!(ran > 0) || ran < 0.05 * to_run || elapsed < 1)
    return -1;
  return (e->total - done) * elapsed / ran;
}

char *ns_progress_duration(double s)
{
  if (!(s >= 0) || s > 1e8)
    return g_strdup("?");
  long t = (long)(s + 0.5);
  if (t >= 3600)
    return g_strdup_printf("%ldh%02ldm", t / 3600, t / 60 % 60);
  if (t >= 60)
    return g_strdup_printf("%ldm%02lds", t / 60, t % 60);
  return g_strdup_printf("%lds", t);
}

/* ---- the reporter ------------------------------------------------------------------------ */

struct NsProgress {
  FILE *stream;
  NsProgressMode mode;  /* BAR, LINES or NONE */
  gint64 interval;      /* µs between lines (LINES) */
  char *what, *unit;
  gboolean started;
  NsEta eta;
  double done;          /* units done, resumed ones included */
  double item_weight, item_fraction;
  char *item, *detail;
  gint64 start, next;   /* monotonic µs */
  gboolean drawn;       /* a line was drawn or printed */
  gboolean visible;     /* BAR: a line is on the screen now */
  gboolean finished;
};

static void start(NsProgress *p);

/* The reporter's clock: the monotonic one, or a test's (a stall of the
 * test process must not change the lines it compares). */
static gint64 (*clock_now)(void) = g_get_monotonic_time;

void ns_progress_use_clock(gint64 (*now)(void))
{
  clock_now = now != NULL ? now : g_get_monotonic_time;
}

NsProgress *ns_progress_new(FILE *stream, NsProgressMode mode, double interval, const char *what,
                            const char *unit)
{
  NsProgress *p = g_new0(NsProgress, 1);
  if (mode == NS_PROGRESS_AUTO)
    mode = isatty(fileno(stream)) ? NS_PROGRESS_BAR : NS_PROGRESS_LINES;
  p->stream = stream;
  p->mode = mode;
  p->interval = (gint64)((interval > 0 ? interval : 10) * 1e6);
  p->what = g_strdup(what != NULL ? what : "");
  p->unit = g_strdup(unit);
  start(p); /* the clock of the elapsed time and the estimate */
  return p;
}

gboolean ns_progress_on(const NsProgress *p)
{
  return p != NULL && p->mode != NS_PROGRESS_NONE;
}

static void start(NsProgress *p)
{
  if (p->started)
    return;
  p->started = TRUE;
  p->start = clock_now();
  ns_eta_init(&p->eta, 0, 0, p->start / 1e6);
  /* BAR: the first redraw after half a second, so short work stays quiet */
  p->next = p->start + (p->mode == NS_PROGRESS_BAR ? 500000 : p->interval);
}

void ns_progress_add_total(NsProgress *p, double units)
{
  if (p == NULL)
    return;
  start(p);
  p->eta.total += units;
}

/* "compare: 5/12 rows (42 %), 1m40s, about 2m20s left; faraj 64KiB: 340/992 messages";
 * without a total (plan -o): "plan: 1m40s; 12 phases, 4096 transfers written". */
static char *line_text(const NsProgress *p, gint64 now, gboolean final)
{
  double done = p->done + p->item_weight * p->item_fraction;
  double elapsed = (now - p->start) / 1e6;
  g_autofree char *took = ns_progress_duration(elapsed);
  if (p->what[0] == '\0') /* the detail says it all: "plan: 7 phases, 56 transfers written (12s)" */
    return final ? g_strdup_printf("%s, done in %s", p->detail ? p->detail : "", took)
                 : g_strdup_printf("%s (%s)", p->detail ? p->detail : "", took);
  GString *t = g_string_new(p->what);
  g_string_append(t, ": ");
  if (p->unit != NULL && p->eta.total > 0)
    g_string_append_printf(t, "%.0f/%.0f %s ", p->done, p->eta.total, p->unit);
  if (final) {
    g_string_append_printf(t, "done in %s", took);
    return g_string_free(t, FALSE);
  }
  if (p->eta.total > 0) {
    double pct = MIN(100 * done / p->eta.total, 100);
    g_string_append_printf(t, p->unit != NULL ? "(%.0f %%), %s" : "%.0f %%, %s", pct, took);
    double left = ns_eta_left(&p->eta, done, now / 1e6);
    if (left >= 0) {
      g_autofree char *shown = ns_progress_duration(left);
      g_string_append_printf(t, ", about %s left", shown);
    }
  } else {
    g_string_append(t, took);
  }
  if (p->item != NULL)
    g_string_append_printf(t, "; %s", p->item);
  if (p->detail != NULL)
    g_string_append_printf(t, "%s%s", p->item != NULL ? ": " : "; ", p->detail);
  return g_string_free(t, FALSE);
}

static void show(NsProgress *p)
{
  if (!ns_progress_on(p) || p->finished)
    return;
  start(p);
  gint64 now = clock_now();
  if (now < p->next)
    return;
  g_autofree char *text = line_text(p, now, FALSE);
  if (p->mode == NS_PROGRESS_BAR) {
    fprintf(p->stream, "\r%-78.78s", text);
    p->next = now + 250000;
    p->visible = TRUE;
  } else {
    fprintf(p->stream, "%s\n", text);
    p->next = now + p->interval;
  }
  fflush(p->stream);
  p->drawn = TRUE;
}

void ns_progress_skip(NsProgress *p, double units)
{
  if (p == NULL)
    return;
  start(p);
  p->done += units;
  ns_eta_skip(&p->eta, units);
}

void ns_progress_item(NsProgress *p, double weight, const char *fmt, ...)
{
  if (p == NULL)
    return;
  start(p);
  va_list ap;
  va_start(ap, fmt);
  g_free(p->item);
  p->item = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_clear_pointer(&p->detail, g_free);
  p->item_weight = weight;
  p->item_fraction = 0;
}

void ns_progress_detail(NsProgress *p, double fraction, const char *fmt, ...)
{
  if (!ns_progress_on(p))
    return;
  va_list ap;
  va_start(ap, fmt);
  g_free(p->detail);
  p->detail = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  p->item_fraction = CLAMP(fraction, 0, 1);
  show(p);
}

/* BAR: removes the line, so what the command prints next (a table row on
 * stdout, often the same terminal) starts on a clean line. */
void ns_progress_clear(NsProgress *p)
{
  if (p == NULL || !p->visible)
    return;
  fprintf(p->stream, "\r%-78s\r", "");
  fflush(p->stream);
  p->visible = FALSE;
}

void ns_progress_item_done(NsProgress *p)
{
  if (p == NULL)
    return;
  ns_progress_clear(p);
  double w = p->item_weight;
  g_clear_pointer(&p->item, g_free);
  g_clear_pointer(&p->detail, g_free);
  p->item_weight = p->item_fraction = 0;
  ns_progress_add(p, w);
}

void ns_progress_add(NsProgress *p, double units)
{
  if (p == NULL)
    return;
  start(p);
  p->done += units;
  show(p);
}

void ns_progress_silence(NsProgress *p)
{
  if (p != NULL)
    p->mode = NS_PROGRESS_NONE;
}

void ns_progress_finish(NsProgress *p)
{
  if (p == NULL || p->finished)
    return;
  p->finished = TRUE;
  if (!p->drawn)
    return;
  if (p->mode == NS_PROGRESS_BAR) {
    ns_progress_clear(p);
  } else {
    g_autofree char *text = line_text(p, clock_now(), TRUE);
    fprintf(p->stream, "%s\n", text);
  }
  fflush(p->stream);
}

void ns_progress_free(NsProgress *p)
{
  if (p == NULL)
    return;
  ns_progress_finish(p);
  g_free(p->what);
  g_free(p->unit);
  g_free(p->item);
  g_free(p->detail);
  g_free(p);
}
