// system.cpp — see rtpar/system.hpp.
#include "rtpar/system.hpp"

#include "kernels/instantiate.hpp"
#include "rtpar/tools/planners.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace rtpar {

namespace {

// CallableKernel adapts a bound std::function to the Kernel interface.
class CallableKernel final : public Kernel {
 public:
  explicit CallableKernel(std::function<void(JobContext&)> fn) : fn_(std::move(fn)) {}
  void run(JobContext& job) override { fn_(job); }

 private:
  std::function<void(JobContext&)> fn_;
};

}  // namespace

System System::load(const std::string& path) { return System(load_taskset(path)); }

System::System(TaskSet set) : set_(std::move(set)) {
  if (set_.source.empty()) set_.source = "<memory>";
  // Code-built sets may list cores in any order; the model keeps them ascending.
  std::sort(set_.system.cores.begin(), set_.system.cores.end());
  std::sort(set_.system.nonrt_cores.begin(), set_.system.nonrt_cores.end());
}

System& System::bind(std::string_view task, std::function<void(JobContext&)> fn) {
  for (TaskSpec& t : set_.tasks) {
    if (t.name == task) {
      t.code = std::make_shared<CallableKernel>(std::move(fn));
      t.kernel = "<bound>";
      return *this;
    }
  }
  throw InputError(SourceLocation{set_.source, 0, 0}, "task",
                   "no task named '" + std::string(task) + "' to bind");
}

Plan System::plan() const {
  validate_taskset(set_);
  return plan_taskset(set_);
}

RunReport System::run(const RunConfig& config) {
  const Plan p = plan();
  // The kernels the file described are created (and lib: objects loaded) only now, to run.
  kernels::instantiate_kernels(set_);
  RunConfig with_channels = config;
  if (channels_) with_channels.channels = channels_.get();
  return execute(set_, p, with_channels);
}

ChannelSet& System::open_channels(const RunConfig& config) {
  if (!channels_) channels_ = std::make_unique<ChannelSet>(set_, plan(), config.best_effort);
  return *channels_;
}

Endpoint& System::nonrt() { return open_channels().endpoint(kNonRtEndpoint); }

}  // namespace rtpar
