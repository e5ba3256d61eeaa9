// args.cpp — see args.hpp.
#include "kernels/args.hpp"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace rtpar::kernels {

Args::Args(const toml::table* table, std::string file, std::string prefix,
           toml::source_region where)
    : table_(table), file_(std::move(file)), prefix_(std::move(prefix)), where_(std::move(where)) {}

SourceLocation Args::location(const toml::source_region& region) const {
  return SourceLocation{file_, static_cast<int>(region.begin.line),
                        static_cast<int>(region.begin.column)};
}

std::string Args::field(std::string_view key) const { return prefix_ + "." + std::string(key); }

void Args::error(const toml::node* node, const std::string& field,
                 const std::string& message) const {
  const toml::source_region& region =
      node != nullptr ? node->source() : (table_ != nullptr ? table_->source() : where_);
  throw InputError(location(region), field, message);
}

void Args::allow_only(std::initializer_list<std::string_view> keys) const {
  if (table_ == nullptr) return;
  for (const auto& [key, node] : *table_) {
    bool known = false;
    for (std::string_view k : keys) known = known || key.str() == k;
    if (!known) {
      std::string list;
      for (std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
      error(&node, field(key.str()),
            "unknown key '" + std::string(key.str()) + "'" +
                (list.empty() ? std::string(" (this kernel takes no args)")
                              : " (expected: " + list + ")"));
    }
  }
}

bool Args::has(std::string_view key) const { return table_ != nullptr && table_->contains(key); }

std::int64_t Args::integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
  const toml::node* node = table_ != nullptr ? table_->get(key) : nullptr;
  if (node == nullptr) error(nullptr, field(key), "required integer is missing");
  const auto* value = node->as_integer();
  if (value == nullptr) error(node, field(key), "expected an integer");
  const std::int64_t v = value->get();
  if (v < lo || v > hi) {
    error(node, field(key),
          "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
              std::to_string(v));
  }
  return v;
}

std::int64_t Args::integer_or(std::string_view key, std::int64_t lo, std::int64_t hi,
                              std::int64_t fallback) const {
  return has(key) ? integer(key, lo, hi) : fallback;
}

double Args::real_or(std::string_view key, double lo, double hi, double fallback) const {
  const toml::node* node = table_ != nullptr ? table_->get(key) : nullptr;
  if (node == nullptr) return fallback;
  double v = 0.0;
  if (const auto* f = node->as_floating_point()) {
    v = f->get();
  } else if (const auto* i = node->as_integer()) {
    v = static_cast<double>(i->get());
  } else {
    error(node, field(key), "expected a number");
  }
  // Written as !(in range) so NaN is refused too.
  if (!(v >= lo && v <= hi)) {
    error(node, field(key), fmt::format("must be between {} and {}, got {}", lo, hi, v));
  }
  return v;
}

const toml::array& Args::array_of_tables(std::string_view key) const {
  const toml::node* node = table_ != nullptr ? table_->get(key) : nullptr;
  if (node == nullptr) error(nullptr, field(key), "required array is missing");
  const auto* array = node->as_array();
  if (array == nullptr || !array->is_array_of_tables() || array->empty()) {
    error(node, field(key), "expected a non-empty array of tables, e.g. [{...}, {...}]");
  }
  return *array;
}

Duration duration_value(const toml::node& node, const std::string& file, const std::string& field,
                        bool positive) {
  const auto& where = node.source();
  const SourceLocation loc{file, static_cast<int>(where.begin.line),
                           static_cast<int>(where.begin.column)};
  Duration d{0};
  if (const auto* s = node.as_string()) {
    try {
      d = parse_duration(s->get());
    } catch (const std::invalid_argument& e) {
      throw InputError(loc, field, e.what());
    }
  } else if (const auto* i = node.as_integer()) {
    // A bare number has no unit: 0 is the same in every unit; anything else would be a guess
    // (the command line refuses `--duration 10` alike), so the file must say which it means.
    if (i->get() != 0) {
      throw InputError(loc, field,
                       "a duration needs a unit: write \"" + std::to_string(i->get()) +
                           "us\" or \"" + std::to_string(i->get()) +
                           "ms\" (units: ns, us, ms, s, min)");
    }
  } else {
    throw InputError(loc, field, "expected a duration string with a unit, like \"10ms\"");
  }
  if (positive && d.count() == 0) throw InputError(loc, field, "duration must be > 0");
  return d;
}

}  // namespace rtpar::kernels
