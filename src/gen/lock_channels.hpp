// lock_channels.hpp — lock channels added to any family's generated set (docs/generate.md,
// "Lock channels"): the parameters `locks`, `lock_users`, `lock_hold` and `lock_accesses`, which
// every family accepts, and the draw that adds the channels after the family drew its tasks.
// With locks = 0 (the default) nothing is drawn, so a lock-free set is the one the family alone
// draws, byte for byte.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

// LockParams are the lock-channel parameters of one draw.
struct LockParams {
  int locks = 0;       // lock channels per set
  int users = 2;       // tasks per lock (capped at the set's task count)
  double hold = 0.05;  // hold as a fraction of the smallest user's C
  int accesses = 1;    // accesses per job of each user
};

// lock_param_infos documents the lock parameters (shown by `rtpar generate --list`).
const std::vector<ParamInfo>& lock_param_infos();

// is_lock_param says whether `key` is one of the lock parameters (every family accepts them).
bool is_lock_param(std::string_view key);

// read_lock_params reads the lock parameters from `params` (keys that are not lock parameters
// must be left out), with their defaults; throws InputError at "generator.<key>".
LockParams read_lock_params(const Params& params);

// add_lock_channels appends p.locks lock channels "lock0", "lock1", ... to `set`, drawn from
// xoshiro256** seeded with derive_seed(seed, the lock domain): each lock's users are
// min(p.users, task count) distinct tasks drawn uniformly (the first the writer, the others
// readers), its hold ⌊p.hold × the smallest user's C⌋ (at least 1 ns, below every user's
// deadline), its accesses p.accesses, its size 8 bytes. A set of fewer than two tasks gets none
// (a lock needs a writer and a reader). Draws nothing when p.locks = 0.
void add_lock_channels(TaskSet& set, const LockParams& p, std::uint64_t seed);

}  // namespace rtpar::gen
