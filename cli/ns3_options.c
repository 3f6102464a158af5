/* netsched — the ns3 model's options (transport, window, retransmission
 * timeout, TCP's initial window, minimum RTO, delayed ACKs, MTU, event
 * scheduler): one table, one check, for `simulate` and `compare`
 * (docs/simulator.md, "The ns3 model"). */
#include "cli/cli_sim.h"
#include "sim/ns3_net.h"

void ns_cli_ns3_args_init(NsCliNs3Args *a)
{
  *a = (NsCliNs3Args){ .init_cwnd = 10, .mtu = 1500, .window = -1, .min_rto = 0.2,
                       .retransmit_timeout = NS_NS3_RETRANSMIT_TIMEOUT };
}

void ns_cli_ns3_args_clear(NsCliNs3Args *a)
{
  g_clear_pointer(&a->transport, g_free);
  g_clear_pointer(&a->scheduler, g_free);
  g_clear_pointer(&a->window_count, g_free);
}

void ns_cli_ns3_args_add(GOptionContext *ctx, NsCliNs3Args *a)
{
  GOptionEntry entries[] = {
    { "transport", 0, 0, G_OPTION_ARG_STRING, &a->transport,
      "ns3: tcp-persistent (default): one TCP connection per machine pair, opened before the "
      "collective and kept, as MPI's TCP transport; udp-window: Tam and Wang's user-level "
      "protocol over UDP (MTU items, a global window of --window per machine, per-item "
      "acknowledgements and retransmission)", "tcp-persistent|udp-window" },
    { "window", 0, 0, G_OPTION_ARG_INT, &a->window,
      "ns3 udp-window: a machine sends its next item while eta < W (Tam and Wang's global "
      "window W_g; --window-count says what eta counts; default: the schedule's window:W_g, "
      "else 5, the paper's on 8x2)", "W" },
    { "window-count", 0, 0, G_OPTION_ARG_STRING, &a->window_count,
      "ns3 udp-window: what the window counts. sent-received: Tam and Wang's eta, items sent "
      "minus items received (Algorithm 2), which stops a machine that sends W more than it "
      "receives (reported as a deadlock); unacked: items not yet acknowledged, which completes "
      "any schedule; auto (default): sent-received under the window scheme (window:W_g), "
      "unacked otherwise", "auto|sent-received|unacked" },
    { "retransmit-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &a->retransmit_timeout,
      "ns3 udp-window: least seconds before an unacknowledged item is sent again (above it "
      "TCP's estimate from round trips, RFC 6298), doubling on each retry (default 0.02)", "S" },
    { "init-cwnd", 0, 0, G_OPTION_ARG_INT, &a->init_cwnd,
      "ns3: TCP initial congestion window in segments (default 10, Linux's)", "N" },
    { "min-rto", 0, 0, G_OPTION_ARG_DOUBLE, &a->min_rto,
      "ns3: TCP minimum retransmission timeout in seconds (default 0.2, Linux's)", "S" },
    { "no-delayed-ack", 0, 0, G_OPTION_ARG_NONE, &a->no_delayed_ack,
      "ns3: acknowledge every TCP segment (default: every second one or after 40 ms, Linux's)",
      NULL },
    { "mtu", 0, 0, G_OPTION_ARG_INT, &a->mtu,
      "ns3: IP packet size in bytes (default 1500; 9000: jumbo frames); TCP segments are MTU "
      "- 52", "BYTES" },
    { "ns3-scheduler", 0, 0, G_OPTION_ARG_STRING, &a->scheduler,
      "ns3: ns-3's event scheduler (default map; every one gives the same results)", "heap|calendar|map" },
    { NULL },
  };
  g_option_context_add_main_entries(ctx, entries, NULL); /* GLib copies the table */
}

int ns_cli_ns3_args_apply(const NsCliNs3Args *a, const char *command, NsSimOptions *opt)
{
  if (a->init_cwnd < 1 || a->init_cwnd > 65535 || !(a->min_rto > 0 && a->min_rto <= 60) ||
      a->mtu < 576 || a->mtu > 65535)
    return ns_cli_usage(command, "--init-cwnd takes 1 to 65535 segments, --min-rto (0, 60] "
                                 "seconds and --mtu 576 to 65535 bytes");
  if ((a->window != -1 && (a->window < 1 || a->window > (1 << 20))) ||
      !(a->retransmit_timeout > 0 && a->retransmit_timeout <= 60))
    return ns_cli_usage(command, "--window takes 1 to 1048576 items and "
                                 "--retransmit-timeout (0, 60] seconds");
  GError *error = NULL;
  NsNs3Transport tr = (NsNs3Transport)opt->ns3_transport;
  NsNs3Scheduler sc = (NsNs3Scheduler)opt->ns3_scheduler;
  NsNs3WindowCount wc = (NsNs3WindowCount)opt->ns3_window_count;
  if ((a->transport != NULL && !ns_ns3_transport_parse(a->transport, &tr, &error)) ||
      (a->window_count != NULL && !ns_ns3_window_count_parse(a->window_count, &wc, &error)) ||
      (a->scheduler != NULL && !ns_ns3_scheduler_parse(a->scheduler, &sc, &error)))
    return ns_cli_fail(error);
  opt->ns3_transport = tr;
  opt->ns3_window_count = wc;
  opt->ns3_scheduler = sc;
  opt->ns3_window = a->window > 0 ? a->window : 0;
  opt->ns3_retransmit_timeout = a->retransmit_timeout;
  opt->ns3_init_cwnd = a->init_cwnd;
  opt->ns3_min_rto = a->min_rto;
  opt->ns3_no_delayed_ack = a->no_delayed_ack;
  opt->ns3_mtu = a->mtu;
  return 0;
}
