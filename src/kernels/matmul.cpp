// matmul.cpp — the `matmul` kernel: C = A·B on n×n doubles, rows split statically over the team
// (runtime = "team") or recursively by steal::parallel_for (runtime = "steal").
#include <vector>

#include "kernels/builtin.hpp"
#include "rtpar/steal.hpp"

namespace rtpar::kernels {

namespace {

class MatmulKernel final : public Kernel {
 public:
  explicit MatmulKernel(std::int64_t n) : n_(n) {}

  // prepare allocates and fills the matrices once, so jobs allocate nothing.
  void prepare(const KernelSetup& /*setup*/) override {
    const auto cells = static_cast<std::size_t>(n_ * n_);
    a_.assign(cells, 0.0);
    b_.assign(cells, 0.0);
    c_.assign(cells, 0.0);
    for (std::int64_t i = 0; i < n_ * n_; ++i) {
      a_[static_cast<std::size_t>(i)] = static_cast<double>(i % 7) * 0.5;
      b_[static_cast<std::size_t>(i)] = static_cast<double>(i % 5) * 0.25;
    }
  }

  void run(JobContext& job) override {
    auto row = [this](std::int64_t i) {
      const double* a = &a_[static_cast<std::size_t>(i * n_)];
      double* c = &c_[static_cast<std::size_t>(i * n_)];
      for (std::int64_t j = 0; j < n_; ++j) c[j] = 0.0;
      for (std::int64_t k = 0; k < n_; ++k) {
        const double aik = a[k];
        const double* b = &b_[static_cast<std::size_t>(k * n_)];
        for (std::int64_t j = 0; j < n_; ++j) c[j] += aik * b[j];
      }
    };
    if (job.steal != nullptr) {
      job.run_parallel([&] { steal::parallel_for(0, n_, 1, row); });
    } else if (job.team == nullptr) {
      for (std::int64_t i = 0; i < n_; ++i) row(i);
    } else {
      parallel_for_static(*job.team, 0, n_, row);
    }
  }

 private:
  std::int64_t n_;
  std::vector<double> a_, b_, c_;
};

}  // namespace

KernelBuild describe_matmul(const Args& args, SourceLocation where) {
  args.allow_only({"n"});
  KernelSpec spec = builtin_spec("matmul", std::move(where));
  spec.args.push_back({"n", args.integer("n", 1, 8192)});
  // Its execution time depends on the machine: the task must declare work (and span) itself.
  return KernelBuild{std::move(spec), std::nullopt, std::nullopt, {}};
}

std::shared_ptr<Kernel> make_matmul(const KernelSpec& spec) {
  return std::make_shared<MatmulKernel>(spec_integer(spec, "n"));
}

}  // namespace rtpar::kernels
