// channels_fig3.cpp — see channels_fig3.hpp. Each cell builds its task set in code, binds the
// producer and consumer jobs, attaches the nRT side (if any) through System::nonrt(), and runs.
#include "driver/channels_fig3.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "driver/channels_work.hpp"
#include "rtpar/error.hpp"
#include "rtpar/report.hpp"
#include "rtpar/system.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::bench {

namespace {

constexpr int kN = 64;

// Matrix is the message: a 64×64 int32 matrix (16 KiB) plus the write number and a checksum over
// both, so a consumer can tell a torn copy (parts of two writes) from a whole one.
struct Matrix {
  std::array<std::int32_t, kN * kN> v;
  std::uint64_t sequence;
  std::uint64_t checksum;
};

// checksum_of weights every element by its position, so swapped or mixed halves do not cancel.
std::uint64_t checksum_of(const Matrix& m) {
  std::uint64_t sum = m.sequence * 0x9E3779B97F4A7C15ULL;
  for (int k = 0; k < kN * kN; ++k) {
    sum += static_cast<std::uint64_t>(static_cast<std::uint32_t>(m.v[k])) * (2 * k + 1);
  }
  return sum;
}

// fill makes write number seq: different elements every write, so any mix is detectable.
void fill(Matrix& m, std::uint64_t seq) {
  std::uint32_t x = static_cast<std::uint32_t>(seq * 2654435761U) | 1U;
  for (int k = 0; k < kN * kN; ++k) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    m.v[k] = static_cast<std::int32_t>(x & 0xFFFF);
  }
  m.sequence = seq;
  m.checksum = checksum_of(m);
}

// square computes out = a·a with a naive i-k-j loop (the paper multiplies the two received
// matrices with Strassen; any fixed O(n³) work on the received data serves the same purpose).
// Unsigned arithmetic: the products wrap (defined behaviour), the work is the same.
std::int64_t square(const Matrix& a, std::array<std::uint32_t, kN * kN>& out) {
  out.fill(0);
  for (int i = 0; i < kN; ++i) {
    for (int k = 0; k < kN; ++k) {
      const auto aik = static_cast<std::uint32_t>(a.v[i * kN + k]);
      for (int j = 0; j < kN; ++j)
        out[i * kN + j] += aik * static_cast<std::uint32_t>(a.v[k * kN + j]);
    }
  }
  return static_cast<std::int64_t>(out[0]) + out[kN * kN - 1];
}

// Side is one pair's buffers and counters, allocated before the run (jobs never allocate).
struct Side {
  Matrix source{};
  Matrix received{};
  std::array<std::uint32_t, kN * kN> product{};
  std::atomic<std::int64_t> reads{0};
  std::atomic<std::int64_t> failed{0};
  std::atomic<std::int64_t> torn{0};
  std::atomic<std::int64_t> sink{0};
};

// Cell is everything one run shares between the main thread, the RT jobs and the nRT loops.
struct Cell {
  std::array<Side, 2> side;
  std::atomic<std::int64_t> first_release{0};
  std::int64_t producer_ns = 0;
  std::int64_t consumer_ns = 0;
};

// produce is a producer job: make write number seq + 1, publish it, burn the rest of the budget.
template <class Write>
void produce(Cell& cell, int pair, std::int64_t seq, Write&& write) {
  const std::int64_t t0 = thread_cpu_now();
  Side& s = cell.side[pair];
  fill(s.source, static_cast<std::uint64_t>(seq) + 1);
  write(s.source);
  spin_cpu_until(t0, cell.producer_ns);
}

