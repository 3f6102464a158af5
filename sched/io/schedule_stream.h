/* netsched — schedule files as streams: read and write a schedule phase by
 * phase, without holding it whole. Formats: docs/schedule-format.md.
 *
 * Two file formats carry the same schedule:
 *   NS_SCHEDULE_JSON   the interchange document ("netsched-schedule"),
 *   NS_SCHEDULE_JSONL  JSON Lines ("netsched-schedule-lines"): a header
 *                      line, one line per phase, trailing lines for sync
 *                      edges and routes, and an end line with the counts;
 *                      direct transfers are written [src,dst], without their
 *                      chunk. For very large schedules.
 * Readers tell them apart by content, and read gzip (.gz) and zstd (.zst)
 * files transparently, recognised by their magic bytes.
 *
 * Reading: NsScheduleReader validates as it reads, with the messages of
 * ns_schedule_parse_json ("FILE:LINE:COLUMN: what" for syntax, "FILE: PATH:
 * what" for the schema; JSON Lines schema errors carry the line: "FILE:LINE:
 * PATH: what"), in bounded chunks: memory is its buffer, the header, the
 * phase being read, and the sync edges and routes (kept for the caller).
 * A JSON document whose keys come in an unusual order (the phases before
 * the machines, or the sync edges before the phases) costs more: the values
 * that come too early are kept in a compact form until they can be checked.
 *
 *   r = ns_schedule_reader_open(path, &error);
 *   header = ns_schedule_reader_header(r, &error);      // no phases
 *   while ((got = ns_schedule_reader_next_phase(r, &phase, &error)) > 0)
 *     use(phase);                                       // valid until the next call
 *   tail = ns_schedule_reader_finish(r, &error);        // sync edges, routes
 *
 * Past 4 MiB of a document a second thread reads ahead (decompresses and
 * parses phases into a bounded queue; docs/schedule-format.md, "Limits and cost"):
 * the caller sees the same phases, counts and errors in the same order, and
 * finish and free join the thread. A reader is used from one thread at a time.
 *
 * Phases are delivered as they are read, before the rest of the file is
 * known: a JSON document that turns out to be bad after its phases (a
 * syntax error at its end, a bad sync edge) fails at the next call or at
 * finish, with the error the whole-document reader would give. Use nothing
 * of a schedule before ns_schedule_reader_finish() succeeded.
 *
 * Writing: NsScheduleWriter writes the header, then phases one at a time,
 * then the tail; the JSON it writes is byte for byte what
 * ns_schedule_write_json always wrote.
 */
#ifndef NETSCHED_SCHEDULE_STREAM_H
#define NETSCHED_SCHEDULE_STREAM_H

#include "sched/ir/schedule.h"
#include <stdio.h>

typedef enum {
  NS_SCHEDULE_JSON,
  NS_SCHEDULE_JSONL,
} NsScheduleFormat;

typedef enum {
  NS_COMPRESS_NONE,
  NS_COMPRESS_GZIP,
  NS_COMPRESS_ZSTD,
} NsCompression;

#define NS_SCHEDULE_LINES_FORMAT "netsched-schedule-lines"

/* Whether sync edges or routes follow the phases, as far as the reader
 * knows when the header is read. */
typedef enum {
  NS_TAIL_NONE,                /* none (JSON Lines: its header says so) */
  NS_TAIL_SOME,                /* some (given before the phases, or announced) */
  NS_TAIL_UNKNOWN,             /* a JSON document may still list some after its phases */
} NsTailKnown;

/* ---- reading ------------------------------------------------------------ */

typedef struct NsScheduleReader NsScheduleReader;

/*
 * ns_schedule_reader_open — starts reading a schedule file.
 *
 * `path` "-" reads standard input (named "<stdin>" in messages). Nothing is
 * read yet. Errors: NS_ERROR_IO "PATH: cannot open: why". O(1).
 */
NsScheduleReader *ns_schedule_reader_open(const char *path, GError **error);

/*
 * ns_schedule_reader_new_for_data — reads a schedule from memory.
 *
 * `source` names it in messages (NULL: "<schedule>"); the `len` bytes at
 * `text` are not copied and must outlive the reader; they need not be
 * NUL-terminated. Compressed data is recognised too. O(1).
 */
NsScheduleReader *ns_schedule_reader_new_for_data(const char *source, const void *text,
                                                  gsize len);

/* Bytes asked of the file per read (default 1 MiB; 1 is allowed: tests
 * use small reads to cross every boundary). Before the first read only. */
void ns_schedule_reader_set_read_size(NsScheduleReader *r, gsize bytes);

