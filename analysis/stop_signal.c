/* netsched — the stop signals caught while children run (see stop_signal_internal.h). */
#include "analysis/stop_signal_internal.h"

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
G_STATIC_ASSERT(G_N_ELEMENTS(stop_signals) == G_N_ELEMENTS(((NsSignalGuard *)0)->old));

void ns_signals_catch(NsSignalGuard *g)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  stop_signal = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &sa, &g->old[i]);
}

void ns_signals_release(NsSignalGuard *g)
{
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    sigaction(stop_signals[i], &g->old[i], NULL);
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
  for (gsize i = 0; i < G_N_ELEMENTS(stop_signals); i++)
    signal(stop_signals[i], SIG_DFL);
}
