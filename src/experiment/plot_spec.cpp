// plot_spec.cpp — see plot_spec.hpp.
#include "experiment/plot_spec.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace rtpar::experiment {

PlotSpec read_plot_spec(const model::TableReader& t, const Manifest& m) {
  PlotSpec plot;
  t.allow_only({"title", "x_label", "y_label", "log_x", "failure_rate", "y", "box"});
  plot.title = t.string("title").value_or(m.name);
  plot.x_label = t.string("x_label").value_or(m.x_name);
  plot.y_label = t.string("y_label").value_or(plot.y_label);
  // flag reads one boolean key into `out`.
  const auto flag = [&t](const char* key, bool& out) {
    const toml::node* n = t.node(key);
    if (n == nullptr) return;
    if (!n->is_boolean()) t.fail(n, key, "expected true or false");
    out = n->as_boolean()->get();
  };
  flag("log_x", plot.log_x);
  flag("failure_rate", plot.failure_rate);
  flag("box", plot.box);
  if (plot.box) {
    // The boxes are drawn from these merged metrics (tools/plot_experiment.py).
    if (!m.bench) t.fail(t.node("box"), "box", "needs a [bench] manifest");
    for (const char* need : {"min_ns", "p5_ns", "p25_ns", "p50_ns", "p75_ns", "p95_ns", "max_ns"}) {
      if (std::find(m.bench->metrics.begin(), m.bench->metrics.end(), need) ==
          m.bench->metrics.end()) {
        t.fail(t.node("box"), "box", std::string("needs the metric ") + need + " in [bench]");
      }
    }
  }
  // A bench study plots its merged metric columns: median_M (with min_M..max_M over trials as a
  // band), min_M or max_M for each of its metrics M; the default is the first metric's median.
  if (m.bench) plot.y = {"median_" + m.bench->metrics.front()};
  const toml::node* node = t.node("y");
  if (node == nullptr) return plot;
  std::vector<std::string> ys;
  if (const auto* one = node->as_string()) {
    ys.push_back(one->get());
  } else if (const auto* many = node->as_array(); many != nullptr && !many->empty()) {
    for (const toml::node& e : *many) {
      if (!e.is_string()) t.fail(node, "y", "expected a string or an array of strings");
      ys.push_back(e.as_string()->get());
    }
  } else {
    t.fail(node, "y", "expected a string or an array of strings");
  }
  const bool searched = std::any_of(m.series.begin(), m.series.end(),
                                    [](const Series& s) { return s.sim && s.sim->core_increase; });
  for (const std::string& y : ys) {
    if (m.bench) {
      bool known = false;
      for (const std::string& metric : m.bench->metrics) {
        for (const char* stat : {"median_", "min_", "max_"}) known = known || y == stat + metric;
      }
      if (!known) t.fail(node, "y", "expected median_M, min_M or max_M for a metric M of [bench]");
      continue;
    }
    if (y != "fraction" && y != "mean_miss_ratio" && y != "mean_rel_response" &&
        y != "required_cores") {
      t.fail(node, "y", "expected fraction, mean_miss_ratio, mean_rel_response or required_cores");
    }
    if (y != "fraction" && !executes(m)) {
      t.fail(node, "y", "needs a simulation or runtime manifest");
    }
    if (y == "required_cores" && !searched) {
      t.fail(node, "y", "required_cores needs a [[series]] with required_cores = true");
    }
  }
  plot.y = std::move(ys);
  return plot;
}

}  // namespace rtpar::experiment
