// netsched-ns3 — runs the machines' programs (sim/program.h) over a
// transport with the replay's semantics (sim/replay.c): per step the
// receives are posted, then each send once the syncs it waits for have
// arrived, in posting order, and the next step starts when all of the
// step's transfers completed; a rendezvous transfer's data moves once its
// receive is posted, an eager one (fewer bytes than the threshold) when
// sent, completing at its sender then; barriers before the phases listed
// (dissemination rounds of messages, or dedicated hardware); pair-wise
// and light syncs as messages of sync_size bytes.
#ifndef NETSCHED_NS3_RUNNER_H
#define NETSCHED_NS3_RUNNER_H

#include <glib.h>
extern "C" {
#include "sim/program.h"
}

#include "transport.h"

namespace netsched_ns3 {

// The ordered pairs the program sends anything between (p·p flags).
std::vector<char> program_pairs(const Program *prog);
// Runs the program to the end (or to a deadlock) and writes the results
// into prog's shared memory: start/end per transfer, finish per machine,
// the completion, relative to the moment the transport was ready. FALSE
// with prog->header->error set on a deadlock.
bool run_program(Program *prog, Transport &transport);

}  // namespace netsched_ns3

#endif
