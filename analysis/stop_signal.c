/* netsched — the stop signals caught while children run (see stop_signal_internal.h). */
#include "analysis/stop_signal_internal.h"
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
G_STATIC_ASSERT(G_N_ELEMENTS(stop_signals) == G_N_ELEMENTS(((NsSignalGuard *)0)->old));

/* The files a stop signal removes: a fixed table the handler walks
 * without allocating; a path is published (its copy made first) and
 * unpublished (before it is freed) with the stop signals blocked. */
static char *volatile removed[NS_STOP_REMOVE_MAX];
static volatile pid_t removed_by[NS_STOP_REMOVE_MAX];
static int catch_depth;             /* open ns_signals_catch() windows */
static gboolean remove_handler_due; /* a registration inside a window */

static void remove_and_die(int sig)
{
  pid_t self = getpid(); /* a forked child inherits the table, not the files */
  for (int i = 0; i < NS_STOP_REMOVE_MAX; i++) {
    char *path = removed[i];
    if (path != NULL && removed_by[i] == self)
      unlink(path); /* async-signal-safe */
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_remove_handler(void)
{
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++) {
    struct sigaction old, sa = { 0 };
    sigaction(stop_signals[i], NULL, &old);
    if (old.sa_handler == SIG_IGN || old.sa_handler == remove_and_die)
      continue; /* e.g. nohup: keep ignoring */
    sa.sa_handler = remove_and_die;
    sigemptyset(&sa.sa_mask);
    sigaction(stop_signals[i], &sa, NULL);
  }
}

void ns_signals_catch(NsSignalGuard *g)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  stop_signal = 0;
  catch_depth++;
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &sa, &g->old[i]);
}

void ns_signals_release(NsSignalGuard *g)
{
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &g->old[i], NULL);
  if (catch_depth > 0 && --catch_depth == 0 && remove_handler_due) {
    remove_handler_due = FALSE;
    install_remove_handler();
  }
  if (stop_signal != 0)
    raise(stop_signal);
}

int ns_stop_signal(void) { return stop_signal; }

void ns_stop_signal_set(sigset_t *set)
{
  sigemptyset(set);
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaddset(set, stop_signals[i]);
}

void ns_signals_default(void)
{
  stop_signal = 0;
  catch_depth = 0; /* a forked child is in no window of its own */
  remove_handler_due = FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    signal(stop_signals[i], SIG_DFL);
}

int ns_stop_remove_add(const char *path)
{
  sigset_t stops, old;
  ns_stop_signal_set(&stops);
  sigprocmask(SIG_BLOCK, &stops, &old);
  int slot = -1;
  for (int i = 0; i < NS_STOP_REMOVE_MAX && slot < 0; i++)
    if (removed[i] == NULL)
      slot = i;
  if (slot >= 0) {
    removed_by[slot] = getpid();
    removed[slot] = g_strdup(path);
    if (catch_depth > 0)
      remove_handler_due = TRUE; /* the window's handler stays until it closes */
    else
      install_remove_handler();
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return slot;
}

void ns_stop_remove_drop(int slot)
{
  if (slot < 0 || slot >= NS_STOP_REMOVE_MAX)
    return;
  sigset_t stops, old;
  ns_stop_signal_set(&stops);
  sigprocmask(SIG_BLOCK, &stops, &old);
  char *path = removed[slot];
  removed[slot] = NULL;
  sigprocmask(SIG_SETMASK, &old, NULL);
  g_free(path);
}
