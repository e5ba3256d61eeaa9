// spin.cpp — the `spin` kernel: sequential work measured on the thread CPU-time clock.
#include "kernels/builtin.hpp"

namespace rtpar::kernels {

void burn_cpu(Duration amount) noexcept {
  const std::int64_t until = thread_cpu_now() + amount.count();
  // The CPU-time clock is a vDSO read on current kernels; checking it every iteration keeps the
  // overshoot to well under a microsecond.
  while (thread_cpu_now() < until) {
  }
}

namespace {

class SpinKernel final : public Kernel {
 public:
  void prepare(const KernelSetup& setup) override { work_ = setup.work; }
  void run(JobContext& /*job*/) override { burn_cpu(work_); }

 private:
  Duration work_{0};
};

}  // namespace

KernelBuild describe_spin(const Args& args, SourceLocation where) {
  args.allow_only({});
  // spin is sequential: its span equals its work, which the task must declare.
  return KernelBuild{builtin_spec("spin", std::move(where)), std::nullopt, std::nullopt, {}};
}

std::shared_ptr<Kernel> make_spin(const KernelSpec& /*spec*/) {
  return std::make_shared<SpinKernel>();
}

}  // namespace rtpar::kernels
