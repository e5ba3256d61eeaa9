// segments.cpp — the `segments` kernel: a parallel-synchronous (fork/join) job.
//
// args.segments = [{strands = 12, length = "500us"}, ...]: each segment is a parallel_for over its
// strands on the task's team, each strand burning `length` of CPU time; segments run one after the
// other (RTWS §II "synchronous DAG"). Work C = Σ strands·length, span L = Σ length.
#include <limits>
#include <vector>

#include "kernels/builtin.hpp"
#include "rtpar/steal.hpp"

namespace rtpar::kernels {

namespace {

struct Segment {
  std::int64_t strands;
  Duration length;
};

// Faults is the fault injection of `segments` (docs/taskset.md): every overrun_every-th job burns
// overrun_factor × each strand's length, and job hang_at_job never returns from its first strand.
struct Faults {
  std::int64_t overrun_every = 0;  // 0: none
  double overrun_factor = 1.0;
  std::int64_t hang_at_job = -1;  // -1: never
};

class SegmentsKernel final : public Kernel {
 public:
  SegmentsKernel(std::vector<Segment> segments, Faults faults)
      : segments_(std::move(segments)), faults_(faults) {}

  void run(JobContext& job) override {
    // Every strand burns through burn_strand, so the faults keep the job's parallel structure.
    const Segment* const first = segments_.data();
    if (job.steal != nullptr) {
      // runtime = "steal": the segments in order, each one's strands split by join (RTWS §III's
      // synchronous task on a work-stealing runtime).
      job.run_parallel([&] {
        for (const Segment& s : segments_) {
          steal::parallel_for(0, s.strands, 1, [&](std::int64_t i) {
            burn_strand(job, s.length, &s == first && i == 0);
          });
        }
      });
      return;
    }
    for (const Segment& s : segments_) {
      if (s.strands == 1 || job.team == nullptr) {
        for (std::int64_t i = 0; i < s.strands; ++i) {
          burn_strand(job, s.length, &s == first && i == 0);
        }
        continue;
      }
      parallel_for_static(*job.team, 0, s.strands, [&](std::int64_t i) {
        burn_strand(job, s.length, &s == first && i == 0);
      });
    }
  }

  bool run_strand(JobContext& job, int segment, std::int64_t strand) override {
    const auto index = static_cast<std::size_t>(segment);
    if (index >= segments_.size() || strand < 0 || strand >= segments_[index].strands) return false;
    burn_strand(job, segments_[index].length, index == 0 && strand == 0);
    return true;
  }

  [[nodiscard]] bool supports_strands() const override { return true; }

 private:
  // burn_strand burns one strand of `length` in job, as the faults say; `first` is the job's
  // first strand (segment 0, strand 0), the one a hanging job never returns from.
  void burn_strand(const JobContext& job, Duration length, bool first) const {
    if (first && job.index == faults_.hang_at_job) {
      const Duration slice = length;  // nothing of this object is read while it hangs
      for (;;) burn_cpu(slice);
    }
    const std::int64_t every = faults_.overrun_every;
    if (every > 0 && job.index % every == every - 1) {
      const double longer = static_cast<double>(length.count()) * faults_.overrun_factor;
      length = Duration(longer >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(longer));
    }
    burn_cpu(length);
  }
  std::vector<Segment> segments_;
  Faults faults_;
};

}  // namespace

KernelBuild describe_segments(const Args& args, const std::string& file, SourceLocation where) {
  args.allow_only({"segments", "overrun_every", "overrun_factor", "hang_at_job"});
  const toml::array& list = args.array_of_tables("segments");
  std::vector<Segment> segments;
  __int128 work = 0;
  __int128 span = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const toml::table& t = *list[i].as_table();
    const std::string base = args.field("segments") + "[" + std::to_string(i) + "]";
    for (const auto& [key, node] : t) {
      if (key.str() != "strands" && key.str() != "length") {
        args.error(&node, base + "." + std::string(key.str()),
                   "unknown key (expected: strands, length)");
      }
    }
    const toml::node* strands = t.get("strands");
    const toml::node* length = t.get("length");
    if (strands == nullptr) args.error(&t, base + ".strands", "required integer is missing");
    if (length == nullptr) args.error(&t, base + ".length", "required duration is missing");
    const auto* n = strands->as_integer();
    if (n == nullptr || n->get() < 1 || n->get() > 1'000'000) {
      args.error(strands, base + ".strands", "expected an integer between 1 and 1000000");
    }
    const Duration len = duration_value(*length, file, base + ".length", /*positive=*/true);
    segments.push_back(Segment{n->get(), len});
    work += static_cast<__int128>(n->get()) * len.count();
    span += len.count();
  }
  if (work > std::numeric_limits<std::int64_t>::max()) {
    args.error(&list, args.field("segments"), "total work overflows 64-bit nanoseconds");
  }
  std::vector<SegmentSpec> structure;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const toml::node& entry = *list[i].as_table();
    structure.push_back(
        SegmentSpec{segments[i].strands, segments[i].length, args.location(entry.source())});
  }
  // The structure is the description: make_segments_kernel builds the kernel from it and the
  // fault-injection args.
  KernelSpec spec = builtin_spec("segments", std::move(where));
  spec.args = fault_args(args);
  return KernelBuild{std::move(spec), Duration(static_cast<std::int64_t>(work)),
                     Duration(static_cast<std::int64_t>(span)), std::move(structure)};
}

std::shared_ptr<Kernel> make_segments_kernel(const std::vector<SegmentSpec>& segments,
                                             const KernelSpec& spec) {
  std::vector<Segment> list;
  for (const SegmentSpec& s : segments) list.push_back(Segment{s.strands, s.length});
  Faults faults;
  faults.overrun_every = spec.integer("overrun_every").value_or(0);
  faults.overrun_factor = spec.real("overrun_factor").value_or(1.0);
  faults.hang_at_job = spec.integer("hang_at_job").value_or(-1);
  return std::make_shared<SegmentsKernel>(std::move(list), faults);
}

}  // namespace rtpar::kernels
