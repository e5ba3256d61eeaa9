// heat.cpp — the `heat` kernel: 2-D Jacobi (5-point stencil) sweeps, one parallel_for per sweep.
//
// The grid is n×n with a fixed boundary (heat_grid.hpp). Sweep s
// reads buffer s % 2 and writes the other, so no copy is needed between sweeps; every interior
// point is one fixed expression of its four neighbours, so the result does not depend on which
// worker computes it and each job's grid is compared bit for bit with the serial result computed
// when the kernel is built.
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/builtin.hpp"
#include "kernels/heat_grid.hpp"
#include "rtpar/steal.hpp"

namespace rtpar::kernels {
namespace {

class HeatKernel final : public Kernel {
 public:
  HeatKernel(int n, int steps, int grain) : n_(n), steps_(steps), grain_(grain) {}

  // prepare allocates the grids and computes the serial reference (before the first release, and
  // not when the file is only checked).
  void prepare(const KernelSetup& /*setup*/) override {
    init_ = heat_initial_grid(n_);
    buf_[0] = init_;
    buf_[1] = init_;
    for (int s = 0; s < steps_; ++s) sweep_rows(s, 1, n_ - 1);
    expect_ = buf_[steps_ & 1];
  }

  void run(JobContext& job) override {
    job.run_parallel([&] {
      // The reset is part of the job (the grid starts from the initial state every period).
      steal::parallel_for(0, n_, grain_, [&](std::int64_t i) { reset_row(static_cast<int>(i)); });
      for (int s = 0; s < steps_; ++s) {
        steal::parallel_for(1, n_ - 1, grain_,
                            [&](std::int64_t i) { sweep_rows(s, static_cast<int>(i), i + 1); });
      }
    });
    const std::vector<double>& got = buf_[steps_ & 1];
    if (std::memcmp(got.data(), expect_.data(), got.size() * sizeof(double)) != 0) {
      throw std::runtime_error("heat: job " + std::to_string(job.index) +
                               " differs from the serial result");
    }
  }

 private:
  // reset_row restores row i of the initial grid in both buffers.
  void reset_row(int i) {
    const std::size_t off = static_cast<std::size_t>(i) * n_;
    std::memcpy(&buf_[0][off], &init_[off], static_cast<std::size_t>(n_) * sizeof(double));
    std::memcpy(&buf_[1][off], &init_[off], static_cast<std::size_t>(n_) * sizeof(double));
  }

  // sweep_rows computes interior rows [r0, r1) of sweep s (1 ≤ r0 ≤ r1 ≤ n-1).
  void sweep_rows(int s, std::int64_t r0, std::int64_t r1) {
    const double* in = buf_[s & 1].data();
    double* out = buf_[(s + 1) & 1].data();
    const std::int64_t n = n_;
    for (std::int64_t i = r0; i < r1; ++i) {
      for (std::int64_t j = 1; j < n - 1; ++j) {
        out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] +
                                 in[i * n + j + 1]);
      }
    }
  }

  int n_;
  int steps_;
  int grain_;
  std::vector<double> init_;
  std::vector<double> buf_[2];
  std::vector<double> expect_;
};

// ceil_log2 is the number of halvings of n down to 1: parallel_for's join depth.
int ceil_log2(std::int64_t n) {
  int d = 0;
  while ((std::int64_t{1} << d) < n) ++d;
  return d;
}

}  // namespace

KernelBuild describe_heat(const Args& args, SourceLocation where) {
  args.allow_only({"n", "steps", "grain"});
  const auto n = static_cast<int>(args.integer("n", 3, 8192));
  const auto steps = static_cast<int>(args.integer_or("steps", 1, 1'000'000, 10));
  const auto grain = static_cast<int>(args.integer_or("grain", 1, 8192, 4));
  KernelSpec spec = builtin_spec("heat", std::move(where));
  spec.args = {{"n", std::int64_t{n}}, {"steps", std::int64_t{steps}}, {"grain", std::int64_t{grain}}};
  KernelBuild b{std::move(spec), std::nullopt, std::nullopt, {}};
  b.needs_steal = true;
  b.steal_depth = ceil_log2(n);
  return b;
}

std::shared_ptr<Kernel> make_heat(const KernelSpec& spec) {
  return std::make_shared<HeatKernel>(static_cast<int>(spec_integer(spec, "n")),
                                      static_cast<int>(spec_integer(spec, "steps")),
                                      static_cast<int>(spec_integer(spec, "grain")));
}

}  // namespace rtpar::kernels
