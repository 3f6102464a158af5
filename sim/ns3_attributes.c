/* netsched — the ns-3 attribute defaults `simulate --ns3` accepts. See
 * ns3_attributes.h.
 *
 * How the table was obtained (ns-3 3.37 as shipped by Debian 12 —
 * libns3.37 3.37-2, libns3-dev for the headers — driven by SimGrid 3.32,
 * libsimgrid3.32 3.32-2):
 *
 *  1. Which classes a packet simulation instantiates. SimGrid's ns-3 model
 *     (src/surf/network_ns3.cpp in SimGrid's source package) installs
 *     InternetStackHelper on every node, joins two nodes per link with
 *     PointToPointHelper (PointToPointNetDevice with its DataRate,
 *     PointToPointChannel with its Delay, a DropTailQueue<Packet>) and
 *     numbers them with Ipv4AddressHelper, which also puts ns-3's default
 *     root queue disc, FqCoDelQueueDisc (one CoDelQueueDisc per flow), in
 *     front of every device. Each message is a TcpSocketFactory socket to a
 *     PacketSink. SimGrid itself sets the defaults TcpSocket::SegmentSize=1000,
 *     TcpSocket::DelAckCount=1, TcpSocketBase::Timestamp=false and, for
 *     --cfg=ns3/TcpModel, TcpL4Protocol::SocketType. A throw-away
 *     interposer of ns3::ObjectBase::ConstructSelf, loaded into a real
 *     `netsched simulate --model packet` run, listed every TypeId built:
 *     the TCP classes (TcpL4Protocol, TcpSocketBase or the congestion
 *     control, TcpSocketState, TcpCubic by default — ns-3 3.37's default
 *     SocketType — or TcpNewReno, TcpPrrRecovery, RttMeanDeviation, the Tx/Rx
 *     buffers, TcpRateLinux), PointToPointNetDevice, PointToPointChannel,
 *     DropTailQueue<Packet>, FqCoDelQueueDisc, CoDelQueueDisc,
 *     DropTailQueue<QueueDiscItem>, and the IPv4/IPv6/ARP/ICMP/UDP stack.
 *  2. The attributes of those classes: a throw-away program linked with
 *     libns3-dev walked TypeId::GetRegisteredN()/GetAttribute(i) and printed
 *     each attribute's full name, flags, GetValueTypeName(),
 *     GetUnderlyingTypeInformation() (C type and checker range, enum names)
 *     and initial value.
 *  3. Which of them take effect: the interposer read every attribute given
 *     in NS_ATTRIBUTE_DEFAULT back from the live objects, after
 *     construction and at every ns3::Simulator::Run(). Attributes the
 *     helpers set explicitly (the device's DataRate, the channel's Delay),
 *     that FqCoDelQueueDisc copies into its CoDel children (MaxSize,
 *     Interval, Target, UseEcn, CeThreshold, UseL4s), and those netsched
 *     writes first into NS_ATTRIBUTE_DEFAULT (ns-3 keeps the first of two
 *     equal names) never take the user's value: they are in `refused` below,
 *     with what to use instead, as are pointers, callbacks and containers,
 *     which cannot be given as text.
 *  4. How ns-3 reads the variable (core/model/object-base.cc, EnvDictionary):
 *     once per process, split at every ';', each piece at its first '=';
 *     the name is compared verbatim with "declaring class::attribute" (so
 *     ns3::TcpSocketBase::SegmentSize matches nothing) and the first of two
 *     equal names wins. The value goes through the attribute's checker when
 *     an object is built; nothing is ever reported.
 *  5. Safe ranges: ns-3's checker range intersected with what ran. Each
 *     bound was run alone in 3- and 8-machine stars (64 KiB and 256 KiB
 *     alltoall): values ns-3's parser rejects leave the member as the C++
 *     constructor left it (InitialCwnd=-1, an empty value: the run hangs),
 *     malformed numbers, times and queue sizes abort (NS_ABORT_MSG in the
 *     value parsers), an unknown TypeId aborts ("Requested constructor"),
 *     RcvBufSize=0 and MaxWindowSize=0 dereference NULL, FqCoDel Flows=0
 *     and pacing ratios of 0 divide by zero, windows below one segment and
 *     ConnCount=0 hang, RcvBufSize >= 2^31 or ConnTimeout=0 make SimGrid
 *     abort ("socket closed anormally", "failed to connect"), CoDel
 *     MinBytes=0 lets CoDel drop the last queued packet and read the
 *     timestamp of none, a byte-sized FqCoDel MaxSize drops every packet
 *     (no connection opens), an Mtu below 576 cuts every segment into tens
 *     of fragments (over a minute of wall time for 2 MiB at 68), and enum
 *     names are not checked at all (NS_ASSERT is compiled out in Debian's
 *     build). Semantic bounds (Beta and C of
 *     Cubic, timers > 0) follow the attributes' meaning. What no per-value
 *     check can exclude: settings that cause heavy loss (tiny queues, CoDel
 *     targets of microseconds, few retries with a tiny RTO, or all of the
 *     lowest values at once) can still end in ns-3's heavy-loss crash
 *     (TcpRateLinux::SkbSent on NULL) or in SimGrid aborting on a closed
 *     connection, exactly like a small --queue.
 *
 * How to refresh (a new ns-3 or SimGrid): install libns3-dev; print the
 * attributes of the classes above with a small C++ program iterating
 * ns3::TypeId::GetRegisteredN() and diff them against this table; check in
 * SimGrid's network_ns3.cpp which helpers and Config::SetDefault calls
 * changed; run every entry's samples (tests/test_ns3_attributes.c does, on
 * every test run) and the values just outside each range.
 */
