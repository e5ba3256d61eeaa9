// fib.cpp — the `fib` kernel: naive fib(n) with rtpar::steal::join at every call above `cutoff`.
//
// The classic spawn-bound work-stealing test (P3LS3 §5.2): each call forks fib(n-1) and
// fib(n-2) (fib_join.hpp), so a job is ~fib(n+1) joins of almost no work each. Every job's result
// is compared with the value computed serially when the kernel is built; a wrong result fails the
// task.
#include <stdexcept>
#include <string>

#include "kernels/builtin.hpp"
#include "kernels/fib_join.hpp"

namespace rtpar::kernels {
namespace {

class FibKernel final : public Kernel {
 public:
  FibKernel(int n, int cutoff) : n_(n), cutoff_(cutoff), expect_(fib_serial_iter(n)) {}

  void run(JobContext& job) override {
    std::uint64_t got = 0;
    job.run_parallel([&] { got = fib_join(n_, cutoff_); });
    if (got != expect_) {
      throw std::runtime_error("fib(" + std::to_string(n_) + ") = " + std::to_string(got) +
                               ", expected " + std::to_string(expect_));
    }
  }

 private:
  // fib_serial_iter computes the reference without the exponential recursion.
  static std::uint64_t fib_serial_iter(int n) {
    std::uint64_t a = 0;
    std::uint64_t b = 1;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t c = a + b;
      a = b;
      b = c;
    }
    return a;
  }

  int n_;
  int cutoff_;
  std::uint64_t expect_;
};

}  // namespace

KernelBuild describe_fib(const Args& args, SourceLocation where) {
  args.allow_only({"n", "cutoff"});
  // fib(92) is the largest that fits 64 bits; past ~45 a job takes seconds anyway.
  const auto n = static_cast<int>(args.integer("n", 0, 92));
  const auto cutoff = static_cast<int>(args.integer_or("cutoff", 0, 92, 0));
  KernelSpec spec = builtin_spec("fib", std::move(where));
  spec.args = {{"n", std::int64_t{n}}, {"cutoff", std::int64_t{cutoff}}};
  KernelBuild b{std::move(spec), std::nullopt, std::nullopt, {}};
  b.needs_steal = true;
  // One join level per recursion level above the cut-off.
  b.steal_depth = n > cutoff ? n - std::max(cutoff, 1) : 0;
  return b;
}

std::shared_ptr<Kernel> make_fib(const KernelSpec& spec) {
  return std::make_shared<FibKernel>(static_cast<int>(spec_integer(spec, "n")),
                                     static_cast<int>(spec_integer(spec, "cutoff")));
}

}  // namespace rtpar::kernels
