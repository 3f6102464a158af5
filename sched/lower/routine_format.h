/* netsched — the routine table format (docs/generate.md, "Table format").
 *
 * Shared by the writer (sched/lower/routine.c) and the runtime that
 * reads it (mpi/runtime/ns_routine.c); plain C, no GLib, because the
 * runtime is copied into generated routines that depend on MPI alone.
 *
 * A table is:
 *   "NSRTABLE" (8 bytes), varint version, varint body length, the body,
 *   then the FNV-1a 64-bit hash of every byte before it (8 bytes, little
 *   endian). Varints are unsigned LEB128 (at most 10 bytes); a string is a
 *   varint length (<= NSR_MAX_STRING) and that many bytes, no NUL.
 * Body:
 *   collective, p, root + 1 (0: none), segments, flags (NSR_FLAG_*),
 *   sync_size, window, item_bytes, eager_threshold (version 2 on; a
 *   version 1 table has none and reads as 0);
 *   strings algorithm, topology, sync scheme, schedule digest;
 *   p machine names;
 *   barrier count, then each barrier's phase (increasing; a barrier
 *   before phase k is passed before the first step of phase >= k);
 *   p machine sections, each: scratch slots, sends (of the whole
 *   routine), steps; each step: phase (the first as is, then the gap to
 *   the previous minus one), sends, receives; each send: peer, payload,
 *   syncs awaited, releases; each receive: peer, payload, [light: the
 *   peer's send index to tell "ready"], releases. A payload is
 *   NSR_PAYLOAD_DUMMY, NSR_PAYLOAD_DIRECT, or 1 + n followed by n block
 *   locations (index << 2 | NSR_LOC_*). A release is (peer, the peer's
 *   send index): one sync message to that send once this operation
 *   completed.
 */
#ifndef NETSCHED_ROUTINE_FORMAT_H
#define NETSCHED_ROUTINE_FORMAT_H

#define NSR_MAGIC "NSRTABLE"
#define NSR_MAGIC_LEN 8
#define NSR_VERSION 2 /* 2: eager_threshold; the runtime reads 1 too */
#define NSR_MAX_MACHINES 65536
#define NSR_MAX_STRING 4096

/* flags */
#define NSR_FLAG_RECEIVER_BASED 1u /* releases on receive completion (else send completion) */
#define NSR_FLAG_LIGHT 2u          /* receivers tell senders "ready" (light barrier) */
#define NSR_FLAG_HW_BARRIER 4u     /* barriers as MPI_Barrier, not dissemination messages */
#define NSR_FLAG_POSTED 8u         /* one posted step: no phase order to keep */
/* Phased: a data message of eager_threshold bytes or more is sent with
 * MPI_Issend (a rendezvous), a smaller one with MPI_Isend (eager), as the
 * replay's --eager-threshold; without the flag every message is MPI_Isend. */
#define NSR_FLAG_SYNCHRONOUS 16u
#define NSR_FLAGS_ALL 31u

/* payloads */
#define NSR_PAYLOAD_DUMMY 0u  /* one block of filler (the dummy sync scheme) */
#define NSR_PAYLOAD_DIRECT 1u /* the one block the peer pair implies */

/* block locations */
#define NSR_LOC_SEND 0u    /* the caller's send buffer */
#define NSR_LOC_RECV 1u    /* the caller's receive buffer */
#define NSR_LOC_SCRATCH 2u /* the runtime's scratch buffer */

/* The smallest and largest sync message: it carries the send index (4 bytes). */
#define NSR_MIN_SYNC_SIZE 4u
#define NSR_MAX_SYNC_SIZE 65536u

#endif
