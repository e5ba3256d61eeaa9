// uts.cpp — the `uts` kernel: binomial unbalanced tree search (UTS's SHA-1 node rule) with one
// steal::Scope per node.
//
// Every node spawns one child task per child and syncs (uts_walk.hpp, on the tree of
// uts_tree.hpp). Each job's node count is compared with the count of the serial traversal done
// when the kernel is built, which also gives the depth and open spawns the [task.steal] budget
// must cover.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/builtin.hpp"
#include "kernels/uts_tree.hpp"
#include "kernels/uts_walk.hpp"

namespace rtpar::kernels {
namespace {

class UtsKernel final : public Kernel {
 public:
  UtsKernel(const UtsParams& p, std::uint64_t nodes) : p_(p), nodes_(nodes) {}

  void run(JobContext& job) override {
    std::uint64_t got = 0;
    job.run_parallel([&] { got = uts_count_parallel(p_, uts_root_of(p_)); });
    if (got != nodes_) {
      throw std::runtime_error("uts counted " + std::to_string(got) + " nodes, expected " +
                               std::to_string(nodes_));
    }
  }

 private:
  UtsParams p_;
  std::uint64_t nodes_;
};

}  // namespace

KernelBuild describe_uts(const Args& args, SourceLocation where) {
  args.allow_only({"b0", "m", "q", "seed", "max_nodes"});
  UtsParams p;
  p.b0 = static_cast<int>(args.integer_or("b0", 1, 1'000'000, p.b0));
  p.m = static_cast<int>(args.integer_or("m", 1, 1000, p.m));
  p.q = args.real_or("q", 0.0, 1.0, p.q);
  // UTS seeds are 31-bit (its rootId is an int, hashed as 4 bytes: uts_rng.hpp).
  p.seed = static_cast<std::uint32_t>(args.integer_or("seed", 0, INT32_MAX, p.seed));
  // m·q ≥ 1 makes the expected tree infinite: the serial walk below must stop somewhere.
  const std::int64_t max_nodes = args.integer_or("max_nodes", 1, 1'000'000'000, 50'000'000);
  if (p.m * p.q >= 1.0) {
    args.error(nullptr, args.field("q"),
               "m·q must be below 1 (the expected tree is infinite otherwise)");
  }
  // The walk stops past max_nodes, so a near-critical tree cannot hang the parser.
  const UtsTreeShape shape = uts_tree_shape(p, static_cast<std::uint64_t>(max_nodes));
  if (shape.nodes > static_cast<std::uint64_t>(max_nodes)) {
    args.error(nullptr, args.field("max_nodes"),
               "the tree has more than max_nodes = " + std::to_string(max_nodes) +
                   " nodes (raise max_nodes, or lower b0 or m·q)");
  }
  KernelSpec spec = builtin_spec("uts", std::move(where));
  spec.args = {{"b0", std::int64_t{p.b0}},
               {"m", std::int64_t{p.m}},
               {"q", p.q},
               {"seed", static_cast<std::int64_t>(p.seed)},
               {"max_nodes", max_nodes}};
  KernelBuild b{std::move(spec), std::nullopt, std::nullopt, {}};
  b.needs_steal = true;
  // A node at depth d runs inside d nested scopes; children spawned and not yet synced along one
  // root-to-node path are the frames one worker can hold at once.
  b.steal_depth = shape.max_depth + 1;
  b.steal_frames = static_cast<std::int64_t>(shape.max_open_spawns);
  return b;
}

std::shared_ptr<Kernel> make_uts(const KernelSpec& spec) {
  UtsParams p;
  p.b0 = static_cast<int>(spec_integer(spec, "b0"));
  p.m = static_cast<int>(spec_integer(spec, "m"));
  p.q = spec_real(spec, "q");
  p.seed = static_cast<std::uint32_t>(spec_integer(spec, "seed"));
  const auto max_nodes = static_cast<std::uint64_t>(spec_integer(spec, "max_nodes"));
  // The walk is bounded by max_nodes as at load time, which refused a larger tree.
  return std::make_shared<UtsKernel>(p, uts_tree_shape(p, max_nodes).nodes);
}

}  // namespace rtpar::kernels
