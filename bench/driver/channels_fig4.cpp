// channels_fig4.cpp — see channels_fig4.hpp.
//
// Phase. With exactly commensurate periods and synchronous releases the relative phase of the
// producer's write and the consumer's read never changes, so every read would overlap a write or
// none would (0 % or 100 %, decided by the phase, not by the ratio). The paper's percentages are
// rates over many unsynchronised runs; here one run sweeps the relative phase instead: the
// producer's period is detuned by δ = P_p² / duration (at least 1 µs), which shifts the phase by
// one full producer period over the run. effective_ratio reports the ratio as run.
#include "driver/channels_fig4.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "driver/channels_work.hpp"
#include "rtpar/report.hpp"
#include "rtpar/system.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::bench {

namespace {

constexpr std::size_t kWords = kFig4PayloadBytes / sizeof(std::uint64_t);

// Image is the 1 MiB message. Word k of write s holds (s << 20) | k, so a copy is whole iff every
// word carries the sequence of word 0 (the channels copy aligned 8-byte words whole).
struct Image {
  std::uint64_t words[kWords];
};

void stamp(Image& image, std::uint64_t seq) {
  for (std::size_t k = 0; k < kWords; ++k) image.words[k] = (seq << 20) | k;
}

bool whole(const Image& image) {
  const std::uint64_t seq = image.words[0] >> 20;
  std::uint64_t bad = 0;
  for (std::size_t k = 0; k < kWords; ++k) bad |= (image.words[k] >> 20) ^ seq;
  return bad == 0;
}

// Shared is what the two jobs and the main thread share; allocated before the run.
struct Shared {
  Image source;
  Image received;
  std::atomic<std::int64_t> reads{0};
  std::atomic<std::int64_t> first_failed{0};
  std::atomic<std::int64_t> failed{0};
  std::atomic<std::int64_t> torn{0};
  std::atomic<std::int64_t> read_ns{0};
  std::atomic<std::int64_t> writes{0};
  std::atomic<std::int64_t> first_release{0};  // the real-time side's first release (NrtLoop)
};

Fig4Cell run_cell(const Fig4Options& o, ChannelKind kind, PairConfig config, double ratio) {
  const std::int64_t pc = o.consumer_period.count();
  const auto nominal = static_cast<std::int64_t>(std::llround(ratio * static_cast<double>(pc)));
  const double d = static_cast<double>(o.duration.count());
  std::int64_t detune = std::llround(static_cast<double>(nominal) * nominal / d / 1000.0) * 1000;
  detune = std::max<std::int64_t>(detune, 1000);
  const std::int64_t pp = nominal + detune;
  const bool rt_producer = config != PairConfig::nrt_rt;
  const bool rt_consumer = config != PairConfig::rt_nrt;

  TaskSet set;
  set.system.cores = {0, 1};
  set.source = "<bench channels fig4>";
  std::vector<int> cores;  // of the real-time tasks, in order: producer on CPU 0, consumer on 1
  const auto task = [&](const char* name, std::int64_t period, int priority, int cpu) {
    TaskSpec t;
    t.name = name;
    t.period = Duration(period);
    t.deadline = Duration(period);
    // Declared work only feeds the per-core check; a 1 MiB stamp + copy takes ~0.1-0.3 ms.
    t.work = Duration(std::min<std::int64_t>(period / 2, 500'000));
    t.span = t.work;
    t.priority = priority;
    set.tasks.push_back(std::move(t));
    cores.push_back(cpu);
  };
  if (rt_producer) task("producer", pp, 30, 0);
  if (rt_consumer) task("consumer", pc, 20, 1);
  ChannelSpec c;
  c.name = "image";
  c.kind = kind;
  c.size_bytes = sizeof(Image);
  c.numtries = 2;
  c.writer = rt_producer ? "producer" : std::string(kNonRtEndpoint);
  c.readers = {rt_consumer ? "consumer" : std::string(kNonRtEndpoint)};
  set.channels.push_back(c);

  auto shared = std::make_unique<Shared>();
  Shared* s = shared.get();
  // produce and consume are the two sides' jobs, whichever thread runs them.
  const auto produce = [s](std::int64_t index, const std::function<void(const Image&)>& write) {
    stamp(s->source, static_cast<std::uint64_t>(index) + 1);
    write(s->source);
    s->writes.fetch_add(1, std::memory_order_relaxed);
  };
  const auto consume = [s](const std::function<ReadResult(Image&)>& read) {
    const std::int64_t t0 = monotonic_now();
    const ReadResult r = read(s->received);
    s->read_ns.fetch_add(monotonic_now() - t0, std::memory_order_relaxed);
    s->reads.fetch_add(1, std::memory_order_relaxed);
    if (r.tries > 1 || !r.ok) s->first_failed.fetch_add(1, std::memory_order_relaxed);
    if (!r.ok) {
      s->failed.fetch_add(1, std::memory_order_relaxed);
    } else if (!whole(s->received)) {
      s->torn.fetch_add(1, std::memory_order_relaxed);
    }
  };
  System sys(std::move(set));
  // The real-time side's first release starts the nRT loop, phase-aligned as in Fig. 3.
  if (rt_producer) {
    sys.bind("producer", [s, produce](JobContext& job) {
      if (job.index == 0) s->first_release.store(job.release_ns);
      produce(job.index, [&](const Image& image) { job.channels->write("image", image); });
    });
  }
  if (rt_consumer) {
    sys.bind("consumer", [s, consume](JobContext& job) {
      if (job.index == 0) s->first_release.store(job.release_ns);
      consume([&](Image& image) { return job.channels->read("image", image); });
    });
  }
  RunConfig rc;
  rc.duration = o.duration;
  rc.best_effort = o.best_effort;
  sys.open_channels(rc);
  std::unique_ptr<NrtLoop> loop;
  const auto iterations = [&](std::int64_t period) {
    return static_cast<std::size_t>(o.duration.count() / period) + 16;
  };
  if (!rt_producer) {
    ByteChannel* writer = &sys.nonrt().writer("image");
    loop = std::make_unique<NrtLoop>(
        0, pp, &s->first_release,
        [produce, writer](std::int64_t k) {
          produce(k, [writer](const Image& image) { writer->write(&image); });
        },
        iterations(pp));
  } else if (!rt_consumer) {
    ChannelReader* reader = &sys.nonrt().reader("image");
    loop = std::make_unique<NrtLoop>(
        1, pc, &s->first_release,
        [consume, reader](std::int64_t) {
          consume([reader](Image& image) { return reader->read(&image); });
        },
        iterations(pc));
  }
  try {
    (void)run_pinned(sys, cores, rc);
  } catch (...) {
    if (loop) loop->stop();
    throw;
  }
  if (loop) loop->stop();

  Fig4Cell out;
  out.kind = kind;
  out.config = config;
  out.ratio = ratio;
  out.effective_ratio = static_cast<double>(pp) / static_cast<double>(pc);
  out.reads = s->reads.load();
  out.first_failed = s->first_failed.load();
  out.failed = s->failed.load();
  out.torn = s->torn.load();
  out.writes = s->writes.load();
  out.read_mean_ns = out.reads == 0 ? 0 : s->read_ns.load() / out.reads;
  return out;
}

}  // namespace

std::vector<Fig4Cell> run_fig4(const Fig4Options& options) {
  std::vector<Fig4Cell> cells;
  for (ChannelKind kind : options.kinds) {
    for (PairConfig config : options.configs) {
      for (double ratio : options.ratios) {
        if (options.progress) {
          options.progress(fmt::format("fig4 {} {} Pp/Pc={:g}", rtpar::to_string(kind),
                                       to_string(config), ratio));
        }
        cells.push_back(run_cell(options, kind, config, ratio));
      }
    }
  }
  return cells;
}

}  // namespace rtpar::bench
