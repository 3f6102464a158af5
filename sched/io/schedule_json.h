/* netsched — Schedule IR as JSON. Schema: docs/schedule-format.md. Streaming
 * readers and writers, and the JSON Lines form: sched/io/schedule_stream.h.
 *
 * Version 1 document:
 *   {
 *     "format": "netsched-schedule", "version": 1,
 *     "collective": "alltoall" | "allgather" | "bcast",
 *     "algorithm": "faraj",
 *     "machines": ["n0", "n1", ...],
 *     "msize_bytes": 65536,
 *     "execution": "phased" | "posted",
 *     "root": "n0",                  (bcast only)
 *     "segments": 16,                (bcast only)
 *     "phases": [ [ T, T, ... ], ... ],
 *     "sync": [ [from, to], ... ],   (optional; global transfer indices)
 *     "routes": [ [t, ["n1", ...]], ... ],  (optional; own routes)
 *     "sync_scheme": "sender-all"    (optional; sched/ir/sync.h)
 *   }
 * A transfer T is [src, dst, chunk, chunk, ...] with machine indices; a
 * chunk is [origin, destination] for alltoall, an origin index for
 * allgather, a segment index for bcast.
 */
#ifndef NETSCHED_SCHEDULE_JSON_H
#define NETSCHED_SCHEDULE_JSON_H

#include "sched/ir/schedule.h"
#include <stdio.h>

#define NS_SCHEDULE_FORMAT "netsched-schedule"
/* The value of the optional "relays" key: relays store and forward, one
 * holder per message (all-to-all only; NsSchedule.store_forward). */
#define NS_RELAYS_STORE_FORWARD "store-and-forward"
/* A reduction's transfer whose receiver combines starts with this string:
 * ["+", src, dst, segment, ...] (NsTransfer.combine; without it the
 * receiver's partial result becomes a copy). */
#define NS_SCHEDULE_COMBINE_MARK "+"
/* A reduction's transfer of raw contributions starts with this string:
 * ["r", src, dst, [origin, segment], ...] (NsTransfer.raw; schedule.h,
 * "Raw contributions"). */
#define NS_SCHEDULE_RAW_MARK "r"
#define NS_SCHEDULE_VERSION 1

/* Parses a schedule held in memory (JSON; JSON Lines and gzip or zstd
 * data are recognised too). Errors (NS_ERROR_INPUT) read
 * "source:LINE:COLUMN: what" for JSON syntax errors and
 * "source: $.phases[3][7][1]: what" for schema errors (a JSON path pointing
 * at the offending value). Strict RFC 8259: nesting <= 64, integers within
 * int64, no duplicate top-level keys. Every index is range-checked, so a
 * schedule that parses can be verified without further checks of its
 * shape. Streams through sched/io/schedule_stream.h: no document tree. */
NsSchedule *ns_schedule_parse_json(const char *source, const char *text, gsize len,
                                   GError **error);
/* `path` "-" reads standard input (named <stdin> in messages). Reads
 * either format, compressed or not (ns_schedule_load). */
NsSchedule *ns_schedule_load_json(const char *path, GError **error);

/* Writes the schedule as JSON; streaming (no DOM), so million-transfer
 * schedules cost no more memory than the schedule itself. */
gboolean ns_schedule_write_json(const NsSchedule *s, FILE *out, GError **error);
gboolean ns_schedule_save_json(const NsSchedule *s, const char *path, GError **error);

#endif
