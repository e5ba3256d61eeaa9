// rtws_dags.cpp — the RTWS benchmark DAG templates and their scaling (rtws_dags.hpp).
#include "gen/rtws_dags.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "model/structure.hpp"

namespace rtpar::gen {

namespace {

// Tiles builds a tiled factorization: each tile's last writer, so that a task waits for the
// tiles it reads and the previous update of the tile it writes.
class Tiles {
 public:
  // Tiles starts an empty DAG.
  explicit Tiles(DagSpec& dag) : dag_(dag) {}

  // task adds a node of `weight` writing tile `w` after reading the tiles in `reads`.
  void task(std::int64_t weight, std::pair<int, int> w, std::vector<std::pair<int, int>> reads) {
    reads.push_back(w);
    DagNode n;
    n.name = "t" + std::to_string(dag_.nodes.size());
    n.length = Duration(weight);
    for (const auto& tile : reads) {
      const auto it = last_.find(tile);
      if (it != last_.end() &&
          std::find(n.after.begin(), n.after.end(), it->second) == n.after.end()) {
        n.after.push_back(it->second);
      }
    }
    last_[w] = static_cast<int>(dag_.nodes.size());
    dag_.nodes.push_back(std::move(n));
  }

 private:
  DagSpec& dag_;
  std::map<std::pair<int, int>, int> last_;  // tile → its last writer's node index
};

// scale_floor is ⌊a·b/c⌋ in 128 bits (a, b, c ≥ 0, c > 0; the result fits: a·b/c ≤ a when
// b ≤ c, and the callers keep it so).
std::int64_t scale_floor(std::int64_t a, std::int64_t b, std::int64_t c) {
  return static_cast<std::int64_t>(static_cast<__int128>(a) * b / c);
}

}  // namespace

DagSpec rtws_template(RtwsBenchmark b, int size, int steps) {
  DagSpec dag;
  Tiles t(dag);
  const int n = size;
  switch (b) {
    case RtwsBenchmark::cholesky:
      for (int k = 0; k < n; ++k) {
        t.task(1, {k, k}, {});
        for (int i = k + 1; i < n; ++i) t.task(3, {i, k}, {{k, k}});
        for (int i = k + 1; i < n; ++i) {
          for (int j = k + 1; j <= i; ++j) t.task(i == j ? 3 : 6, {i, j}, {{i, k}, {j, k}});
        }
      }
      break;
    case RtwsBenchmark::lu:
      for (int k = 0; k < n; ++k) {
        t.task(2, {k, k}, {});
        for (int j = k + 1; j < n; ++j) t.task(3, {k, j}, {{k, k}});
        for (int i = k + 1; i < n; ++i) t.task(3, {i, k}, {{k, k}});
        for (int i = k + 1; i < n; ++i) {
          for (int j = k + 1; j < n; ++j) t.task(6, {i, j}, {{i, k}, {k, j}});
        }
      }
      break;
    case RtwsBenchmark::heat:
      for (int s = 0; s < steps; ++s) {
        const int join_before = static_cast<int>(dag.nodes.size()) - 1;  // −1: none
        std::vector<int> strips;
        for (int i = 0; i < n; ++i) {
          DagNode node{"s" + std::to_string(s) + "_" + std::to_string(i), Duration(16), {}, {}};
          if (join_before >= 0) node.after.push_back(join_before);
          strips.push_back(static_cast<int>(dag.nodes.size()));
          dag.nodes.push_back(std::move(node));
        }
        dag.nodes.push_back(DagNode{"join" + std::to_string(s), Duration(1), strips, {}});
      }
      break;
  }
  return dag;
}

bool rtws_benchmark(const std::string& name, RtwsBenchmark& out) {
  if (name == "cholesky") {
    out = RtwsBenchmark::cholesky;
  } else if (name == "lu") {
    out = RtwsBenchmark::lu;
  } else if (name == "heat") {
    out = RtwsBenchmark::heat;
  } else {
    return false;
  }
  return true;
}

bool fit_rtws_dag(RtwsBenchmark b, Duration work, Duration span, int heat_steps, DagSpec& out,
                  std::string& why, int tiles) {
  const std::int64_t c = work.count();
  const std::int64_t l = span.count();
  if (l <= 0 || c < l) {
    why = "needs 0 < span <= work";
    return false;
  }
  if (c == l) {  // no parallelism: one serial node
    out.nodes = {DagNode{"serial", work, {}, {}}};
    return true;
  }
  // Tiled factorizations grow as size³ nodes, Heat as size × steps: each bounded near 10⁴ nodes.
  const int max_size = b == RtwsBenchmark::heat ? 512 : 48;
  // The smallest size whose parallelism W/S reaches C/L̂ (W·L̂ ≥ C·S, in 128 bits).
  DagSpec t;
  std::int64_t w = 0, s = 0;
  for (int size = tiles > 0 ? tiles : 1;; ++size) {
    if (tiles > 0 && size > tiles) {
      why = std::to_string(tiles) + " tiles do not reach the parallelism C/L";
      return false;
    }
    if (tiles > 0) {
      t = rtws_template(b, size, heat_steps);
      if (static_cast<std::int64_t>(t.nodes.size()) > kMaxTemplateNodes) {
        why = std::to_string(tiles) + " tiles make more than " +
              std::to_string(kMaxTemplateNodes) + " nodes";
        return false;
      }
      w = model::dag_work(t).count();
      s = model::dag_span(t).count();
      if (w > s && static_cast<__int128>(w) * l >= static_cast<__int128>(c) * s) break;
      continue;
    }
    if (size > max_size) {
      why = "no template size up to " + std::to_string(max_size) + " reaches the parallelism C/L";
      return false;
    }
    t = rtws_template(b, size, heat_steps);
    w = model::dag_work(t).count();
    s = model::dag_span(t).count();
    if (w > s && static_cast<__int128>(w) * l >= static_cast<__int128>(c) * s) break;
  }
  // P = ⌊(C − L̂)·W/(W − S)⌋ ≤ C (since C·S ≤ L̂·W): the parallel part's work before floors.
  const std::int64_t p = scale_floor(c - l, w, w - s);
  if (p < w) {
    why = "work too small for the template's nodes (needs >= 1 ns per unit)";
    return false;
  }
  for (DagNode& n : t.nodes) n.length = Duration(scale_floor(n.length.count(), p, w));
  const std::int64_t w2 = model::dag_work(t).count();
  const std::int64_t s2 = model::dag_span(t).count();
  // serial = L̂ − S' ≥ 0 and rest = C − L̂ + S' − W' ≥ 0 (rtws_dags.hpp; the floors' deficit on
  // any path is at most their total deficit).
  const std::int64_t serial = l - s2;
  const std::int64_t rest = c - l + s2 - w2;
  if (serial < 0 || rest < 0 || rest > l) {
    why = "the scaled template cannot meet C and L exactly";
    return false;
  }
  out.nodes.clear();
  const int shift = serial > 0 ? 1 : 0;
  if (serial > 0) out.nodes.push_back(DagNode{"serial", Duration(serial), {}, {}});
  for (DagNode& n : t.nodes) {
    for (int& a : n.after) a += shift;
    if (n.after.empty() && serial > 0) n.after.push_back(0);
    out.nodes.push_back(std::move(n));
  }
  if (rest > 0) out.nodes.push_back(DagNode{"rest", Duration(rest), {}, {}});
  return true;
}

}  // namespace rtpar::gen