#include "sim/ns3_attributes.h"
#include "platforms/model/error.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef enum {
  K_UINT,   /* unsigned integer, decimal digits */
  K_INT,    /* signed integer */
  K_DOUBLE, /* decimal number */
  K_BOOL,   /* true/false/1/0/t/f */
  K_TIME,   /* ns-3 Time text; bounds in seconds */
  K_RATE,   /* ns-3 DataRate text; bounds in bit/s */
  K_QSIZE,  /* ns-3 QueueSize text in packets; bounds in packets */
  K_ENUM,   /* one of names */
  K_TYPEID, /* one of names */
} Kind;

typedef struct {
  const char *name;          /* "ns3::Class::Attribute", as ns-3 looks it up */
  Kind kind;
  double min, max;           /* inclusive bounds (see Kind) */
  gboolean min_segment;      /* the lower bound is one TCP segment (bytes) */
  const char *const *names;  /* K_ENUM, K_TYPEID: the accepted names */
  const char *unit;          /* what an integer counts, for messages, or NULL */
  const char *def;           /* the default in a SimGrid run (parseable) or NULL */
  const char *example;       /* a typical valid non-default value */
} Attr;

typedef struct {
  const char *name;
  const char *why;           /* why --ns3 cannot set it, and what to use */
} Refused;

#define U32 4294967295.0
#define HOUR 3600.0

static const char *const ecn_modes[] = { "Off", "On", "AcceptOnly", NULL };
static const char *const reduction_bounds[] = { "CRB", "SSRB", NULL };
static const char *const socket_types[] = { "ns3::TcpCubic", "ns3::TcpNewReno", NULL };
static const char *const recovery_types[] = { "ns3::TcpPrrRecovery", "ns3::TcpClassicRecovery",
                                              NULL };
static const char *const rtt_types[] = { "ns3::RttMeanDeviation", NULL };

#define UINT(n, lo, hi, u, d, ex) { n, K_UINT, lo, hi, FALSE, NULL, u, d, ex }
#define SEGUINT(n, hi, d, ex) { n, K_UINT, NS_NS3_DEFAULT_SEGMENT, hi, TRUE, NULL, "bytes", d, ex }
#define INT(n, lo, hi, u, d, ex) { n, K_INT, lo, hi, FALSE, NULL, u, d, ex }
#define DOUBLE(n, lo, hi, u, d, ex) { n, K_DOUBLE, lo, hi, FALSE, NULL, u, d, ex }
#define BOOL(n, d, ex) { n, K_BOOL, 0, 1, FALSE, NULL, NULL, d, ex }
#define TIME(n, lo, hi, d, ex) { n, K_TIME, lo, hi, FALSE, NULL, NULL, d, ex }
#define RATE(n, lo, hi, d, ex) { n, K_RATE, lo, hi, FALSE, NULL, NULL, d, ex }
#define QSIZE(n, lo, hi, d, ex) { n, K_QSIZE, lo, hi, FALSE, NULL, NULL, d, ex }
#define ENUM(n, v, d, ex) { n, K_ENUM, 0, 0, FALSE, v, NULL, d, ex }
#define TYPEID(n, v, d, ex) { n, K_TYPEID, 0, 0, FALSE, v, NULL, d, ex }