/* ---- limits: what a file can make a reader read and hold ----------------
 *
 * A compressed file of a few kilobytes can expand to gigabytes, and a
 * schedule's sync edges make the verifier keep every phase. A reader stops,
 * with NS_ERROR_INPUT, past what a schedule of the header's collective can
 * need. That need is counted in chunk moves (a transfer's chunks, each
 * delivered to its receiver): a schedule that delivers nothing twice moves
 * every all-to-all message to every machine but its origin at most once,
 * P(P−1)² moves (the all-data algorithms, rdb and 2dmesh, do exactly
 * that; direct ones move each message once, P(P−1)), every all-gather block
 * to every other machine once, P(P−1), and every broadcast segment to every
 * machine but the root once, S(P−1). Its transfers, the chunks of its
 * multi-chunk transfers and its sync edges are each at most that many, and
 * its decompressed text at most NS_SCHEDULE_INPUT_BASE bytes plus
 * NS_SCHEDULE_INPUT_PER_MOVE bytes a move and a machine (a JSON transfer
 * of netsched's, [65535,65534,[65535,65534]], is 27 bytes).
 */
#define NS_SCHEDULE_INPUT_BASE (G_GUINT64_CONSTANT(64) << 20)
#define NS_SCHEDULE_INPUT_PER_MOVE 64

/* The most chunk moves (and transfers, and sync edges) of a schedule of
 * `collective` on `machines` machines (`segments`: bcast) that delivers
 * nothing twice; saturates at G_MAXUINT64. O(1). */
uint64_t ns_schedule_max_moves(NsCollective collective, uint64_t machines, uint64_t segments);
/* The decompressed bytes such a schedule can need (saturating). O(1). */
uint64_t ns_schedule_max_input(NsCollective collective, uint64_t machines, uint64_t segments);

typedef struct {
  /* Decompressed bytes (and file bytes) read at most; 0: no such limit. */
  uint64_t max_input;
  /* Bound by what the header's collective can need instead: at most
   * ns_schedule_max_input bytes, and ns_schedule_max_moves transfers,
   * multi-chunk chunks and sync edges; before the header is known, what an
   * all-to-all on max_machines can need (no limit without max_machines). */
  gboolean need;
  /* The most machines a schedule is counted with (a topology's machines:
   * a header cannot claim more to raise its limits); 0: the header's. */
  uint32_t max_machines;
} NsScheduleLimits;

/* Sets the limits (any time: before the first read, or after the header);
 * a reader has none until then (a file is read whatever its size, as a
 * format: limits are for callers that must bound what a file costs them,
 * such as netsched verify). Past them, NS_ERROR_INPUT "FILE: the schedule is larger than the input
 * limit of 64.0 MiB (... bytes, decompressed; ...)" or "FILE: more than N
 * transfers: ...". */
void ns_schedule_reader_set_limits(NsScheduleReader *r, const NsScheduleLimits *limits);

/*
 * ns_schedule_reader_header — the schedule's header.
 *
 * Reads until the header is complete and checked: a schedule with no
 * phases, sync edges or routes (those come from next_phase and finish),
 * owned by the reader. NULL with NS_ERROR_INPUT (the file's first error) or
 * NS_ERROR_IO. Time O(header) for files written by netsched; a JSON
 * document that lists its phases before its header keys is read to its end
 * first.
 */
const NsSchedule *ns_schedule_reader_header(NsScheduleReader *r, GError **error);

/* The file's format and compression (after the header). */
NsScheduleFormat ns_schedule_reader_format(const NsScheduleReader *r);
NsCompression ns_schedule_reader_compression(const NsScheduleReader *r);
/* Can the file be read again from the start (ns_schedule_reader_open on
 * the same path)? Not for standard input. */
gboolean ns_schedule_reader_rereadable(const NsScheduleReader *r);
/* Whether sync edges or routes will come (after the header). */
NsTailKnown ns_schedule_reader_tail_known(const NsScheduleReader *r);

/*
 * ns_schedule_reader_next_phase — the next phase.
 *
 * Returns 1 with *phase filled (valid until the next call), 0 when the
 * phases are over, -1 with the error. Reads the header first if needed.
 * O(phase).
 */
int ns_schedule_reader_next_phase(NsScheduleReader *r, NsPhase *phase, GError **error);

/*
 * ns_schedule_reader_finish — reads to the end and returns the tail.
 *
 * Skips phases not taken, checks everything after them and the end of the
 * file, and returns a schedule with the header, the sync edges, the routes
 * and the sync scheme, and no phases (owned by the caller). NULL with the
 * file's first error. O(rest of the file).
 */
NsSchedule *ns_schedule_reader_finish(NsScheduleReader *r, GError **error);

/* Transfers and phases read so far. */
uint64_t ns_schedule_reader_n_transfers(const NsScheduleReader *r);
uint32_t ns_schedule_reader_n_phases(const NsScheduleReader *r);
/* Bytes of the (decompressed) document read so far: against the file's
 * size, how far an uncompressed file is read (progress lines). */
