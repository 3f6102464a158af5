/* netsched — internal: the verifier's set of all-to-all relay holdings,
 * (message, machine) -> hops the copy travelled, defined in
 * sched/verify/relay_set.c. Not part of the public API: included by the verifier
 * and its tests only. */
#ifndef NETSCHED_RELAY_SET_H
#define NETSCHED_RELAY_SET_H

#include <glib.h>
#include <stdint.h>

typedef struct NsRelaySet NsRelaySet;

/* An empty set. O(1). */
NsRelaySet *ns_relay_set_new(void);
void ns_relay_set_free(NsRelaySet *set);

/*
 * ns_relay_set_add — records that machine m (< 65,536, the all-to-all
 * limit) holds a copy of message c that travelled `hops` links (kept up to
 * 65,535: beyond that every route is longer than any shortest path).
 * FALSE, and nothing changes, when m holds c already. Amortised O(1).
 */
gboolean ns_relay_set_add(NsRelaySet *set, uint32_t c, uint32_t m, uint32_t hops);

/* Does m hold a copy of c? With it, *hops (may be NULL). O(1) expected. */
gboolean ns_relay_set_find(const NsRelaySet *set, uint32_t c, uint32_t m, uint32_t *hops);

/* Asks the processor for the slot of (c, m) ahead of a find or an add. */
void ns_relay_set_prefetch(const NsRelaySet *set, uint32_t c, uint32_t m);

/* Entries recorded. */
uint64_t ns_relay_set_size(const NsRelaySet *set);

#endif