/* Accepted attributes, by class. Defaults are those of a SimGrid run. */
static const Attr table[] = {
  /* ns3::TcpSocket: one per connection (TcpSocketBase inherits them) */
  /* netsched's default is max(131072, message + 65536) (sim.c); listed as
   * its smallest value, which the cross-checks use */
  SEGUINT("ns3::TcpSocket::RcvBufSize", 1073741824.0, "131072", "262144"),
  SEGUINT("ns3::TcpSocket::InitialSlowStartThreshold", U32, "4294967295", "65536"),
  UINT("ns3::TcpSocket::InitialCwnd", 1, 65535, "segments", "10", "4"),
  TIME("ns3::TcpSocket::ConnTimeout", 1e-3, HOUR, "3s", "2s"),
  UINT("ns3::TcpSocket::ConnCount", 1, U32, "SYN attempts", "6", "3"),
  UINT("ns3::TcpSocket::DataRetries", 1, U32, "retransmissions", "6", "10"),
  TIME("ns3::TcpSocket::DelAckTimeout", 0, HOUR, "200ms", "100ms"),
  UINT("ns3::TcpSocket::DelAckCount", 1, U32, "segments", "1", "2"),
  BOOL("ns3::TcpSocket::TcpNoDelay", "true", "false"),
  TIME("ns3::TcpSocket::PersistTimeout", 1e-3, HOUR, "6s", "5s"),
  /* ns3::TcpSocketBase */
  DOUBLE("ns3::TcpSocketBase::MaxSegLifetime", 0, 86400, "seconds", "120", "60"),
  SEGUINT("ns3::TcpSocketBase::MaxWindowSize", 65535, "65535", "32768"),
  BOOL("ns3::TcpSocketBase::WindowScaling", "true", "false"),
  BOOL("ns3::TcpSocketBase::Sack", "true", "false"),
  BOOL("ns3::TcpSocketBase::Timestamp", "false", "true"),
  TIME("ns3::TcpSocketBase::MinRto", 1e-6, HOUR, "1s", "200ms"),
  TIME("ns3::TcpSocketBase::ClockGranularity", 0, 60, "1ms", "2ms"),
  UINT("ns3::TcpSocketBase::ReTxThreshold", 1, U32, "duplicate ACKs", "3", "4"),
  BOOL("ns3::TcpSocketBase::LimitedTransmit", "true", "false"),
  ENUM("ns3::TcpSocketBase::UseEcn", ecn_modes, "Off", "On"),
  /* ns3::TcpSocketState: congestion state and pacing of a socket */
  BOOL("ns3::TcpSocketState::EnablePacing", "false", "true"),
  RATE("ns3::TcpSocketState::MaxPacingRate", 1e3, 1e12, "4Gbps", "1Gbps"),
  UINT("ns3::TcpSocketState::PacingSsRatio", 1, 65535, "percent", "200", "150"),
  UINT("ns3::TcpSocketState::PacingCaRatio", 1, 65535, "percent", "120", "110"),
  BOOL("ns3::TcpSocketState::PaceInitialWindow", "false", "true"),
  /* ns3::TcpL4Protocol: the classes a socket is made of */
  TYPEID("ns3::TcpL4Protocol::SocketType", socket_types, "ns3::TcpCubic", "ns3::TcpNewReno"),
  TYPEID("ns3::TcpL4Protocol::RecoveryType", recovery_types, "ns3::TcpPrrRecovery",
         "ns3::TcpClassicRecovery"),
  TYPEID("ns3::TcpL4Protocol::RttEstimatorType", rtt_types, "ns3::RttMeanDeviation",
         "ns3::RttMeanDeviation"),
  /* ns3::TcpPrrRecovery, ns3::RttEstimator, ns3::RttMeanDeviation */
  ENUM("ns3::TcpPrrRecovery::ReductionBound", reduction_bounds, "SSRB", "CRB"),
  TIME("ns3::RttEstimator::InitialEstimation", 1e-6, HOUR, "1s", "500ms"),
  DOUBLE("ns3::RttMeanDeviation::Alpha", 0, 1, NULL, "0.125", "0.2"),
  DOUBLE("ns3::RttMeanDeviation::Beta", 0, 1, NULL, "0.25", "0.3"),
  /* ns3::TcpCubic (the default congestion control; ns3::TcpNewReno has no
   * attributes). Ignored when the socket type is NewReno. */
  BOOL("ns3::TcpCubic::FastConvergence", "true", "false"),
  DOUBLE("ns3::TcpCubic::Beta", 0.01, 1, NULL, "0.7", "0.8"),
  BOOL("ns3::TcpCubic::HyStart", "true", "false"),
  UINT("ns3::TcpCubic::HyStartLowWindow", 0, U32, "segments", "16", "8"),
  INT("ns3::TcpCubic::HyStartDetect", 1, 3, "1 packet train, 2 delay, 3 both", "3", "2"),
  UINT("ns3::TcpCubic::HyStartMinSamples", 1, 255, "RTT samples", "8", "4"),
  TIME("ns3::TcpCubic::HyStartAckDelta", 0, HOUR, "2ms", "1ms"),
  TIME("ns3::TcpCubic::HyStartDelayMin", 0, HOUR, "4ms", "2ms"),
  TIME("ns3::TcpCubic::HyStartDelayMax", 0, HOUR, "1s", "500ms"),
  TIME("ns3::TcpCubic::CubicDelta", 0, HOUR, "10ms", "5ms"),
  UINT("ns3::TcpCubic::CntClamp", 1, 255, NULL, "20", "10"),
  DOUBLE("ns3::TcpCubic::C", 0.01, 100, NULL, "0.4", "0.5"),
  /* ns3::PointToPointNetDevice: every link end (DataRate comes from the platform) */
  UINT("ns3::PointToPointNetDevice::Mtu", 576, 65535, "bytes", "1500", "9000"),
  TIME("ns3::PointToPointNetDevice::InterframeGap", 0, 1e-4, "0s", "1us"),
  /* ns3::QueueDisc, ns3::FqCoDelQueueDisc: the root queue disc ns-3 puts in
   * front of every device; ns3::CoDelQueueDisc: one per flow inside it */
  UINT("ns3::QueueDisc::Quota", 1, U32, "packets per run", "64", "32"),
  BOOL("ns3::FqCoDelQueueDisc::UseEcn", "true", "false"),
  TIME("ns3::FqCoDelQueueDisc::Interval", 1e-6, HOUR, "100ms", "50ms"),
  TIME("ns3::FqCoDelQueueDisc::Target", 1e-6, HOUR, "5ms", "2ms"),
  QSIZE("ns3::FqCoDelQueueDisc::MaxSize", 100, 1e6, "10240p", "5000p"),
  UINT("ns3::FqCoDelQueueDisc::Flows", 1, U32, "flow queues", "1024", "512"),
  UINT("ns3::FqCoDelQueueDisc::DropBatchSize", 1, U32, "packets", "64", "32"),
  UINT("ns3::FqCoDelQueueDisc::Perturbation", 0, U32, "hash salt", "0", "7"),
  TIME("ns3::FqCoDelQueueDisc::CeThreshold", 0, HOUR, NULL, "10ms"),
  BOOL("ns3::FqCoDelQueueDisc::EnableSetAssociativeHash", "false", "true"),
  UINT("ns3::FqCoDelQueueDisc::SetWays", 1, U32, "queues per set", "8", "4"),
  UINT("ns3::CoDelQueueDisc::MinBytes", 1, U32, "bytes", "1500", "1000"),
};