uint64_t ns_schedule_reader_position(const NsScheduleReader *r);

void ns_schedule_reader_free(NsScheduleReader *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsScheduleReader, ns_schedule_reader_free)

/*
 * ns_schedule_reader_read_all — the whole schedule, in memory.
 *
 * Appends every phase to a copy of the header and adds the tail. Memory:
 * the schedule (16 bytes a transfer) and the reader's buffer. Errors as
 * the reader's. O(file).
 */
NsSchedule *ns_schedule_reader_read_all(NsScheduleReader *r, GError **error);

/*
 * ns_schedule_load — reads a schedule file of either format, compressed or
 * not ("-": standard input). The same as ns_schedule_load_json.
 */
NsSchedule *ns_schedule_load(const char *path, GError **error);
/* The same under `limits` (NULL: none), for callers that must bound what
 * a file costs them (netsched simulate: what the collective can need on
 * the topology's machines). */
NsSchedule *ns_schedule_load_limited(const char *path, const NsScheduleLimits *limits,
                                     GError **error);

/* ---- writing ------------------------------------------------------------ */

typedef struct NsScheduleWriter NsScheduleWriter;

/*
 * ns_schedule_writer_new — starts writing a schedule onto `out`.
 *
 * `header` gives everything but the phases: its sync edges, routes and
 * sync scheme are written by ns_schedule_writer_finish (JSON Lines states
 * their number in its header line, so they must be there already); any
 * phases it holds are ignored. It must live until finish. `name` (a path,
 * or NULL) is used in messages. NULL with NS_ERROR_INPUT when the header
 * cannot be written (empty or non-UTF-8 names, a bad root or message
 * size). O(header).
 */
NsScheduleWriter *ns_schedule_writer_new(FILE *out, NsScheduleFormat format,
                                         const NsSchedule *header, const char *name,
                                         GError **error);
/* The same, writing the file compressed: one zstd frame or one gzip
 * member around the bytes ns_schedule_writer_new would write (what the
 * reader recognises); NS_COMPRESS_NONE is ns_schedule_writer_new. */
NsScheduleWriter *ns_schedule_writer_new_compressed(FILE *out, NsScheduleFormat format,
                                                    NsCompression compression,
                                                    const NsSchedule *header, const char *name,
                                                    GError **error);
/* Appends one phase (phase->index and first are ignored; phases are
 * numbered in the order written). O(phase). Write errors surface at finish. */
void ns_schedule_writer_phase(NsScheduleWriter *w, const NsPhase *phase);
/* FALSE with NS_ERROR_IO "cannot write schedule: why" once a write has
 * failed (a full disk), so that a long producer can stop early. O(1). */
gboolean ns_schedule_writer_check(const NsScheduleWriter *w, GError **error);
/* Writes the tail (sync edges, routes) and flushes. FALSE with NS_ERROR_IO
 * "cannot write schedule: why" when any write failed. Frees the writer. */
gboolean ns_schedule_writer_finish(NsScheduleWriter *w, GError **error);
/* Frees a writer without finishing (after an error). */
void ns_schedule_writer_abort(NsScheduleWriter *w);

/*
 * ns_schedule_write — writes a schedule held in memory, in either format,
 * streaming it (no copy). NS_ERROR_INPUT for what the format cannot
 * express, NS_ERROR_IO for write errors. O(schedule).
 */
gboolean ns_schedule_write(const NsSchedule *s, NsScheduleFormat format, FILE *out,
                           GError **error);

/*
 * ns_schedule_save — writes a schedule into the file `path`, compressed
 * when its name ends in .gz or .zst: into a temporary file beside it,
 * renamed over `path` when complete (a link at `path` is replaced, never
 * followed; platforms/io/output_file_internal.h), so a schedule that cannot be
 * written leaves the old file, or none; a device or pipe is written
 * directly.
 * Errors as ns_schedule_write, "PATH: what". O(schedule).
 */
gboolean ns_schedule_save(const NsSchedule *s, NsScheduleFormat format, const char *path,
                          GError **error);

/* The format a file name asks for: JSON Lines for *.jsonl (also .jsonl.gz,
 * .jsonl.zst), else JSON. */
NsScheduleFormat ns_schedule_format_for_name(const char *path);
/* The compression a file name asks for: gzip for *.gz, zstd for *.zst,
 * else none. */
NsCompression ns_schedule_compression_for_name(const char *path);
/* "json" or "jsonl" to a format; FALSE for anything else. */
gboolean ns_schedule_format_from_name(const char *name, NsScheduleFormat *format);
const char *ns_schedule_format_name(NsScheduleFormat format);

#endif
