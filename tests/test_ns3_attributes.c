/* The ns-3 attribute check (sim/ns3_attributes.h): what `simulate --ns3`
 * accepts, what it refuses and with which message — and the regression it
 * exists for: every value it accepts really runs in an ns-3 simulation
 * (before the check, a malformed value crashed or hung the replay child). */
#include "platforms/model/error.h"
#include "platforms/gen/shapes.h"
#include "sched/planners/registry.h"
#include "sim/ns3_attributes.h"
#include "sim/sim.h"
#include "tests/testutil.h"
#include <string.h>

static void assert_valid(const char *assignment)
{
  GError *error = NULL;
  if (!ns_ns3_attribute_check(assignment, &error))
    g_error("'%s' refused: %s", assignment, error->message);
  g_assert_no_error(error);
}

/* Asserts the assignment is refused with NS_ERROR_INPUT and a message
 * containing `fragment`. */
static void assert_refused(const char *assignment, const char *fragment)
{
  GError *error = NULL;
  if (ns_ns3_attribute_check(assignment, &error))
    g_error("'%s' accepted", assignment);
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  if (strstr(error->message, fragment) == NULL)
    g_error("'%s': message \"%s\" lacks \"%s\"", assignment, error->message, fragment);
  g_error_free(error);
}

/* Every value kind, in every spelling ns-3 3.37 parses the same way. */
static void test_accepts_every_kind(void)
{
  const char *good[] = {
    /* unsigned integers, the bounds included */
    "ns3::TcpSocket::InitialCwnd=10", "ns3::TcpSocket::InitialCwnd=1",
    "ns3::TcpSocket::InitialCwnd=65535", "ns3::TcpSocket::RcvBufSize=1000",
    "ns3::TcpSocket::RcvBufSize=1073741824", "ns3::FqCoDelQueueDisc::Perturbation=0",
    "ns3::FqCoDelQueueDisc::Perturbation=4294967295", "ns3::PointToPointNetDevice::Mtu=9000",
    /* signed integer */
    "ns3::TcpCubic::HyStartDetect=1", "ns3::TcpCubic::HyStartDetect=3",
    /* numbers */
    "ns3::TcpCubic::Beta=0.8", "ns3::TcpCubic::Beta=.5", "ns3::TcpCubic::Beta=1",
    "ns3::TcpCubic::C=4e-1", "ns3::RttMeanDeviation::Alpha=0", "ns3::RttMeanDeviation::Beta=1.0",
    "ns3::TcpSocketBase::MaxSegLifetime=60",
    /* booleans */
    "ns3::TcpSocket::TcpNoDelay=false", "ns3::TcpSocket::TcpNoDelay=true",
    "ns3::TcpSocketBase::Sack=0", "ns3::TcpSocketBase::Sack=1", "ns3::TcpSocketBase::Sack=t",
    "ns3::TcpSocketBase::Sack=f",
    /* times, every unit, and seconds without one */
    "ns3::TcpSocketBase::MinRto=200ms", "ns3::TcpSocketBase::MinRto=0.2s",
    "ns3::TcpSocketBase::MinRto=200000us", "ns3::TcpSocketBase::MinRto=1e8ns",
    "ns3::TcpSocketBase::MinRto=1", "ns3::TcpSocketBase::MinRto=1min",
    "ns3::TcpSocketBase::MinRto=1h", "ns3::TcpSocketBase::MinRto=1000000000ps",
    "ns3::TcpSocket::DelAckTimeout=0s", "ns3::PointToPointNetDevice::InterframeGap=960ns",
    "ns3::FqCoDelQueueDisc::Interval=50ms", "ns3::FqCoDelQueueDisc::CeThreshold=1ms",
    /* data rates */
    "ns3::TcpSocketState::MaxPacingRate=1Gbps", "ns3::TcpSocketState::MaxPacingRate=1.5Gbps",
    "ns3::TcpSocketState::MaxPacingRate=100Mb/s", "ns3::TcpSocketState::MaxPacingRate=125MBps",
    "ns3::TcpSocketState::MaxPacingRate=1000000", "ns3::TcpSocketState::MaxPacingRate=10KiB/s",
    /* queue sizes */
    "ns3::FqCoDelQueueDisc::MaxSize=5000p", "ns3::FqCoDelQueueDisc::MaxSize=10kp",
    "ns3::FqCoDelQueueDisc::MaxSize=1Mp", "ns3::FqCoDelQueueDisc::MaxSize=100p",
    /* enums */
    "ns3::TcpSocketBase::UseEcn=Off", "ns3::TcpSocketBase::UseEcn=On",
    "ns3::TcpSocketBase::UseEcn=AcceptOnly", "ns3::TcpPrrRecovery::ReductionBound=CRB",
    /* TypeIds */
    "ns3::TcpL4Protocol::SocketType=ns3::TcpNewReno",
    "ns3::TcpL4Protocol::SocketType=ns3::TcpCubic",
    "ns3::TcpL4Protocol::RecoveryType=ns3::TcpClassicRecovery",
    "ns3::TcpL4Protocol::RttEstimatorType=ns3::RttMeanDeviation",
  };
  for (gsize i = 0; i < G_N_ELEMENTS(good); i++)
    assert_valid(good[i]);
}

