// interference_line.cpp — interference_summary, interference_detail.
#include "report/interference_line.hpp"

#include <fmt/format.h>

#include "rtpar/time.hpp"

namespace rtpar::report {

namespace {

// budget_text is "Q every P per core" for k's server.
std::string budget_text(const KernelInterference& k) {
  return fmt::format("{} every {} per core", format_duration(Duration(k.budget_ns), 3),
                     format_duration(Duration(k.period_ns), 3));
}

}  // namespace

std::string interference_summary(const KernelInterference& k) {
  std::string text;
  if (k.state == "charged") {
    text = fmt::format("charged: {}", budget_text(k));
  } else if (k.state == "stated") {
    text = k.budget_ns > 0
               ? fmt::format("not charged: up to {} may preempt the tasks", budget_text(k))
               : std::string("not charged");
  } else if (k.state == "isolated") {
    text = k.known ? "isolated for the run" : "isolated for the run, incompletely";
  } else if (k.state == "none") {
    text = "none found";
  } else if (k.state == "unread") {
    text = "not read";
  } else {
    text = k.state;
  }
  if (!k.known && k.state != "isolated") text += "; not all read";  // short: the line stays within 100 columns
  if (!k.source.empty() || !k.known) text += " (-v: details)";
  return text;
}

std::string interference_detail(const KernelInterference& k) {
  std::string text = k.state;
  if (k.budget_ns > 0) text += fmt::format(": {}", budget_text(k));
  if (!k.known) text += " (partly unknown)";
  if (!k.source.empty()) text += fmt::format(" — {}", k.source);
  return text;
}

}  // namespace rtpar::report
