// dag_family.cpp — the `dag` family: analysis-only DAG tasks, Erdős–Rényi over a fixed
// topological order or nested fork/join, node lengths scaled so that C = floor-rounded u·T; a
// DAG whose longest path exceeds the deadline is redrawn (counted).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "gen/build.hpp"
#include "gen/common.hpp"
#include "gen/dag_shapes.hpp"
#include "gen/draw_tasks.hpp"
#include "gen/families.hpp"

namespace rtpar::gen {

FamilyInfo dag_family() {
  FamilyInfo f{"dag", "DAG tasks (analysis only): Erdős–Rényi or nested fork/join",
               common_params("6", "4", "4", "federated")};
  f.params.push_back({"shape", "erdos-renyi", "\"erdos-renyi\" or \"nested-fork-join\""});
  f.params.push_back({"nodes_min", "5", "erdos-renyi: fewest nodes"});
  f.params.push_back({"nodes_max", "20", "erdos-renyi: most nodes"});
  f.params.push_back({"edge_prob", "0.2", "erdos-renyi: probability of each forward edge"});
  f.params.push_back({"depth", "2", "nested-fork-join: nesting levels below the root fork"});
  f.params.push_back({"branches_min", "2", "nested-fork-join: fewest branches per fork"});
  f.params.push_back({"branches_max", "5", "nested-fork-join: most branches per fork"});
  f.params.push_back({"fork_prob", "0.5", "nested-fork-join: probability a branch forks again"});
  return f;
}

Generated generate_dag(const ParamReader& r, std::uint64_t seed) {
  const Common c = read_common(r);
  const bool er = r.choice("shape", {"erdos-renyi", "nested-fork-join"}) == "erdos-renyi";
  // Plain variables, not structured bindings: lambdas may not capture those before clang 16.
  const std::pair<std::int64_t, std::int64_t> nodes = int_range(r, "nodes", 1, 10000);
  const std::int64_t nodes_min = nodes.first, nodes_max = nodes.second;
  const double edge_prob = r.real("edge_prob", 0, 1);
  const auto depth = static_cast<int>(r.integer("depth", 1, 8));
  const std::pair<std::int64_t, std::int64_t> branches = int_range(r, "branches", 1, 64);
  const std::int64_t br_min = branches.first, br_max = branches.second;
  const double fork_prob = r.real("fork_prob", 0, 1);
  return draw_tasks(c, r, seed, "dag",
                    {"DAG with longest path <= period", "lower util_max or raise edges/branches"},
                    [&](Rng& rng, std::size_t i, Duration /*period*/, Duration work) {
                      DagSpec dag =
                          er ? erdos_renyi_dag(
                                   rng, static_cast<int>(rng.uniform_int(nodes_min, nodes_max)),
                                   edge_prob)
                             : nested_fork_join_dag(rng, depth, static_cast<int>(br_min),
                                                    static_cast<int>(br_max), fork_prob);
                      scale_dag(dag, work);
                      return dag_task(task_name(i), std::move(dag));
                    });
}

}  // namespace rtpar::gen