/* Known attributes of the same classes that --ns3 cannot set. */
#define POINTER "an object pointer, which ns-3 cannot take as text"
#define FROM_FQCODEL(a)                                                                            \
  "set by ns3::FqCoDelQueueDisc from its own " a ": set ns3::FqCoDelQueueDisc::" a
static const Refused refused[] = {
  { "ns3::TcpSocket::SndBufSize",
    "sized by netsched for the message (SimGrid aborts when a message does not fit the send "
    "buffer)" },
  { "ns3::TcpSocket::SegmentSize", "set by netsched: use --segment-size" },
  { "ns3::DropTailQueue<Packet>::MaxSize", "set by netsched: use --queue" },
  { "ns3::TcpL4Protocol::SocketList", "a list of sockets, not a setting" },
  { "ns3::TcpSocketBase::IcmpCallback", "a callback, which ns-3 cannot take as text" },
  { "ns3::TcpSocketBase::IcmpCallback6", "a callback, which ns-3 cannot take as text" },
  { "ns3::TcpSocketBase::TxBuffer", POINTER },
  { "ns3::TcpSocketBase::RxBuffer", POINTER },
  { "ns3::TcpSocketBase::CongestionOps", POINTER ": use ns3::TcpL4Protocol::SocketType" },
  { "ns3::PointToPointNetDevice::DataRate",
    "set by SimGrid from the link bandwidth of the platform: change the topology" },
  { "ns3::PointToPointChannel::Delay",
    "set by SimGrid from the link latency of the platform: change the topology" },
  { "ns3::PointToPointNetDevice::Address", "a MAC address, given to each device by ns-3" },
  { "ns3::PointToPointNetDevice::ReceiveErrorModel", POINTER },
  { "ns3::PointToPointNetDevice::TxQueue", POINTER ": use --queue" },
  { "ns3::FqCoDelQueueDisc::UseL4s",
    "L4S needs ECT(1) traffic, which the Cubic and NewReno sockets never send (and ns-3 aborts "
    "without a CeThreshold)" },
  { "ns3::CoDelQueueDisc::MaxSize", FROM_FQCODEL("MaxSize") },
  { "ns3::CoDelQueueDisc::Interval", FROM_FQCODEL("Interval") },
  { "ns3::CoDelQueueDisc::Target", FROM_FQCODEL("Target") },
  { "ns3::CoDelQueueDisc::UseEcn", FROM_FQCODEL("UseEcn") },
  { "ns3::CoDelQueueDisc::CeThreshold", FROM_FQCODEL("CeThreshold") },
  { "ns3::CoDelQueueDisc::UseL4s", FROM_FQCODEL("UseL4s") },
  { "ns3::DropTailQueue<QueueDiscItem>::MaxSize",
    "set by ns3::CoDelQueueDisc from the MaxSize of ns3::FqCoDelQueueDisc: set that" },
  { "ns3::QueueDisc::InternalQueueList", "a list of queues, not a setting" },
  { "ns3::QueueDisc::PacketFilterList", "a list of filters, not a setting" },
  { "ns3::QueueDisc::QueueDiscClassList", "a list of classes, not a setting" },
};

/* The classes, for the message about an unknown name. */
static const char classes_text[] =
  "ns3::TcpSocket, ns3::TcpSocketBase, ns3::TcpSocketState, ns3::TcpL4Protocol, "
  "ns3::TcpPrrRecovery, ns3::RttEstimator, ns3::RttMeanDeviation, ns3::TcpCubic, "
  "ns3::PointToPointNetDevice, ns3::QueueDisc, ns3::FqCoDelQueueDisc, ns3::CoDelQueueDisc";

/* ---- value syntax -------------------------------------------------------- */

typedef struct {
  const char *name;
  double factor;
} Unit;

/* ns-3 3.37's Time units (core/model/time.cc), in seconds. */
static const Unit time_units[] = {
  { "s", 1 },     { "ms", 1e-3 },     { "us", 1e-6 },      { "ns", 1e-9 },
  { "ps", 1e-12 }, { "fs", 1e-15 },   { "min", 60 },       { "h", 3600 },
  { "d", 86400 }, { "y", 365 * 86400.0 },
};

