// plot_spec.cpp — see plot_spec.hpp.
#include "experiment/plot_spec.hpp"

#include <algorithm>

namespace rtpar::experiment {

PlotSpec read_plot_spec(const model::TableReader& t, const Manifest& m) {
  PlotSpec plot;
  t.allow_only({"title", "x_label", "y_label", "log_x", "failure_rate", "required_cores"});
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
  flag("required_cores", plot.required_cores);
  const bool searched = std::any_of(m.series.begin(), m.series.end(),
                                    [](const Series& s) { return s.sim && s.sim->core_increase; });
  if (plot.required_cores && !searched) {
    t.fail(t.node("required_cores"), "required_cores",
           "needs a [[series]] with required_cores = true");
  }
  return plot;
}

}  // namespace rtpar::experiment