static void test_unknown_names(void)
{
  GError *error = NULL;
  g_assert_false(ns_ns3_attribute_check("ns3::TcpSocket::InitialCwnnd=100", &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_assert_cmpstr(error->message, ==,
                  "unknown ns-3 attribute 'ns3::TcpSocket::InitialCwnnd' (did you mean "
                  "'ns3::TcpSocket::InitialCwnd'?)");
  g_assert_cmpint(ns_error_exit_status(error), ==, 2);
  g_clear_error(&error);
  /* ns-3 looks attributes up under the class that declares them */
  const char *cwnd = "did you mean 'ns3::TcpSocket::InitialCwnd'?";
  assert_refused("ns3::TcpSocketBase::InitialCwnd=4", cwnd);
  assert_refused("ns3::TcpCubic::SegmentSize=4", "did you mean 'ns3::TcpSocket::SegmentSize'?");
  assert_refused("TcpSocket::InitialCwnd=4", cwnd);
  assert_refused("InitialCwnd=4", cwnd);
  assert_refused("ns3::tcpsocket::initialcwnd=4", cwnd);
  assert_refused("ns3::TcpSocket::InitialCwnd =4", cwnd);
  assert_refused("MinRto=1s", "did you mean 'ns3::TcpSocketBase::MinRto'?");
  /* an attribute name several classes have is not guessed */
  assert_refused("UseEcn=true", "unknown ns-3 attribute 'UseEcn' (accepted:");
  assert_refused("ns3::DropTailQueue<Packet>::MaxSiz=10p",
                 "did you mean 'ns3::DropTailQueue<Packet>::MaxSize'?");
  assert_refused("ns3::FqCodelQueueDisc::Flows=8", "did you mean 'ns3::FqCoDelQueueDisc::Flows'?");
  /* nothing close: the message lists the classes instead */
  assert_refused("ns3::Foo::Bar=1", "unknown ns-3 attribute 'ns3::Foo::Bar' (accepted: attributes "
                                    "of ns3::TcpSocket");
  assert_refused("ns3::Ipv4L3Protocol::DefaultTtl=64", "unknown ns-3 attribute");
  assert_refused("ns3::NetDeviceQueueInterface::NTxQueues=2", "unknown ns-3 attribute");
}

/* Known attributes ns-3 would not take from NS_ATTRIBUTE_DEFAULT: the
 * message says what to use instead. */
static void test_refused_names(void)
{
  assert_refused("ns3::TcpSocket::SegmentSize=1400", "use --segment-size");
  assert_refused("ns3::DropTailQueue<Packet>::MaxSize=50p", "use --queue");
  assert_refused("ns3::TcpSocket::SndBufSize=1000000", "sized by netsched for the message");
  assert_refused("ns3::PointToPointNetDevice::DataRate=1Gbps", "change the topology");
  assert_refused("ns3::PointToPointChannel::Delay=1ms", "change the topology");
  assert_refused("ns3::CoDelQueueDisc::Target=1ms", "set ns3::FqCoDelQueueDisc::Target");
  assert_refused("ns3::CoDelQueueDisc::UseEcn=true", "set ns3::FqCoDelQueueDisc::UseEcn");
  assert_refused("ns3::DropTailQueue<QueueDiscItem>::MaxSize=10p", "cannot be set with --ns3");
  assert_refused("ns3::TcpSocketBase::TxBuffer=0", "object pointer");
  assert_refused("ns3::FqCoDelQueueDisc::UseL4s=true", "ECT(1)");
}

/* Values of the wrong kind: each of these crashed, hung or was silently
 * dropped by ns-3 3.37. */
static void test_malformed_values(void)
{
  static const struct {
    const char *assignment, *fragment;
  } bad[] = {
    { "ns3::TcpSocket::InitialCwnd=abc",
      "invalid value 'abc' for ns-3 attribute 'ns3::TcpSocket::InitialCwnd': expected an integer "
      "from 1 to 65535 (segments)" },
    { "ns3::TcpSocket::InitialCwnd=", "(empty): expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=-1", "(negative)" },
    { "ns3::TcpSocket::InitialCwnd=0x10", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=+10", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=10 ", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd= 10", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=1e3", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=10.0", "expected an integer" },
    { "ns3::TcpSocket::InitialCwnd=99999999999999999999999", "expected an integer" },
    { "ns3::TcpCubic::HyStartDetect=2.5", "expected an integer from 1 to 3" },
    { "ns3::TcpCubic::Beta=inf", "expected a number from 0.01 to 1" },
    { "ns3::TcpCubic::Beta=nan", "expected a number" },
    { "ns3::TcpCubic::Beta=0x1p-1", "expected a number" },
    { "ns3::TcpCubic::Beta=0,5", "expected a number" },
    { "ns3::TcpCubic::C=1e400", "expected a number" },
    { "ns3::TcpCubic::C=1e", "expected a number" },
    { "ns3::TcpSocket::TcpNoDelay=yes", "expected true or false" },
    { "ns3::TcpSocket::TcpNoDelay=TRUE", "expected true or false" },
    { "ns3::TcpSocket::ConnTimeout=5x", "(unknown time unit): expected a time from 1ms to 3600s" },
    { "ns3::TcpSocket::ConnTimeout=1 ms", "(unknown time unit)" },
    { "ns3::TcpSocket::ConnTimeout=ms", "expected a time" },
    { "ns3::TcpSocket::ConnTimeout=1e-s", "expected a time" },
    { "ns3::TcpSocketState::MaxPacingRate=1e6bps", "(unknown data-rate unit)" },
    { "ns3::TcpSocketState::MaxPacingRate=1.5", "expected a data rate" },
    { "ns3::TcpSocketState::MaxPacingRate=1Tbps", "(unknown data-rate unit)" },
    { "ns3::TcpSocketState::MaxPacingRate=-1Gbps", "expected a data rate" },
    { "ns3::FqCoDelQueueDisc::MaxSize=64KB", "counts packets" },
    { "ns3::FqCoDelQueueDisc::MaxSize=100", "a unit is required" },
    { "ns3::FqCoDelQueueDisc::MaxSize=100 p", "unknown unit" },
    { "ns3::TcpSocketBase::UseEcn=on", "expected Off, On or AcceptOnly" },
    { "ns3::TcpPrrRecovery::ReductionBound=XYZ", "expected CRB or SSRB" },
    { "ns3::TcpL4Protocol::SocketType=ns3::TcpFoo", "expected ns3::TcpCubic or ns3::TcpNewReno" },
    { "ns3::TcpL4Protocol::SocketType=ns3::TcpSocketBase", "expected ns3::TcpCubic" },
    { "ns3::TcpL4Protocol::RttEstimatorType=ns3::RttEstimator", "expected ns3::RttMeanDeviation" },
    { "ns3::TcpL4Protocol::SocketType=TcpNewReno", "expected ns3::TcpCubic or ns3::TcpNewReno" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
    assert_refused(bad[i].assignment, bad[i].fragment);
}

/* Well-formed values outside the safe range (each crashed, hung or was
 * dropped by ns-3's own checker). */
static void test_out_of_range(void)
{
  static const struct {
    const char *assignment, *fragment;
  } bad[] = {
    { "ns3::TcpSocket::InitialCwnd=0", "(out of range): expected an integer from 1 to 65535" },
    { "ns3::TcpSocket::InitialCwnd=65536", "(out of range)" },
    { "ns3::TcpSocket::RcvBufSize=0", "from 1000 to 1073741824 (bytes; at least one TCP segment)" },
    { "ns3::TcpSocket::RcvBufSize=999", "(out of range)" },
    { "ns3::TcpSocket::RcvBufSize=4294967295", "(out of range)" },
    { "ns3::TcpSocketBase::MaxWindowSize=0", "(out of range)" },
    { "ns3::TcpSocketBase::MaxWindowSize=65536", "(out of range)" },
    { "ns3::TcpSocket::ConnCount=0", "(out of range)" },
    { "ns3::TcpSocket::ConnTimeout=0s", "(out of range): expected a time from 1ms to 3600s" },
    { "ns3::TcpSocket::ConnTimeout=2h", "(out of range)" },
    { "ns3::TcpSocket::ConnTimeout=-1s", "(out of range)" },
    { "ns3::TcpSocketBase::MinRto=0s", "(out of range)" },
    { "ns3::TcpSocketBase::MinRto=1ns", "(out of range)" },
    { "ns3::TcpSocketBase::MaxSegLifetime=-1", "(out of range)" },
    { "ns3::TcpSocketState::MaxPacingRate=0bps", "from 1kbps to 1000Gbps" },
    { "ns3::TcpSocketState::PacingSsRatio=0", "(out of range)" },
    { "ns3::TcpSocketState::PacingCaRatio=65536", "(out of range)" },
    { "ns3::TcpCubic::Beta=1.5", "(out of range): expected a number from 0.01 to 1" },
    { "ns3::TcpCubic::C=0", "(out of range)" },
    { "ns3::TcpCubic::CntClamp=0", "(out of range)" },
    { "ns3::TcpCubic::HyStartDetect=0", "(out of range)" },
    { "ns3::TcpCubic::HyStartDetect=-1", "(out of range)" },
    { "ns3::TcpCubic::HyStartMinSamples=256", "(out of range)" },
    { "ns3::RttMeanDeviation::Alpha=-0.1", "(out of range)" },
    { "ns3::RttMeanDeviation::Beta=1.5", "(out of range)" },
    { "ns3::PointToPointNetDevice::Mtu=68", "(out of range)" },
    { "ns3::PointToPointNetDevice::Mtu=65536", "(out of range)" },
    { "ns3::PointToPointNetDevice::InterframeGap=-1us", "(out of range)" },
    { "ns3::QueueDisc::Quota=0", "(out of range)" },
    { "ns3::FqCoDelQueueDisc::MaxSize=0p", "(out of range): expected a queue size in packets" },
    { "ns3::FqCoDelQueueDisc::MaxSize=99p", "(out of range)" },
    { "ns3::FqCoDelQueueDisc::MaxSize=2Mp", "(out of range)" },
    { "ns3::PointToPointNetDevice::InterframeGap=1ms", "expected a time from 0s to 100us" },
    { "ns3::FqCoDelQueueDisc::Flows=0", "(out of range)" },
    { "ns3::FqCoDelQueueDisc::SetWays=0", "(out of range)" },
    { "ns3::FqCoDelQueueDisc::Flows=4294967296", "(out of range)" },
    { "ns3::CoDelQueueDisc::MinBytes=0", "(out of range)" },
  };
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++)
    assert_refused(bad[i].assignment, bad[i].fragment);
}

/* A ';' or a control character would add assignments to
 * NS_ATTRIBUTE_DEFAULT behind the check's back. */
static void test_injection(void)
{
  const char *semicolon = "';' would start another assignment in NS_ATTRIBUTE_DEFAULT";
  const char *control = "control characters are not allowed";
  assert_refused("a=1;ns3::Foo=2", semicolon);
  assert_refused("ns3::TcpSocket::InitialCwnd=10;ns3::TcpSocket::SegmentSize=1", semicolon);
  assert_refused("ns3::TcpSocket::InitialCwnd=10;", semicolon);
  assert_refused(";ns3::TcpSocket::InitialCwnd=10", semicolon);
  assert_refused("ns3::TcpSocket::InitialCwnd=1\nns3::TcpSocket::SegmentSize=1", control);
  assert_refused("ns3::TcpSocket::InitialCwnd=10\n", control);
  assert_refused("ns3::TcpSocket::InitialCwnd=10\r", control);
  assert_refused("ns3::TcpSocket::InitialCwnd=\t10", control);
  assert_refused("ns3::TcpSocket::InitialCwnd=10\x7f", control);
  assert_refused("ns3::TcpSocket::Initial\x1b[0mCwnd=10", control);
  /* the message shows the characters escaped */
  assert_refused("ns3::TcpSocket::InitialCwnd=1\nX=2", "'ns3::TcpSocket::InitialCwnd=1\\nX=2'");
  /* '=' inside the value is no kind's syntax */
  assert_refused("ns3::TcpSocket::InitialCwnd=10=ns3::X", "expected an integer");
}

static void test_syntax(void)
{
  const char *shape = "expected ns3::Class::Attribute=value";
  assert_refused("", shape);
  assert_refused("ns3::TcpSocket::InitialCwnd", shape);
  assert_refused("=10", shape);
  GError *error = NULL;
  g_assert_false(ns_ns3_attribute_check(NULL, &error));
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  g_clear_error(&error);
  /* a NULL error is allowed */
  g_assert_false(ns_ns3_attribute_check("ns3::TcpSocket::InitialCwnd=0", NULL));
  g_assert_true(ns_ns3_attribute_check("ns3::TcpSocket::InitialCwnd=4", NULL));
}

static gboolean check_list(int segment, GError **error, ...) G_GNUC_NULL_TERMINATED;

/* ns_ns3_attributes_check() on the NULL-terminated assignments. */
static gboolean check_list(int segment, GError **error, ...)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new();
  va_list ap;
  va_start(ap, error);
  for (const char *a = va_arg(ap, const char *); a != NULL; a = va_arg(ap, const char *))
    g_ptr_array_add(list, (gpointer)a);
  va_end(ap);
  return ns_ns3_attributes_check(list, segment, error);
}

static void assert_list_refused(GError *error, const char *fragment)
{
  g_assert_error(error, NS_ERROR, NS_ERROR_INPUT);
  if (strstr(error->message, fragment) == NULL)
    g_error("message \"%s\" lacks \"%s\"", error->message, fragment);
  g_error_free(error);
}

/* What only the whole set of assignments shows. */
static void test_list(void)
{
  GError *error = NULL;
  g_assert_true(ns_ns3_attributes_check(NULL, 0, &error));
  g_assert_no_error(error);
  g_assert_true(check_list(0, &error, NULL));
  g_assert_true(check_list(1000, &error, "ns3::TcpSocket::InitialCwnd=4",
                           "ns3::TcpSocketBase::Sack=false", NULL));
  g_assert_no_error(error);
  /* the first bad element is reported */
  g_assert_false(check_list(1000, &error, "ns3::TcpSocket::InitialCwnd=4",
                            "ns3::TcpSocket::InitialCwnnd=4", NULL));
  assert_list_refused(error, "did you mean");
  error = NULL;
  /* ns-3 keeps the first of two equal names */
  g_assert_false(check_list(1000, &error, "ns3::TcpSocket::InitialCwnd=4",
                            "ns3::TcpSocket::InitialCwnd=8", NULL));
  assert_list_refused(error, "'ns3::TcpSocket::InitialCwnd' given twice");
  error = NULL;
  /* windows of at least one segment of the run's size */
  g_assert_false(check_list(1400, &error, "ns3::TcpSocket::RcvBufSize=1200", NULL));
  assert_list_refused(error, "expected an integer from 1400 to 1073741824");
  error = NULL;
  g_assert_false(check_list(1400, &error, "ns3::TcpSocketBase::MaxWindowSize=1399", NULL));
  assert_list_refused(error, "from 1400 to 65535");
  error = NULL;
  g_assert_true(check_list(536, &error, "ns3::TcpSocket::RcvBufSize=600",
                           "ns3::TcpSocketBase::MaxWindowSize=536", NULL));
  g_assert_no_error(error);
  g_assert_false(ns_ns3_attribute_check("ns3::TcpSocket::RcvBufSize=600", NULL));
  /* the congestion window in bytes is 32 bits */
  g_assert_false(check_list(65538, &error, "ns3::TcpSocket::InitialCwnd=65535", NULL));
  assert_list_refused(error, "32-bit congestion window");
  error = NULL;
  g_assert_true(check_list(65537, &error, "ns3::TcpSocket::InitialCwnd=65535", NULL));
  /* FqCoDel's set-associative hash: flows a multiple of the ways */
  g_assert_false(check_list(0, &error, "ns3::FqCoDelQueueDisc::EnableSetAssociativeHash=true",
                            "ns3::FqCoDelQueueDisc::Flows=1001", NULL));
  assert_list_refused(error, "must be a multiple of ns3::FqCoDelQueueDisc::SetWays (8)");
  error = NULL;
  g_assert_false(check_list(0, &error, "ns3::FqCoDelQueueDisc::SetWays=3",
                            "ns3::FqCoDelQueueDisc::EnableSetAssociativeHash=1", NULL));
  assert_list_refused(error, "Flows (1024) must be a multiple");
  error = NULL;
  g_assert_true(check_list(0, &error, "ns3::FqCoDelQueueDisc::EnableSetAssociativeHash=true",
                           "ns3::FqCoDelQueueDisc::Flows=1000", "ns3::FqCoDelQueueDisc::SetWays=10",
                           NULL));
  g_assert_true(check_list(0, &error, "ns3::FqCoDelQueueDisc::Flows=1001", NULL));
  /* crossed HyStart delay bounds are harmless in ns-3 (an if/else clamp) */
  g_assert_true(check_list(0, &error, "ns3::TcpCubic::HyStartDelayMax=0s", NULL));
  g_assert_no_error(error);
}

/* The listing names every accepted and every refused attribute, and the
 * accessors agree with it and with the check. */
static void test_listing_and_samples(void)
{
  g_autofree char *text = ns_ns3_attribute_names();
  g_assert_true(g_str_has_prefix(text, "ns-3 attributes accepted by --ns3"));
  g_assert_true(g_str_has_suffix(text, "\n"));
  gsize n = ns_ns3_attribute_count();
  g_assert_cmpuint(n, >=, 50);
  g_autoptr(GPtrArray) examples = g_ptr_array_new_with_free_func(g_free);
  for (gsize i = 0; i < n; i++) {
    const char *name = ns_ns3_attribute_name(i);
    g_autofree char *line = g_strdup_printf("  %s  ", name);
    g_assert_nonnull(strstr(text, line));
    g_assert_true(g_str_has_prefix(name, "ns3::"));
    const char *kind = ns_ns3_attribute_kind(i);
    g_assert_nonnull(kind);
    char **samples = ns_ns3_attribute_samples(i);
    g_assert_nonnull(samples[0]);
    g_assert_nonnull(samples[1]);
    for (int k = 0; samples[k] != NULL; k++) {
      g_autofree char *assignment = g_strdup_printf("%s=%s", name, samples[k]);
      assert_valid(assignment);
    }
    if (g_str_equal(kind, "boolean")) {
      g_assert_cmpstr(samples[1], ==, "true");
      g_assert_cmpstr(samples[2], ==, "false");
    }
    g_ptr_array_add(examples, g_strdup_printf("%s=%s", name, samples[0]));
    g_strfreev(samples);
  }
  /* all the examples fit together */
  GError *error = NULL;
  g_assert_true(ns_ns3_attributes_check(examples, 0, &error));
  g_assert_no_error(error);
  const char *refused[] = { "ns3::TcpSocket::SegmentSize", "ns3::PointToPointNetDevice::DataRate",
                            "ns3::DropTailQueue<Packet>::MaxSize" };
  const char *known = strstr(text, "Known but not settable with --ns3:\n");
  g_assert_nonnull(known);
  for (gsize i = 0; i < G_N_ELEMENTS(refused); i++)
    g_assert_nonnull(strstr(known, refused[i]));
}

/* ---- the regression: every accepted value runs in ns-3 ------------------ */

static void simulate_packet(const NsTopology *t, const NsSchedule *s, GPtrArray *assignments,
                            const char *what)
{
  GError *error = NULL;
  if (!ns_ns3_attributes_check(assignments, NS_NS3_DEFAULT_SEGMENT, &error))
    g_error("%s: check refused the set: %s", what, error->message);
  NsSimOptions opt;
  ns_sim_options_init(&opt);
  opt.model = NS_MODEL_PACKET;
  opt.wall_limit = 300;
  for (guint i = 0; i < assignments->len; i++)
    g_ptr_array_add(opt.ns3, g_strdup(g_ptr_array_index(assignments, i)));
  NsSimResult r;
  if (!ns_simulate(t, s, &opt, &r, &error)) {
    g_ptr_array_add(assignments, NULL);
    g_autofree char *all = g_strjoinv(" ", (char **)assignments->pdata);
    g_error("%s: simulation failed: %s\n  with --ns3: %s", what, error->message, all);
  }
  g_assert_cmpfloat(r.completion, >, 0);
  g_assert_cmpuint(r.n_transfers, ==, (uint64_t)s->n_machines * (uint64_t)(s->n_machines - 1));
  ns_sim_result_clear(&r);
  ns_sim_options_clear(&opt);
}

static gboolean is_numeric(const char *kind)
{
  return !g_str_equal(kind, "boolean") && !g_str_equal(kind, "enum") &&
         !g_str_equal(kind, "TypeId");
}

/* Runs, on a 3-machine star (64 KiB alltoall, the message crossing two
 * hops): every attribute's typical value together (Cubic, so that its
 * attributes act); every numeric attribute's highest value together; every
 * numeric attribute's lowest value alone (all lowest values at once are a
 * heavy-loss stress, not a configuration); and every boolean, enum and
 * TypeId name, the k-th names of all of them together. */
static void test_every_accepted_value_runs(void)
{
  g_autoptr(NsTopology) t = ns_shape_star(3, 100e6, 10e-6);
  NsPlanParams params = { .msize = 65536 };
  GError *error = NULL;
  g_autoptr(NsSchedule) s = ns_plan(t, NS_COLL_ALLTOALL, "simple", &params, &error);
  g_assert_no_error(error);
  gsize n = ns_ns3_attribute_count();

  g_autoptr(GPtrArray) typical = g_ptr_array_new_with_free_func(g_free);
  g_autoptr(GPtrArray) highest = g_ptr_array_new_with_free_func(g_free);
  for (gsize i = 0; i < n; i++) {
    const char *name = ns_ns3_attribute_name(i);
    char **samples = ns_ns3_attribute_samples(i);
    if (!g_str_equal(name, "ns3::TcpL4Protocol::SocketType"))
      g_ptr_array_add(typical, g_strdup_printf("%s=%s", name, samples[0]));
    if (is_numeric(ns_ns3_attribute_kind(i)))
      g_ptr_array_add(highest, g_strdup_printf("%s=%s", name, samples[2]));
    g_strfreev(samples);
  }
  simulate_packet(t, s, typical, "typical values");
  simulate_packet(t, s, highest, "highest values");

  for (gsize i = 0; i < n; i++) {
    if (!is_numeric(ns_ns3_attribute_kind(i)))
      continue;
    char **samples = ns_ns3_attribute_samples(i);
    g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(one, g_strdup_printf("%s=%s", ns_ns3_attribute_name(i), samples[1]));
    g_strfreev(samples);
    simulate_packet(t, s, one, "lowest value");
  }

  for (int k = 1;; k++) {
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (gsize i = 0; i < n; i++) {
      if (is_numeric(ns_ns3_attribute_kind(i)))
        continue;
      char **samples = ns_ns3_attribute_samples(i);
      if (g_strv_length(samples) > (guint)k)
        g_ptr_array_add(names, g_strdup_printf("%s=%s", ns_ns3_attribute_name(i), samples[k]));
      g_strfreev(samples);
    }
    if (names->len == 0)
      break;
    simulate_packet(t, s, names, "names");
  }
}

int main(int argc, char **argv)
{
  g_test_init(&argc, &argv, NULL);
  g_test_add_func("/ns3_attributes/accepts_every_kind", test_accepts_every_kind);
  g_test_add_func("/ns3_attributes/unknown_names", test_unknown_names);
  g_test_add_func("/ns3_attributes/refused_names", test_refused_names);
  g_test_add_func("/ns3_attributes/malformed_values", test_malformed_values);
  g_test_add_func("/ns3_attributes/out_of_range", test_out_of_range);
  g_test_add_func("/ns3_attributes/injection", test_injection);
  g_test_add_func("/ns3_attributes/syntax", test_syntax);
  g_test_add_func("/ns3_attributes/list", test_list);
  g_test_add_func("/ns3_attributes/listing_and_samples", test_listing_and_samples);
  g_test_add_func("/ns3_attributes/every_accepted_value_runs", test_every_accepted_value_runs);
  return g_test_run();
}