/* ns-3 3.37's DataRate units (network/utils/data-rate.cc), in bit/s. */
static const Unit rate_units[] = {
  { "bps", 1 },          { "b/s", 1 },          { "Bps", 8 },          { "B/s", 8 },
  { "kbps", 1e3 },       { "kb/s", 1e3 },       { "Kbps", 1e3 },       { "Kb/s", 1e3 },
  { "kBps", 8e3 },       { "kB/s", 8e3 },       { "KBps", 8e3 },       { "KB/s", 8e3 },
  { "Kib/s", 1024 },     { "KiB/s", 8192 },     { "Mbps", 1e6 },       { "Mb/s", 1e6 },
  { "MBps", 8e6 },       { "MB/s", 8e6 },       { "Mib/s", 1048576.0 }, { "MiB/s", 8388608.0 },
  { "Gbps", 1e9 },       { "Gb/s", 1e9 },       { "GBps", 8e9 },       { "GB/s", 8e9 },
  { "Gib/s", 1073741824.0 }, { "GiB/s", 8589934592.0 },
};

/* ns-3 3.37's QueueSize units (network/utils/queue-size.cc): packets, and
 * the byte units refused for the packet-counted queue disc. */
static const Unit packet_units[] = {
  { "p", 1 }, { "kp", 1e3 }, { "Kp", 1e3 }, { "Kip", 1024 }, { "Mp", 1e6 }, { "Mip", 1048576.0 },
};
static const char *const byte_units[] = { "B", "kB", "KB", "KiB", "MB", "MiB" };

static gboolean all_digits(const char *s, gsize len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit(s[i]))
      return FALSE;
  return TRUE;
}

/* A decimal number in s[0..len): [+-]? (D+ (.D*)? | .D+) ([eE][+-]?D+)?;
 * what std::istream reads whole, without hex, inf or nan. */
static gboolean parse_decimal(const char *s, gsize len, gboolean sign, double *out)
{
  gsize i = 0, digits = 0;
  if (sign && i < len && (s[i] == '+' || s[i] == '-'))
    i++;
  while (i < len && g_ascii_isdigit(s[i]))
    i++, digits++;
  if (i < len && s[i] == '.') {
    i++;
    while (i < len && g_ascii_isdigit(s[i]))
      i++, digits++;
  }
  if (digits == 0)
    return FALSE;
  if (sign && i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-'))
      i++;
    gsize exp_digits = 0;
    while (i < len && g_ascii_isdigit(s[i]))
      i++, exp_digits++;
    if (exp_digits == 0)
      return FALSE;
  }
  if (i != len || len > 64)
    return FALSE;
  char buf[72];
  memcpy(buf, s, len);
  buf[len] = '\0';
  *out = g_ascii_strtod(buf, NULL);
  return isfinite(*out);
}

static const Unit *find_unit(const Unit *units, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp(units[i].name, name) == 0)
      return &units[i];
  return NULL;
}

/* Parses `v` as a value of a's kind into *num (integers, numbers, seconds,
 * bit/s, packets; booleans 0/1; names their index). FALSE when it is not of
 * the kind; *why may then name a more specific problem. */
static gboolean parse_value(const Attr *a, const char *v, double *num, const char **why)
{
  gsize len = strlen(v);
  *why = NULL;
  switch (a->kind) {
  case K_UINT:
    if (v[0] == '-')
      *why = "negative";
    if (!all_digits(v, len) || len > 20)
      return FALSE;
    *num = g_ascii_strtod(v, NULL);
    return TRUE;
  case K_INT:
    if (!all_digits(v[0] == '-' ? v + 1 : v, v[0] == '-' ? len - 1 : len) || len > 20)
      return FALSE;
    *num = g_ascii_strtod(v, NULL);
    return TRUE;
  case K_DOUBLE:
    return parse_decimal(v, len, TRUE, num);
  case K_BOOL:
    if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0 || strcmp(v, "t") == 0)
      *num = 1;
    else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0 || strcmp(v, "f") == 0)
      *num = 0;
    else
      return FALSE;
    return TRUE;
  case K_TIME: {
    /* ns-3 splits at the first character that cannot be part of a number. */
    gsize n = strspn(v, "+-0123456789.eE");
    double r;
    if (!parse_decimal(v, n, TRUE, &r))
      return FALSE;
    const Unit *u = v[n] == '\0' ? &time_units[0]
                                 : find_unit(time_units, G_N_ELEMENTS(time_units), v + n);
    if (u == NULL) {
      *why = "unknown time unit";
      return FALSE;
    }
    *num = r * u->factor;
    return TRUE;
  }
  case K_RATE: {
    gsize n = strspn(v, "0123456789.");
    double r;
    if (!parse_decimal(v, n, FALSE, &r))
      return FALSE;
    if (v[n] == '\0') {
      if (!all_digits(v, n)) /* ns-3 would truncate "1.5" to 1 bit/s */
        return FALSE;
      *num = r;
      return TRUE;
    }
    const Unit *u = find_unit(rate_units, G_N_ELEMENTS(rate_units), v + n);
    if (u == NULL) {
      *why = "unknown data-rate unit";
      return FALSE;
    }
    *num = floor(r * u->factor);
    return TRUE;
  }
  case K_QSIZE: {
    gsize n = strspn(v, "0123456789.");
    double r;
    if (!parse_decimal(v, n, FALSE, &r))
      return FALSE;
    const Unit *u = find_unit(packet_units, G_N_ELEMENTS(packet_units), v + n);
    if (u == NULL) {
      for (gsize i = 0; i < G_N_ELEMENTS(byte_units); i++)
        if (strcmp(v + n, byte_units[i]) == 0)
          *why = "a size in bytes: this queue disc counts packets (ns-3 3.37 drops every "
                 "packet of a byte-sized FqCoDel)";
      if (*why == NULL)
        *why = v[n] == '\0' ? "a unit is required (p, kp, Kp, Kip, Mp, Mip)"
                            : "unknown unit (p, kp, Kp, Kip, Mp, Mip)";
      return FALSE;
    }
    *num = floor(r * u->factor);
    return TRUE;
  }
  case K_ENUM:
  case K_TYPEID:
    for (int i = 0; a->names[i] != NULL; i++)
      if (strcmp(v, a->names[i]) == 0) {
        *num = i;
        return TRUE;
      }
    return FALSE;
  }
  return FALSE;
}

