// rt_neighbours.hpp — the other processes running real-time threads on this machine.
//
// A measurement of real-time behaviour (a runtime experiment, a benchmark) is only about rtpar
// when nothing else competes at real-time priority: another process's SCHED_FIFO threads on the
// same cores (a second `rtpar run`, a test suite, a soak test) preempt ours or are preempted by
// them, and the misses they cause say nothing about the plan. Linux's own kernel threads at
// real-time priority (migration/N, watchdogs, threaded IRQs) are part of the machine and left
// out: they have no command line.
#pragma once

#include <string>
#include <vector>

namespace rtpar::detail {

// RtNeighbour is one other process with at least one thread at SCHED_FIFO, SCHED_RR or
// SCHED_DEADLINE.
struct RtNeighbour {
  int pid = 0;
  std::string command;  // its command line's first word (/proc/PID/cmdline), for people
  int threads = 0;      // how many of its threads are real-time
};

// rt_neighbours lists the user processes other than the calling one that have real-time threads
// now (read from /proc/PID/task/TID/stat, field 41 `policy`). A process that exits while being
// read is skipped; an unreadable /proc gives an empty list.
std::vector<RtNeighbour> rt_neighbours();

}  // namespace rtpar::detail