// consume is a consumer job: read, check, multiply, burn the rest of the budget.
template <class Read>
void consume(Cell& cell, int pair, Read&& read) {
  const std::int64_t t0 = thread_cpu_now();
  Side& s = cell.side[pair];
  const ReadResult r = read(s.received);
  s.reads.fetch_add(1, std::memory_order_relaxed);
  if (!r.ok) {
    s.failed.fetch_add(1, std::memory_order_relaxed);
  } else if (checksum_of(s.received) != s.received.checksum) {
    s.torn.fetch_add(1, std::memory_order_relaxed);
  }
  s.sink.fetch_add(square(s.received, s.product), std::memory_order_relaxed);
  spin_cpu_until(t0, cell.consumer_ns);
}

std::string task_name(const char* role, int pair) { return fmt::format("{}{}", role, pair); }
std::string channel_name(int pair) { return fmt::format("matrix{}", pair); }

// build_set is the cell's task set: the RT tasks of both pairs and one channel per pair, whose
// nRT side (if any) is kNonRtEndpoint. Producers sit above consumers (priority 30 vs 20) so that,
// on a shared core, a consumer reads the matrix of the same period, as in the paper's pipeline.
TaskSet build_set(const Fig3Options& o, ChannelKind kind, PairConfig config, const Cell& cell) {
  TaskSet set;
  set.system.cores = {0, 1};
  set.source = "<bench channels fig3>";
  const auto task = [&](std::string name, std::int64_t work, int priority) {
    TaskSpec t;
    t.name = std::move(name);
    t.period = o.period;
    t.deadline = o.period;
    t.work = Duration(work);
    t.span = Duration(work);
    t.priority = priority;
    set.tasks.push_back(std::move(t));
  };
  for (int i = 0; i < 2; ++i) {
    if (config != PairConfig::nrt_rt) task(task_name("producer", i), cell.producer_ns, 30);
    if (config != PairConfig::rt_nrt) task(task_name("consumer", i), cell.consumer_ns, 20);
    ChannelSpec c;
    c.name = channel_name(i);
    c.kind = kind;
    c.size_bytes = sizeof(Matrix);
    c.numtries = 2;
    if (kind == ChannelKind::lock) {
      // hold bounds the execution inside one critical section: a job holds the lock for at most
      // its whole work, and the loader wants it below the deadline (the period here).
      const std::int64_t work = std::max(cell.producer_ns, cell.consumer_ns);
      c.hold = Duration(std::clamp<std::int64_t>(work, 1, o.period.count() - 1));
    }
    c.writer =
        config == PairConfig::nrt_rt ? std::string(kNonRtEndpoint) : task_name("producer", i);
    c.readers = {config == PairConfig::rt_nrt ? std::string(kNonRtEndpoint)
                                              : task_name("consumer", i)};
    set.channels.push_back(std::move(c));
  }
  return set;
}

// core_of places producer i on core i and consumer i on core i (or 1 - i when split).
int core_of(const std::string& name, bool split) {
  const int pair = name.back() - '0';
  return name.rfind("consumer", 0) == 0 && split ? 1 - pair : pair;
}

void summarize(std::vector<std::int64_t> responses, std::int64_t period_ns, Fig3Cell& out) {
  std::sort(responses.begin(), responses.end());
  out.jobs = static_cast<std::int64_t>(responses.size());
  if (responses.empty()) return;
  double sum = 0;
  for (std::int64_t r : responses) {
    sum += static_cast<double>(r);
    out.misses += r > period_ns ? 1 : 0;
  }
  out.mean_ns = std::llround(sum / static_cast<double>(responses.size()));
  out.p99_ns = percentile(responses, 0.99);
  out.max_ns = responses.back();
}