/* ---- formatting ---------------------------------------------------------- */

static char *format_count(double x) { return g_strdup_printf("%.0f", x); }

/* A time in the largest of s, ms, us, ns that makes it whole. */
static char *format_time(double s)
{
  static const Unit units[] = { { "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 } };
  if (s == 0)
    return g_strdup("0s");
  for (gsize i = 0; i < G_N_ELEMENTS(units); i++) {
    double x = s * units[i].factor, r = round(x);
    if (r >= 1 && fabs(x - r) <= 1e-9 * r)
      return g_strdup_printf("%.0f%s", r, units[i].name);
  }
  return g_strdup_printf("%.9gs", s);
}

/* A rate in the largest of Gbps, Mbps, kbps, bps that makes it whole. */
static char *format_rate(double bps)
{
  static const Unit units[] = { { "Gbps", 1e9 }, { "Mbps", 1e6 }, { "kbps", 1e3 } };
  for (gsize i = 0; i < G_N_ELEMENTS(units); i++)
    if (bps >= units[i].factor && fmod(bps, units[i].factor) == 0)
      return g_strdup_printf("%.0f%s", bps / units[i].factor, units[i].name);
  return g_strdup_printf("%.0fbps", bps);
}

static double lower_bound(const Attr *a, int segment)
{
  return a->min_segment ? (double)segment : a->min;
}

/* A bound as text the attribute accepts. */
static char *format_bound(const Attr *a, double x)
{
  switch (a->kind) {
  case K_TIME:
    return format_time(x);
  case K_RATE:
    return format_rate(x);
  case K_QSIZE:
    return g_strdup_printf("%.0fp", x);
  case K_DOUBLE:
    return g_strdup_printf("%.15g", x);
  default:
    return format_count(x);
  }
}

static char *join_names(const char *const *names)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; names[i] != NULL; i++)
    g_string_append_printf(s, "%s%s", i == 0 ? "" : (names[i + 1] == NULL ? " or " : ", "),
                           names[i]);
  return g_string_free(s, FALSE);
}

/* "an integer from 1 to 65535 (segments)" and the like. */
static char *expected_text(const Attr *a, int segment)
{
  if (a->kind == K_BOOL)
    return g_strdup("true or false (or 1/0, t/f)");
  if (a->kind == K_ENUM || a->kind == K_TYPEID) {
    g_autofree char *names = join_names(a->names);
    return g_strdup_printf("%s", names);
  }
  double lo = lower_bound(a, segment);
  g_autofree char *min = format_bound(a, lo);
  g_autofree char *max = format_bound(a, a->max);
  const char *what = a->kind == K_UINT || a->kind == K_INT ? "an integer"
                     : a->kind == K_DOUBLE                 ? "a number"
                     : a->kind == K_TIME                   ? "a time"
                     : a->kind == K_RATE                   ? "a data rate"
                                                           : "a queue size in packets";
  g_autofree char *unit = NULL;
  if (a->min_segment)
    unit = g_strdup_printf(" (%s; at least one TCP segment)", a->unit);
  else if (a->unit != NULL)
    unit = g_strdup_printf(" (%s)", a->unit);
  const char *eg = a->kind == K_TIME   ? ", e.g. 200ms; units s, ms, us, ns, min, h"
                   : a->kind == K_RATE ? ", e.g. 1.5Gbps; units bps, kbps, Mbps, Gbps, Bps, ..."
                   : a->kind == K_QSIZE ? ", e.g. 1000p"
                                        : "";
  return g_strdup_printf("%s from %s to %s%s%s", what, min, max, unit ? unit : "", eg);
}

/* ---- names --------------------------------------------------------------- */

static const Attr *find_attr(const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS(table); i++)
    if (strcmp(table[i].name, name) == 0)
      return &table[i];
  return NULL;
}

static const Refused *find_refused(const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS(refused); i++)
    if (strcmp(refused[i].name, name) == 0)
      return &refused[i];
  return NULL;
}

