/* netsched — the ns-3 attribute defaults `simulate --ns3` accepts.
 *
 * The packet model hands ns-3 attribute defaults to the simulation child in
 * NS_ATTRIBUTE_DEFAULT ("ns3::Class::Attr=value;..."). ns-3 3.37 never
 * reports a problem with that variable: a misspelt name is ignored, a value
 * its parser rejects leaves the member at whatever the C++ constructor put
 * there (a zero window, a zero congestion window: the run hangs), a
 * malformed number or time aborts the child, an out-of-range value that
 * parses divides by zero or dereferences NULL later, and a ';' inside a
 * value starts another assignment. This module validates every assignment
 * in the parent, before the run, against a table of the attributes that
 * take effect in a TCP-over-point-to-point simulation as SimGrid 3.32
 * builds it (see ns3_attributes.c for how the table was obtained).
 *
 * Value kinds and their syntax (exactly what ns-3 3.37 parses, nothing it
 * would misread):
 *   integer    decimal digits ("10"), a leading '-' for signed ones; a range
 *              per attribute
 *   number     decimal with optional fraction and exponent ("0.7", "1e-3")
 *   boolean    true, false, 1, 0, t, f
 *   time       number + unit s, ms, us, ns, ps, fs, min, h, d, y ("200ms");
 *              no unit: seconds
 *   data rate  digits with optional fraction + unit bps, kbps, Mbps, Gbps,
 *              Bps, KiB/s, ... ("1.5Gbps"); bare digits: bit/s
 *   queue size digits with optional fraction + unit p, kp, Kp, Kip, Mp, Mip
 *              ("10240p"); sizes in bytes are refused (see the table)
 *   enum       one of the attribute's names ("On")
 *   TypeId     one of the listed ns-3 class names ("ns3::TcpNewReno")
 */
#ifndef NETSCHED_SIM_NS3_ATTRIBUTES_H
#define NETSCHED_SIM_NS3_ATTRIBUTES_H

#include <glib.h>

/* The TCP segment size the single-assignment check assumes: SimGrid's and
 * netsched's default (--segment-size). */
#define NS_NS3_DEFAULT_SEGMENT 1000

/**
 * \function ns_ns3_attribute_check
 * \brief Validates one `ns3::Class::Attribute=value` assignment.
 *
 * Checks, in this order: no control character and no ';' anywhere (either
 * would inject text into NS_ATTRIBUTE_DEFAULT); the `NAME=VALUE` shape;
 * that NAME is an attribute of the table (else a "did you mean" suggestion
 * by edit distance, or by the same attribute name in another class); that
 * it is one netsched lets users set (a few are set by netsched or SimGrid
 * themselves, and ns-3 would ignore the user's value); that VALUE has the
 * attribute's kind and lies in its safe range. Bounds that depend on the
 * TCP segment size assume NS_NS3_DEFAULT_SEGMENT; ns_ns3_attributes_check()
 * uses the real one.
 *
 * \param assignment The text given to `--ns3`, e.g.
 *        "ns3::TcpSocket::InitialCwnd=10".
 * \param error Set on failure, in the NS_ERROR domain with code
 *        NS_ERROR_INPUT; the message names the attribute and says what is
 *        expected, e.g. "unknown ns-3 attribute 'ns3::TcpSocket::InitialCwnnd'
 *        (did you mean 'ns3::TcpSocket::InitialCwnd'?)".
 * \return TRUE when the assignment is valid.
 *
 * Time complexity: O(L) for a known name, O(T·L²) to find a suggestion for an
 * unknown one (T table entries, L the length of a name).
 */
gboolean ns_ns3_attribute_check(const char *assignment, GError **error);

/**
 * \function ns_ns3_attributes_check
 * \brief Validates all the `--ns3` assignments of one simulation.
 *
 * Every assignment as by ns_ns3_attribute_check(), with the bounds that
 * depend on the TCP segment size computed from \p segment_size, then what
 * only the whole set shows: an attribute given twice (ns-3 keeps the first
 * and silently drops the other), the congestion window in bytes beyond 32
 * bits, and FqCoDel's set-associative hash with a number of flows that is
 * not a multiple of its ways (each taking the attribute's default when it
 * is not given). With the default segment size, a single assignment passes
 * this check exactly when it passes ns_ns3_attribute_check().
 *
 * \param assignments Strings "ns3::Class::Attribute=value" (NULL: none).
 * \param segment_size The TCP segment size of the run in bytes
 *        (NsSimOptions.segment_size); <= 0 means NS_NS3_DEFAULT_SEGMENT.
 * \param error Set on the first failure: NS_ERROR domain, NS_ERROR_INPUT.
 * \return TRUE when every assignment is valid and they fit together.
 *
 * Time complexity: O(n·L + n log n) for n valid assignments.
 */
gboolean ns_ns3_attributes_check(const GPtrArray *assignments, int segment_size,
                                 GError **error);

/**
 * \function ns_ns3_attribute_names
 * \brief Describes the accepted attributes, for `--help` and the docs.
 *
 * One line per accepted attribute: its full name, what values it takes and
 * its default in a SimGrid run; then the known attributes that cannot be
 * set this way, each with the reason and what to use instead.
 *
 * \return Newly allocated text (g_free()), lines ending with '\n'.
 *
 * Time complexity: O(T) for T table entries.
 */
char *ns_ns3_attribute_names(void);

/**
 * \function ns_ns3_attribute_count
 * \brief The number of attributes ns_ns3_attribute_check() accepts.
 *
 * Time complexity: O(1).
 */
gsize ns_ns3_attribute_count(void);

/**
 * \function ns_ns3_attribute_name
 * \brief The full name ("ns3::Class::Attribute") of accepted attribute \p i.
 *
 * \param i Index, 0 <= i < ns_ns3_attribute_count().
 * \return A static string.
 *
 * Time complexity: O(1).
 */
const char *ns_ns3_attribute_name(gsize i);

/**
 * \function ns_ns3_attribute_kind
 * \brief The value kind of accepted attribute \p i: "integer", "number",
 * "boolean", "time", "data rate", "queue size", "enum" or "TypeId".
 *
 * \param i Index, 0 <= i < ns_ns3_attribute_count().
 * \return A static string.
 *
 * Time complexity: O(1).
 */
const char *ns_ns3_attribute_kind(gsize i);

/**
 * \function ns_ns3_attribute_samples
 * \brief Valid values of accepted attribute \p i, for tests and examples.
 *
 * The first is a typical non-default value; then, for numeric kinds, the
 * lowest and the highest accepted value (with the default segment size);
 * for booleans, enums and TypeIds every accepted name.
 *
 * \param i Index, 0 <= i < ns_ns3_attribute_count().
 * \return A newly allocated NULL-terminated array (g_strfreev()).
 *
 * Time complexity: O(1).
 */
char **ns_ns3_attribute_samples(gsize i);

#endif
