// lock_channels.cpp — the lock parameters and add_lock_channels (lock_channels.hpp).
#include "gen/lock_channels.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "core/rng.hpp"
#include "gen/params.hpp"

namespace rtpar::gen {

namespace {

// kLockDomain separates the lock draws from the family's own stream of the same seed.
constexpr std::uint64_t kLockDomain = 0x4745'4e4c'4f43'4b53ULL;  // "GENLOCKS"

// lock_family is a pseudo-family holding the lock parameters, for ParamReader.
const FamilyInfo& lock_family() {
  static const FamilyInfo info{"locks", "lock channels added to any family's set",
                               lock_param_infos()};
  return info;
}

}  // namespace

const std::vector<ParamInfo>& lock_param_infos() {
  static const std::vector<ParamInfo> infos = {
      {"locks", "0", "lock channels per set (0: none, and nothing drawn)"},
      {"lock_users", "2", "tasks sharing each lock (≥ 2; capped at the set's task count)"},
      {"lock_hold", "0.05", "hold as a fraction of the smallest user's C (0 < f ≤ 1)"},
      {"lock_accesses", "1", "times each job of each user takes each lock"},
  };
  return infos;
}

bool is_lock_param(std::string_view key) {
  return std::any_of(lock_param_infos().begin(), lock_param_infos().end(),
                     [&](const ParamInfo& p) { return p.name == key; });
}

LockParams read_lock_params(const Params& params) {
  const ParamReader reader(lock_family(), params);
  LockParams p;
  p.locks = static_cast<int>(reader.integer("locks", 0, 1000));
  p.users = static_cast<int>(reader.integer("lock_users", 2, 1'000'000));
  p.hold = reader.real("lock_hold", 0, 1);
  if (!(p.hold > 0)) reader.fail("lock_hold", "must be > 0");
  p.accesses = static_cast<int>(reader.integer("lock_accesses", 1, 1'000'000));
  return p;
}

void add_lock_channels(TaskSet& set, const LockParams& p, std::uint64_t seed) {
  const std::size_t n = set.tasks.size();
  if (p.locks <= 0 || n < 2) return;
  Rng rng(derive_seed(seed, kLockDomain));
  const std::size_t users = std::min<std::size_t>(static_cast<std::size_t>(p.users), n);
  for (int l = 0; l < p.locks; ++l) {
    // The first `users` entries of a partial Fisher–Yates shuffle of the task indices.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    for (std::size_t k = 0; k < users; ++k) {
      std::swap(order[k], order[k + rng.below(n - k)]);
    }
    std::int64_t min_c = std::numeric_limits<std::int64_t>::max();
    std::int64_t min_d = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = 0; k < users; ++k) {
      min_c = std::min(min_c, set.tasks[order[k]].work.count());
      min_d = std::min(min_d, set.tasks[order[k]].deadline.count());
    }
    auto hold = static_cast<std::int64_t>(static_cast<double>(min_c) * p.hold);
    hold = std::max<std::int64_t>(1, std::min(hold, min_d - 1));
    ChannelSpec ch;
    ch.name = "lock" + std::to_string(l);
    ch.kind = ChannelKind::lock;
    ch.size_bytes = 8;
    ch.hold = Duration(hold);
    ch.accesses = p.accesses;
    ch.writer = set.tasks[order[0]].name;
    for (std::size_t k = 1; k < users; ++k) ch.readers.push_back(set.tasks[order[k]].name);
    set.channels.push_back(std::move(ch));
  }
}

}  // namespace rtpar::gen