/* Levenshtein distance, ASCII case folded; two rows, O(|a|·|b|). */
static gsize edit_distance(const char *a, const char *b)
{
  gsize la = strlen(a), lb = strlen(b);
  gsize *prev = g_new(gsize, lb + 1), *cur = g_new(gsize, lb + 1);
  for (gsize j = 0; j <= lb; j++)
    prev[j] = j;
  for (gsize i = 1; i <= la; i++) {
    cur[0] = i;
    for (gsize j = 1; j <= lb; j++) {
      gsize subst = prev[j - 1] + (g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1]));
      cur[j] = MIN(subst, MIN(prev[j], cur[j - 1]) + 1);
    }
    gsize *t = prev;
    prev = cur;
    cur = t;
  }
  gsize d = prev[lb];
  g_free(prev);
  g_free(cur);
  return d;
}

static const char *entry_name(gsize i)
{
  return i < G_N_ELEMENTS(table) ? table[i].name : refused[i - G_N_ELEMENTS(table)].name;
}

/* The known name closest to `name`, or NULL when none is close: by edit
 * distance (with "ns3::" added when it is missing), else the same attribute
 * name in another class or without one ("ns3::TcpSocketBase::InitialCwnd",
 * "InitialCwnd") when only one class has it. */
static const char *suggest(const char *name)
{
  gsize n_entries = G_N_ELEMENTS(table) + G_N_ELEMENTS(refused);
  if (strlen(name) > 256)
    return NULL;
  g_autofree char *prefixed =
    g_ascii_strncasecmp(name, "ns3::", 5) == 0 ? NULL : g_strconcat("ns3::", name, NULL);
  const char *best = NULL;
  gsize best_d = G_MAXSIZE;
  for (gsize i = 0; i < n_entries; i++) {
    const char *cand = entry_name(i);
    gsize d = edit_distance(prefixed ? prefixed : name, cand);
    if (d < best_d) {
      best_d = d;
      best = cand;
    }
  }
  if (best != NULL && best_d <= MAX((gsize)2, strlen(best) / 6))
    return best;
  const char *sep = g_strrstr(name, "::");
  const char *attr = sep != NULL ? sep + 2 : name;
  const char *match = NULL;
  for (gsize i = 0; i < n_entries; i++) {
    const char *cand_attr = g_strrstr(entry_name(i), "::") + 2;
    if (g_ascii_strcasecmp(cand_attr, attr) == 0) {
      if (match != NULL)
        return NULL; /* ambiguous */
      match = entry_name(i);
    }
  }
  return match;
}

/* ---- checks -------------------------------------------------------------- */

/* Checks one assignment with the given segment size; on success *attr and
 * *value (into `assignment`) say what was set. */
static gboolean check_one(const char *assignment, int segment, const Attr **attr,
                          const char **value, GError **error)
{
  if (assignment == NULL || *assignment == '\0') {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "empty ns-3 attribute assignment (expected ns3::Class::Attribute=value)");
    return FALSE;
  }
  g_autofree char *shown = g_strescape(assignment, NULL);
  for (const char *p = assignment; *p != '\0'; p++) {
    if ((unsigned char)*p < 0x20 || *p == 0x7f) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "invalid ns-3 attribute assignment '%s': control characters are not "
                      "allowed (they would corrupt NS_ATTRIBUTE_DEFAULT)",
                      shown);
      return FALSE;
    }
    if (*p == ';') {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "invalid ns-3 attribute assignment '%s': ';' would start another "
                      "assignment in NS_ATTRIBUTE_DEFAULT (give each attribute its own --ns3)",
                      shown);
      return FALSE;
    }
  }
  const char *eq = strchr(assignment, '=');
  if (eq == NULL || eq == assignment) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "invalid ns-3 attribute assignment '%s' (expected "
                    "ns3::Class::Attribute=value)",
                    shown);
    return FALSE;
  }
  g_autofree char *name = g_strndup(assignment, (gsize)(eq - assignment));
  const char *v = eq + 1;
  g_autofree char *shown_name = g_strescape(name, NULL);
  g_autofree char *shown_value = g_strescape(v, NULL);
  const Attr *a = find_attr(name);
  if (a == NULL) {
    const Refused *r = find_refused(name);
    if (r != NULL) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "ns-3 attribute '%s' cannot be set with --ns3: %s", name, r->why);
      return FALSE;
    }
    const char *best = suggest(name);
    if (best != NULL)
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "unknown ns-3 attribute '%s' (did you mean '%s'?)", shown_name, best);
    else
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "unknown ns-3 attribute '%s' (accepted: attributes of %s; names are "
                      "case-sensitive, ns3::Class::Attribute)",
                      shown_name, classes_text);
    return FALSE;
  }
  double num = 0;
  const char *why = NULL;
  gboolean ok = *v != '\0' && parse_value(a, v, &num, &why);
  if (ok && a->kind != K_BOOL && a->kind != K_ENUM && a->kind != K_TYPEID &&
      (num < lower_bound(a, segment) || num > a->max)) {
    ok = FALSE;
    why = "out of range";
  }
  if (!ok) {
    g_autofree char *expected = expected_text(a, segment);
    g_autofree char *detail = *v == '\0'   ? g_strdup(" (empty)")
                              : why != NULL ? g_strdup_printf(" (%s)", why)
                                            : g_strdup("");
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "invalid value '%s' for ns-3 attribute '%s'%s: expected %s", shown_value,
                    a->name, detail, expected);
    return FALSE;
  }
  if (attr != NULL)
    *attr = a;
  if (value != NULL)
    *value = v;
  return TRUE;
}

