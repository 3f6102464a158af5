/* netsched — the stop signals (SIGINT, SIGTERM, SIGHUP) caught while this
 * process waits for processes of its own: the simulator's children
 * (sim/child.h) and the worker pool's workers (analysis/pool_internal.h).
 *
 * While caught, a stop signal only sets a flag (and interrupts a blocking
 * poll or wait: no SA_RESTART); the waiting loop stops its processes,
 * reaps them, the caller removes what it made, and ns_signals_release()
 * restores the caller's handlers and raises the signal again, so an
 * interrupted run leaves no process and no file behind and ends by the
 * signal (exit status 128 + N in a shell).
 */
#ifndef NETSCHED_STOP_SIGNAL_H
#define NETSCHED_STOP_SIGNAL_H

#include <glib.h>
#include <signal.h>

typedef struct {
  struct sigaction old[3];
} NsSignalGuard;

/* Catches the stop signals (the flag is cleared). */
void ns_signals_catch(NsSignalGuard *g);
/* Restores the caller's handlers; re-raises a stop signal that arrived. */
void ns_signals_release(NsSignalGuard *g);
/* The stop signal that arrived since ns_signals_catch(), or 0. */
int ns_stop_signal(void);
/* The stop signals as a set (to block them: pthread_sigmask, sigprocmask). */
void ns_stop_signal_set(sigset_t *set);
/* In a forked child: the default action for every stop signal again. */
void ns_signals_default(void);

/* Files a stop signal removes before it ends the process by its default
 * action: an output directory's lock file (analysis/output_dir.c) and the
 * CLI's temporary outputs (cli/output.c). The handler unlinks every path
 * registered by this process (never a forked child's parent's), then
 * raises the signal again; it is installed at the first registration
 * (after the ns_signals_catch() window, if one is open; not over SIG_IGN,
 * e.g. under nohup). ns_stop_remove_add returns the slot of a copy of
 * `path`, or -1 when all NS_STOP_REMOVE_MAX slots are taken;
 * ns_stop_remove_drop(slot) forgets it (-1: nothing). O(NS_STOP_REMOVE_MAX). */
#define NS_STOP_REMOVE_MAX 64
int ns_stop_remove_add(const char *path);
void ns_stop_remove_drop(int slot);

#endif