Fig3Cell run_cell(const Fig3Options& o, ChannelKind kind, PairConfig config, double u) {
  Fig3Cell out;
  out.kind = kind;
  out.config = config;
  out.utilization = u;
  auto cell = std::make_unique<Cell>();
  const double pair_budget = u / 2.0 * static_cast<double>(o.period.count());
  cell->producer_ns = std::llround(pair_budget * o.producer_share);
  cell->consumer_ns = std::llround(pair_budget * (1.0 - o.producer_share));

  System sys(build_set(o, kind, config, *cell));
  try {
    (void)sys.plan();  // validates: the loader's refusal of lock across RT/nRT surfaces here
  } catch (const InputError& e) {
    if (kind != ChannelKind::lock || config == PairConfig::rt_rt) throw;
    out.refused = e.message();
    return out;
  }
  Cell* c = cell.get();
  std::vector<int> cores;
  for (const TaskSpec& t : sys.taskset().tasks) {
    const int pair = t.name.back() - '0';
    cores.push_back(core_of(t.name, o.split));
    const std::string ch = channel_name(pair);
    if (t.name.rfind("producer", 0) == 0) {
      sys.bind(t.name, [c, pair, ch](JobContext& job) {
        if (job.index == 0 && pair == 0) c->first_release.store(job.release_ns);
        produce(*c, pair, job.index, [&](const Matrix& m) { job.channels->write(ch, m); });
      });
    } else {
      sys.bind(t.name, [c, pair, ch](JobContext& job) {
        if (job.index == 0 && pair == 0) c->first_release.store(job.release_ns);
        consume(*c, pair, [&](Matrix& m) { return job.channels->read(ch, m); });
      });
    }
  }

  RunConfig rc;
  rc.duration = o.duration;
  rc.best_effort = o.best_effort;
  sys.open_channels(rc);
  std::vector<std::unique_ptr<NrtLoop>> loops;
  const std::size_t max_iterations =
      static_cast<std::size_t>(o.duration.count() / o.period.count()) + 16;
  for (int i = 0; i < 2 && config != PairConfig::rt_rt; ++i) {
    const std::string ch = channel_name(i);
    if (config == PairConfig::rt_nrt) {
      ChannelReader* reader = &sys.nonrt().reader(ch);
      const int core = o.split ? 1 - i : i;
      loops.push_back(std::make_unique<NrtLoop>(
          core, o.period.count(), &c->first_release,
          [c, i, reader](std::int64_t) {
            consume(*c, i, [&](Matrix& m) { return reader->read(&m); });
          },
          max_iterations));
    } else {
      ByteChannel* writer = &sys.nonrt().writer(ch);
      loops.push_back(std::make_unique<NrtLoop>(
          i, o.period.count(), &c->first_release,
          [c, i, writer](std::int64_t k) {
            produce(*c, i, k, [&](const Matrix& m) { writer->write(&m); });
          },
          max_iterations));
    }
  }
  RunReport report;
  try {
    report = run_pinned(sys, cores, rc);
  } catch (...) {
    for (auto& l : loops) l->stop();
    throw;
  }
  for (auto& l : loops) l->stop();

  std::vector<std::int64_t> responses;
  if (config == PairConfig::rt_nrt) {
    for (const auto& l : loops)
      responses.insert(responses.end(), l->responses().begin(), l->responses().end());
  } else {
    for (const TaskRun& t : report.tasks) {
      if (t.name.rfind("consumer", 0) != 0) continue;
      for (const JobRecord& r : t.records) responses.push_back(r.finish_ns - r.release_ns);
    }
  }
  summarize(std::move(responses), o.period.count(), out);
  for (const Side& s : c->side) {
    out.reads += s.reads.load();
    out.failed += s.failed.load();
    out.torn += s.torn.load();
  }
  return out;
}

}  // namespace

std::vector<Fig3Cell> run_fig3(const Fig3Options& options) {
  std::vector<Fig3Cell> cells;
  for (ChannelKind kind : options.kinds) {
    for (PairConfig config : options.configs) {
      for (double u : options.utilizations) {
        if (options.progress) {
          options.progress(
              fmt::format("fig3 {} {} U={:.2f}", rtpar::to_string(kind), to_string(config), u));
        }
        cells.push_back(run_cell(options, kind, config, u));
      }
    }
  }
  return cells;
}

}  // namespace rtpar::bench
