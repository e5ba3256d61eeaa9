// lock_sections.cpp — sim_locks and LockSections (lock_sections.hpp).
#include "sim/lock_sections.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/rng.hpp"

namespace rtpar::sim {

namespace {

// kLockDomain separates the section placement streams from the overhead, execution and steal
// draws: they start from derive_seed(seed, kLockDomain).
constexpr std::uint64_t kLockDomain = 0x4c4f'434b'5345'4354ULL;  // "LOCKSECT"

// Unit is a stretch of a job that one thread runs whole: a node, or one unit of a bag node.
struct Unit {
  int node = 0;
  std::int64_t begin = 0;  // in the node's execution
  std::int64_t length = 0;
  std::int64_t used = 0;           // by the sections placed in it
  std::vector<std::size_t> picks;  // indices of those sections
};

}  // namespace

std::vector<SimLock> sim_locks(const SimModel& model, const TaskSet& set) {
  std::vector<SimLock> locks;
  for (const ChannelSpec& ch : set.channels) {
    if (ch.kind != ChannelKind::lock) continue;
    SimLock lock;
    lock.name = ch.name;
    lock.hold = ch.hold.count();
    lock.accesses = ch.accesses;
    std::vector<std::string> names = ch.readers;
    names.push_back(ch.writer);
    for (const std::string& name : names) {
      if (name == kNonRtEndpoint) continue;
      for (std::size_t i = 0; i < set.tasks.size(); ++i) {
        if (set.tasks[i].name == name && model.task_of_set[i] >= 0) {
          lock.users.push_back(model.task_of_set[i]);
        }
      }
    }
    std::sort(lock.users.begin(), lock.users.end());
    lock.users.erase(std::unique(lock.users.begin(), lock.users.end()), lock.users.end());
    lock.local = true;
    int core = -1;
    for (const int u : lock.users) {
      const SimTask& t = model.tasks[static_cast<std::size_t>(u)];
      const int c = t.threads.size() == 1
                        ? model.threads[static_cast<std::size_t>(t.threads.front())].core
                        : -1;
      if (c < 0 || t.edf || (core >= 0 && c != core)) lock.local = false;
      core = c;
      for (const SimNode& n : t.nodes) lock.ceiling = std::max(lock.ceiling, n.priority);
    }
    locks.push_back(std::move(lock));
  }
  return locks;
}

LockSections::LockSections(const SimModel& model, const SimOptions& settings)
    : m_(model),
      seed_(settings.seed),
      min_ppm_(settings.execution_min_ppm),
      max_ppm_(settings.execution_max_ppm) {
  if (!active()) return;
  task_locks_.resize(m_.tasks.size());
  sections_.resize(m_.tasks.size());
  for (std::size_t l = 0; l < m_.locks.size(); ++l) {
    for (const int u : m_.locks[l].users) {
      task_locks_[static_cast<std::size_t>(u)].push_back(static_cast<int>(l));
    }
  }
  for (std::size_t i = 0; i < m_.tasks.size(); ++i) sections_[i].resize(m_.tasks[i].nodes.size());
  steps_.resize(m_.threads.size());
  step_at_.assign(m_.threads.size(), 0);
  in_lock_.assign(m_.threads.size(), -1);
  asked_.assign(m_.threads.size(), 0);
  state_.resize(m_.locks.size());
  for (const SimLock& l : m_.locks) {
    SimLockResult r;
    r.name = l.name;
    r.global = !l.local;
    r.hold_ns = l.hold;
    stats_.push_back(std::move(r));
  }
}

std::int64_t LockSections::section_length(std::int64_t hold, Rng& rng) const {
  if (min_ppm_ == kExecutionPpm && max_ppm_ == kExecutionPpm) return hold;
  const std::int64_t f = rng.uniform_int(min_ppm_, max_ppm_);
  const __int128 scaled = static_cast<__int128>(hold) * f / kExecutionPpm;
  return static_cast<std::int64_t>(std::max<__int128>(scaled, 1));
}

void LockSections::start_job(int ti, std::uint64_t job, const std::vector<std::int64_t>& length) {
  const auto i = static_cast<std::size_t>(ti);
  if (!active() || task_locks_[i].empty()) return;
  const SimTask& tk = m_.tasks[i];
  for (std::vector<Section>& s : sections_[i]) s.clear();
  Rng rng(derive_seed(derive_seed(derive_seed(seed_, kLockDomain), tk.set_index), job));
  std::vector<Section> wanted;
  for (const int l : task_locks_[i]) {
    const SimLock& lock = m_.locks[static_cast<std::size_t>(l)];
    for (int a = 0; a < lock.accesses; ++a) {
      wanted.push_back(Section{0, section_length(lock.hold, rng), l});
    }
  }
  std::vector<Unit> units;
  for (std::size_t n = 0; n < tk.nodes.size(); ++n) {
    const SimNode& node = tk.nodes[n];
    if (length[n] <= 0 || node.length - node.folded <= 0) continue;  // joins, pure overheads
    const std::int64_t step = node.piece > 0 ? node.piece : length[n];
    for (std::int64_t b = 0; b < length[n]; b += std::min(step, length[n] - b)) {
      units.push_back(Unit{static_cast<int>(n), b, std::min(step, length[n] - b), 0, {}});
    }
  }
  for (std::size_t w = 0; w < wanted.size(); ++w) {
    std::int64_t room = 0;  // the largest room left: a section longer than it is cut to it
    for (const Unit& u : units) room = std::max(room, u.length - u.used);
    Section& s = wanted[w];
    s.length = std::min(s.length, room);
    if (s.length <= 0) continue;  // dropped: no room left in this job
    std::uint64_t total = 0;
    for (const Unit& u : units) {
      if (u.length - u.used >= s.length) total += static_cast<std::uint64_t>(u.length - u.used);
    }
    std::uint64_t r = rng.below(total);
    for (Unit& u : units) {
      const auto free = static_cast<std::uint64_t>(u.length - u.used);
      if (u.length - u.used < s.length) continue;
      if (r < free) {
        u.used += s.length;
        u.picks.push_back(w);
        break;
      }
      r -= free;
    }
  }
  for (Unit& u : units) {
    if (u.picks.empty()) continue;
    // Random order, then sorted uniform gap points: uniform non-overlapping positions.
    for (std::size_t k = u.picks.size(); k > 1; --k) {
      std::swap(u.picks[k - 1], u.picks[rng.below(k)]);
    }
    std::vector<std::int64_t> points;
    for (std::size_t k = 0; k < u.picks.size(); ++k) {
      points.push_back(rng.uniform_int(0, u.length - u.used));
    }
    std::sort(points.begin(), points.end());
    std::int64_t before = 0;  // section length placed before the k-th
    std::vector<Section>& mine = sections_[i][static_cast<std::size_t>(u.node)];
    for (std::size_t k = 0; k < u.picks.size(); ++k) {
      Section s = wanted[u.picks[k]];
      s.offset = u.begin + points[k] + before;
      before += s.length;
      mine.push_back(s);
    }
  }
  for (std::vector<Section>& s : sections_[i]) {
    std::sort(s.begin(), s.end(),
              [](const Section& a, const Section& b) { return a.offset < b.offset; });
  }
}

std::int64_t LockSections::take(int th, int ti, int n, std::int64_t begin, std::int64_t piece,
                                std::int64_t cost) {
  std::vector<Step>& steps = steps_[static_cast<std::size_t>(th)];
  steps.clear();
  step_at_[static_cast<std::size_t>(th)] = 0;
  if (task_locks_[static_cast<std::size_t>(ti)].empty()) return piece + cost;
  const std::int64_t end = begin + piece;
  std::int64_t at = begin;  // execution of the piece covered by the steps so far
  for (const Section& s : sections_[static_cast<std::size_t>(ti)][static_cast<std::size_t>(n)]) {
    if (s.offset < begin || s.offset >= end) continue;
    // The first plain step may be empty (a section at the piece's start: requested when it ends).
    if (steps.empty() || s.offset > at) steps.push_back(Step{s.offset - at, -1});
    steps.push_back(Step{s.length, s.lock});
    at = s.offset + s.length;
  }
  if (steps.empty()) return piece + cost;
  if (end > at) steps.push_back(Step{end - at, -1});
  steps.front().length += cost;
  return steps.front().length;
}

LockStep LockSections::next(int th, std::int64_t t) {
  const auto h = static_cast<std::size_t>(th);
  LockStep out;
  std::vector<Step>& steps = steps_[h];
  if (steps.empty()) return out;
  const Step& ended = steps[step_at_[h]];
  if (ended.lock >= 0) {
    const auto l = static_cast<std::size_t>(ended.lock);
    LockState& st = state_[l];
    stats_[l].max_hold_ns = std::max(stats_[l].max_hold_ns, t - st.granted_at);
    st.holder = -1;
    in_lock_[h] = -1;
    if (!st.waiters.empty()) {
      const int w = st.waiters.front();
      st.waiters.pop_front();
      grant(w, ended.lock, asked_[static_cast<std::size_t>(w)], t);
      out.granted = w;
      const auto wi = static_cast<std::size_t>(w);
      out.granted_left = steps_[wi][step_at_[wi]].length;
    }
  }
  if (++step_at_[h] == steps.size()) {
    steps.clear();
    step_at_[h] = 0;
    return out;
  }
  const Step& now = steps[step_at_[h]];
  out.more = true;
  out.left = now.length;
  if (now.lock >= 0) out.spin = !request(th, now.lock, t);
  return out;
}

bool LockSections::request(int th, int lock, std::int64_t t) {
  const auto l = static_cast<std::size_t>(lock);
  LockState& st = state_[l];
  in_lock_[static_cast<std::size_t>(th)] = lock;
  asked_[static_cast<std::size_t>(th)] = t;
  if (m_.locks[l].local && st.holder >= 0) {
    throw std::logic_error("simulation: local lock '" + m_.locks[l].name +
                           "' requested while held: the priority ceiling's invariant is broken");
  }
  if (st.holder < 0 && st.waiters.empty()) {
    grant(th, lock, t, t);
    return true;
  }
  st.waiters.push_back(th);
  return false;
}

void LockSections::grant(int th, int lock, std::int64_t asked, std::int64_t t) {
  const auto l = static_cast<std::size_t>(lock);
  state_[l].holder = th;
  state_[l].granted_at = t;
  in_lock_[static_cast<std::size_t>(th)] = lock;
  ++stats_[l].sections;
  stats_[l].max_wait_ns = std::max(stats_[l].max_wait_ns, t - asked);
}

LockMode LockSections::mode(int th) const {
  const int l = in_lock_[static_cast<std::size_t>(th)];
  if (l < 0) return LockMode::none;
  return m_.locks[static_cast<std::size_t>(l)].local ? LockMode::ceiling : LockMode::nonpreemptive;
}

int LockSections::ceiling(int th) const {
  const int l = in_lock_[static_cast<std::size_t>(th)];
  return l < 0 ? 0 : m_.locks[static_cast<std::size_t>(l)].ceiling;
}

}  // namespace rtpar::sim
