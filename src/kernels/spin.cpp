// spin.cpp — the `spin` kernel: sequential work measured on the thread CPU-time clock.
#include <cstdint>
#include <string_view>

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

// SpinKernel burns the task's work each job; with overrun_every = N, every N-th job (jobs N − 1,
// 2N − 1, ...) burns overrun_factor times as much, and with hang_at_job = K job K never returns —
// faults injected on purpose, for testing budgets and hang containment (docs/reliability.md).
class SpinKernel final : public Kernel {
 public:
  SpinKernel(std::int64_t overrun_every, double overrun_factor, std::int64_t hang_at_job)
      : overrun_every_(overrun_every), overrun_factor_(overrun_factor), hang_at_job_(hang_at_job) {}

  void prepare(const KernelSetup& setup) override {
    work_ = setup.work;
    // Saturates rather than overflows: the factor is at most 1000, the work at most int64.
    const double longer = static_cast<double>(work_.count()) * overrun_factor_;
    overrun_work_ = Duration(longer >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(longer));
  }
  void run(JobContext& job) override {
    if (job.index == hang_at_job_) {
      // burn_cpu reads a clock (an opaque call) each iteration: a loop with side effects, which
      // the compiler may not assume to end.
      // The loop reads nothing of this kernel: after the run gives up on the job, its task set
      // (and this object) may be freed while the thread spins on.
      const Duration slice = work_;
      for (;;) burn_cpu(slice);
    }
    const bool overrun = overrun_every_ > 0 && job.index % overrun_every_ == overrun_every_ - 1;
    burn_cpu(overrun ? overrun_work_ : work_);
  }

 private:
  std::int64_t overrun_every_;
  double overrun_factor_;
  std::int64_t hang_at_job_;  // -1: never
  Duration work_{0};
  Duration overrun_work_{0};
};

}  // namespace

KernelBuild describe_spin(const Args& args, SourceLocation where) {
  args.allow_only({"overrun_every", "overrun_factor", "hang_at_job"});
  KernelSpec spec = builtin_spec("spin", std::move(where));
  spec.args = fault_args(args);
  // spin is sequential: its span equals its work, which the task must declare.
  return KernelBuild{std::move(spec), std::nullopt, std::nullopt, {}};
}

std::shared_ptr<Kernel> make_spin(const KernelSpec& spec) {
  return std::make_shared<SpinKernel>(spec.integer("overrun_every").value_or(0),
                                      spec.real("overrun_factor").value_or(1.0),
                                      spec.integer("hang_at_job").value_or(-1));
}

}  // namespace rtpar::kernels
