/* netsched — a digest of a schedule's contents. */
#ifndef NETSCHED_LOWER_SCHEDULE_DIGEST_H
#define NETSCHED_LOWER_SCHEDULE_DIGEST_H

#include "sched/schedule.h"

/* SHA-256 (hex, newly allocated) over the collective, algorithm, machines,
 * root, segments, execution, and every phase's transfers with their chunks:
 * two schedules with the same digest move the same chunks between the same
 * machines in the same phases. Sync edges and routes are not included (a
 * routine's header names its sync scheme separately). O(transfers + chunks). */
char *ns_schedule_digest(const NsSchedule *s);

#endif
