/* netsched — the one progress reporter of every long command (plan -o,
 * verify, simulate, compare, design, scenario, sweep) and its estimate of
 * the time left.
 *
 * Two forms, chosen by the mode (docs/simulator.md, "Progress"):
 *   - BAR, for a person at a terminal: one line redrawn in place ("\r") at
 *     most four times a second, the first after half a second (short work
 *     stays quiet), cleared at the end;
 *   - LINES, for logs and batch jobs: a plain line (no carriage return)
 *     every `interval` seconds (default 10), and a last "done" line when
 *     any was printed, e.g.
 *       compare: 5/12 rows (42 %), 1m40s, about 2m20s left; faraj 64KiB: 340/992 messages
 * AUTO is BAR when the stream is a terminal, else LINES; NONE prints
 * nothing. The stream is the caller's (the CLI passes stderr): the
 * reporter itself never picks one.
 *
 * Work is counted in units (rows of compare, design and sweep; one
 * schedule for simulate), each with a weight; the item running now
 * reports the fraction of it done (the simulator: messages delivered), so
 * the count moves between rows. Units kept from an earlier run (resume)
 * count as done but not into the rate.
 *
 * Every function accepts NULL for the reporter and then does nothing. */
#ifndef NETSCHED_PROGRESS_H
#define NETSCHED_PROGRESS_H

#include <glib.h>
#include <stdio.h>

typedef enum { NS_PROGRESS_AUTO, NS_PROGRESS_BAR, NS_PROGRESS_LINES, NS_PROGRESS_NONE } NsProgressMode;

/* "auto", "bar", "lines", "none"; NS_ERROR_INPUT "--progress 'x': ..." */
gboolean ns_progress_mode_parse(const char *text, NsProgressMode *mode, GError **error);

/* ---- the estimate of the time left ------------------------------------------------------ */

/* The time left from the work done so far in this run at its average rate
 * since the start: remaining units / (units done by this run / elapsed).
 * It converges: it tends to 0 as the work done tends to the total, and
 * it is "not known" (negative) rather than absurd while too little is
 * done to say — under 5 % of the work this run has to do, or under one
 * second — because a simulation may deliver its first messages slowly and
 * the rest in a burst (an estimate from 1 % of the messages once said
 * "2089 s left" one second before the end). Never more than
 * 19 x the elapsed time, by the 5 % rule. */
typedef struct {
  double total;   /* units of the whole run */
  double base;    /* units done before the run (resumed): not part of the rate */
  double t0;      /* the start, seconds on any clock */
} NsEta;

void ns_eta_init(NsEta *e, double total, double done_before, double t0);
/* Units kept from an earlier run found after the start: done, not rated. */
void ns_eta_skip(NsEta *e, double units);
/* Seconds left at time `now` with `done` units done (resumed ones
 * included), or -1 when not known yet. 0 once done >= total. */
double ns_eta_left(const NsEta *e, double done, double now);

/* ---- the reporter ----------------------------------------------------------------------- */

typedef struct NsProgress NsProgress;

/* `what` starts every line ("compare"; "": the detail alone, then the
 * elapsed time), `unit` names the units in plural ("rows"; NULL: show a
 * percentage only). `interval` <= 0: 10 s. */
NsProgress *ns_progress_new(FILE *stream, NsProgressMode mode, double interval, const char *what,
                            const char *unit);
/* Finishes (ns_progress_finish) and frees. */
void ns_progress_free(NsProgress *p);
/* FALSE for NULL and for NONE: callers may skip building detail texts. */
gboolean ns_progress_on(const NsProgress *p);
/* Adds `units` to the work of the run (several calls add up), e.g. each
 * experiment of a study. The clock starts when the reporter is made. */
void ns_progress_add_total(NsProgress *p, double units);
/* Units kept from an earlier run: done, not part of the rate. */
void ns_progress_skip(NsProgress *p, double units);
/* Starts an item of `weight` units named by the format ("faraj 64KiB");
 * shown with the next update. */
void ns_progress_item(NsProgress *p, double weight, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* The running item is `fraction` (0..1) done; the format says how (the
 * simulator's "340/992 messages, 1.234 s simulated"). Prints when due. */
void ns_progress_detail(NsProgress *p, double fraction, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* BAR: removes the line now (redrawn at the next update), before the
 * caller prints on the same terminal. LINES: nothing. */
void ns_progress_clear(NsProgress *p);
/* The running item is done: its weight counts. Prints when due. */
void ns_progress_item_done(NsProgress *p);
/* `units` finished outside any item (a sweep's rows, in any order). */
void ns_progress_add(NsProgress *p, double units);
/* Prints nothing from now on: a forked worker calls it on its copy (the
 * parent's reporter speaks for everyone). */
void ns_progress_silence(NsProgress *p);
/* The end: clears the bar, or prints the "done" line when lines were
 * printed. Idempotent. */
void ns_progress_finish(NsProgress *p);

/* Tests only: the clock of every reporter from now on, in µs (NULL: the
 * monotonic clock), so that lines naming the elapsed time are exact
 * whatever the machine's load. */
void ns_progress_use_clock(gint64 (*now)(void));

/* "1h02m", "3m05s", "42s" (for lines and reports). Newly allocated. */
char *ns_progress_duration(double seconds);

#endif