gboolean ns_ns3_attribute_check(const char *assignment, GError **error)
{
  return check_one(assignment, NS_NS3_DEFAULT_SEGMENT, NULL, NULL, error);
}

/* The value given for `name`, else its default, as a number (0 if none). */
static double effective(GHashTable *given, const char *name)
{
  const Attr *a = find_attr(name);
  const char *v = g_hash_table_lookup(given, name);
  double num = 0;
  const char *why;
  if (v == NULL)
    v = a->def;
  if (v == NULL || !parse_value(a, v, &num, &why))
    return 0;
  return num;
}

gboolean ns_ns3_attributes_check(const GPtrArray *assignments, int segment_size,
                                 GError **error)
{
  int segment = segment_size > 0 ? segment_size : NS_NS3_DEFAULT_SEGMENT;
  g_autoptr(GHashTable) given = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; assignments != NULL && i < assignments->len; i++) {
    const char *text = g_ptr_array_index(assignments, i);
    const Attr *a;
    const char *v;
    if (!check_one(text, segment, &a, &v, error))
      return FALSE;
    if (g_hash_table_contains(given, a->name)) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "ns-3 attribute '%s' given twice (ns-3 would keep the first value and "
                      "ignore the other)",
                      a->name);
      return FALSE;
    }
    g_hash_table_insert(given, (gpointer)a->name, (gpointer)v);
  }
  /* The initial congestion window in bytes is a 32-bit count. */
  double cwnd = effective(given, "ns3::TcpSocket::InitialCwnd");
  if (cwnd * segment > U32) {
    ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                    "ns-3 attribute 'ns3::TcpSocket::InitialCwnd': %.0f segments of %d bytes "
                    "exceed ns-3's 32-bit congestion window",
                    cwnd, segment);
    return FALSE;
  }
  if (effective(given, "ns3::FqCoDelQueueDisc::EnableSetAssociativeHash") != 0) {
    double flows = effective(given, "ns3::FqCoDelQueueDisc::Flows");
    double ways = effective(given, "ns3::FqCoDelQueueDisc::SetWays");
    if (fmod(flows, ways) != 0) {
      ns_set_error_at(error, NS_ERROR_INPUT, NULL, 0,
                      "ns-3 attributes: with ns3::FqCoDelQueueDisc::EnableSetAssociativeHash, "
                      "ns3::FqCoDelQueueDisc::Flows (%.0f) must be a multiple of "
                      "ns3::FqCoDelQueueDisc::SetWays (%.0f)",
                      flows, ways);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---- listing ------------------------------------------------------------- */

char *ns_ns3_attribute_names(void)
{
  GString *s = g_string_new("ns-3 attributes accepted by --ns3 ATTR=VALUE (packet model):\n");
  for (gsize i = 0; i < G_N_ELEMENTS(table); i++) {
    const Attr *a = &table[i];
    g_autofree char *expected = expected_text(a, NS_NS3_DEFAULT_SEGMENT);
    g_string_append_printf(s, "  %s  %s; default %s\n", a->name, expected,
                           a->def != NULL ? a->def : "none");
  }
  g_string_append(s, "Known but not settable with --ns3:\n");
  for (gsize i = 0; i < G_N_ELEMENTS(refused); i++)
    g_string_append_printf(s, "  %s  %s\n", refused[i].name, refused[i].why);
  return g_string_free(s, FALSE);
}

gsize ns_ns3_attribute_count(void) { return G_N_ELEMENTS(table); }

const char *ns_ns3_attribute_name(gsize i)
{
  g_return_val_if_fail(i < G_N_ELEMENTS(table), NULL);
  return table[i].name;
}

const char *ns_ns3_attribute_kind(gsize i)
{
  static const char *const kinds[] = {
    [K_UINT] = "integer", [K_INT] = "integer", [K_DOUBLE] = "number",   [K_BOOL] = "boolean",
    [K_TIME] = "time",    [K_RATE] = "data rate", [K_QSIZE] = "queue size", [K_ENUM] = "enum",
    [K_TYPEID] = "TypeId",
  };
  g_return_val_if_fail(i < G_N_ELEMENTS(table), NULL);
  return kinds[table[i].kind];
}

char **ns_ns3_attribute_samples(gsize i)
{
  g_return_val_if_fail(i < G_N_ELEMENTS(table), NULL);
  const Attr *a = &table[i];
  GPtrArray *v = g_ptr_array_new();
  g_ptr_array_add(v, g_strdup(a->example));
  if (a->kind == K_BOOL) {
    g_ptr_array_add(v, g_strdup("true"));
    g_ptr_array_add(v, g_strdup("false"));
  } else if (a->kind == K_ENUM || a->kind == K_TYPEID) {
    for (int k = 0; a->names[k] != NULL; k++)
      g_ptr_array_add(v, g_strdup(a->names[k]));
  } else {
    g_ptr_array_add(v, format_bound(a, lower_bound(a, NS_NS3_DEFAULT_SEGMENT)));
    g_ptr_array_add(v, format_bound(a, a->max));
  }
  g_ptr_array_add(v, NULL);
  return (char **)g_ptr_array_free(v, FALSE);
}
