// federated_ws.cpp — plan_federated_ws: federated scheduling for heavy tasks run by a randomized
// work-stealing scheduler, as in RTWS (RTWS §V-B, eq. 3). Light tasks are handled exactly as in
// plan_federated (first-fit + exact RTA); only the heavy-task core count and bound differ.
#include <climits>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "analysis/planners/federated_common.hpp"
#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {
namespace {

// Wide is the exact integer type of eq. (3): q·C reaches ~2^83 for C near 2^63 ns.
using Wide = __int128;

// kDeltaScale is q in δ = p/q: δ is taken to 6 decimals, enough for every value the paper quotes
// (1.5, 1.7, 3.65) and small enough that q·C, q·D and p·L fit easily in 128 bits.
constexpr std::int64_t kDeltaScale = 1'000'000;

// kMaxDelta bounds δ so that p = δ·q fits int64 and p·L fits 128 bits; the paper's theoretical
// worst case is 3.65, so anything near this limit is a typo.
constexpr double kMaxDelta = 1e12;

// wide_string renders a non-negative 128-bit integer in decimal (fmt 9 has no __int128 support
// that -Wpedantic accepts, and δ·L can exceed int64 when δ is large).
std::string wide_string(Wide v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v > 0);
  return digits;
}

// exact_decimal renders num / kDeltaScale exactly ("15", "22.5", "0.000001"), num ≥ 0.
std::string exact_decimal(Wide num) {
  std::string whole = wide_string(num / kDeltaScale);
  const auto frac = static_cast<std::int64_t>(num % kDeltaScale);
  if (frac == 0) return whole;
  std::string digits = fmt::format("{:06}", frac);
  while (digits.back() == '0') digits.pop_back();
  return whole + "." + digits;
}

// scaled_duration renders num / kDeltaScale nanoseconds: like format_duration when it is a whole
// number of ns, else as exact decimal ns (δ·L may be fractional).
std::string scaled_duration(Wide num) {
  if (num % kDeltaScale == 0 && num / kDeltaScale <= INT64_MAX) {
    return format_duration(Duration(static_cast<std::int64_t>(num / kDeltaScale)));
  }
  return exact_decimal(num) + "ns";
}

// delta_numerator is p = round(δ·10^6), the numerator of δ taken to 6 decimals. Throws InputError
// for a δ the arithmetic cannot represent (the model layer normally rejects these first).
std::int64_t delta_numerator(const SystemSpec& system) {
  const double delta = system.delta;
  if (!std::isfinite(delta) || delta <= 0.0 || delta > kMaxDelta) {
    throw InputError(
        system.where, "system.delta",
        fmt::format("delta must be a finite number in (0, {}] (got {})", kMaxDelta, delta));
  }
  const std::int64_t p = std::llround(delta * static_cast<double>(kDeltaScale));
  if (p <= 0) {
    throw InputError(system.where, "system.delta",
                     fmt::format("delta {} is 0 when taken to 6 decimals", delta));
  }
  return p;
}

// size_ws applies RTWS eq. (3) and the §V-B expected response-time bound with δ = p/q.
//
//   n = ceil((C + D − δL) / (D − δL))   RTWS §V-B eq. (3); needs D > δL, else unschedulable.
// With δ = p/q it is n = ceil((qC + qD − pL) / (qD − pL)), evaluated exactly in __int128.
// (L here is the burdened span L̂ of the paper: TaskSpec::span is whatever the user measured.)
//
//   E[R] ≤ C/n + δL + (δ/ln 2)² / (2(D − C/n − δL))   RTWS §V-B (Lemma 2, KING70, with the
// worst-case completion-time distribution of variance (δ/ln 2)² in unit time steps, Y = D).
// The unit time step is 1 ns, so the variance term is in ns²/ns = ns. Like eq. (3), the formula
// drops the 1/ln 2 and +1 unit-step terms of E[γ] (≤ δ/ln 2 + 1 ≈ 3.2 ns for δ = 1.5).
// Conditions: randomized work stealing on n dedicated cores; Y = D is the inter-arrival time of
// the paper's implicit-deadline model, and taking D ≤ T only shortens it, so it stays an upper
// bound. The slack D − C/n − δL is positive and in fact ≥ (D − δL)/n: eq. (3) gives
// n(D − δL) ≥ C + (D − δL). Its exact numerator n(qD − pL) − qC is computed in 128 bits, so the
// variance term is at most n(δ/ln 2)² / (2(D − δL)) ns — negligible when D − δL ≫ n ns.
analysis::HeavySizing size_ws(const TaskSpec& task, std::int64_t p) {
  const Wide q = kDeltaScale;
  const std::int64_t c = task.work.count(), l = task.span.count(), d = task.deadline.count();
  const Wide den = q * d - Wide(p) * l;  // q(D − δL)
  analysis::HeavySizing out;
  if (den <= 0) {
    out.infeasible = fmt::format(
        "D={} is not longer than δ·L={} (δ taken as {}): no number of cores suffices "
        "(RTWS eq. 3 needs D > δL)",
        format_duration(task.deadline), scaled_duration(Wide(p) * l), exact_decimal(p));
    return out;
  }
  const Wide n = ceil_div(q * c + den, den);  // (qC + qD − pL) / (qD − pL)
  out.cores_needed = n > INT_MAX ? INT_MAX : static_cast<int>(n);

  const Wide slack_num = n * den - q * c;  // n·q·(D − C/n − δL), ≥ den > 0 by eq. (3)
  const long double nq = static_cast<long double>(n) * static_cast<long double>(q);
  const long double slack = static_cast<long double>(slack_num) / nq;
  const long double delta = static_cast<long double>(p) / static_cast<long double>(q);
  const long double mean = static_cast<long double>(c) / static_cast<long double>(n) +
                           delta * static_cast<long double>(l);
  const long double spread = delta / std::numbers::ln2_v<long double>;
  out.expected_response_ns = static_cast<double>(mean + spread * spread / (2.0L * slack));
  // No response_bound_ns: work stealing may run as slowly as on one core (RTWS §VI), so a
  // heavy task has no hard bound under this planner.
  return out;
}

}  // namespace

analysis::HeavySizer analysis::federated_ws_sizer(const SystemSpec& system) {
  const std::int64_t p = delta_numerator(system);
  return [p](const TaskSpec& task) { return size_ws(task, p); };
}

Plan plan_federated_ws(const TaskSet& set) {
  return analysis::plan_federated_ws_server(set, std::nullopt);
}

Plan analysis::plan_federated_ws_server(const TaskSet& set,
                                        const std::optional<PeriodicServer>& server) {
  const std::int64_t p = delta_numerator(set.system);
  Plan plan = analysis::plan_federated_family(set, PlannerKind::federated_ws,
                                              analysis::federated_ws_sizer(set.system), server);

  bool any_heavy = false;
  for (TaskPlan& tp : plan.tasks) {
    any_heavy = any_heavy || tp.heavy;
    // A light task's worst-case RTA response also bounds its mean, so the E[R] column is filled.
    if (!tp.heavy && tp.response_bound_ns) {
      tp.expected_response_ns = static_cast<double>(*tp.response_bound_ns);
    }
  }
  const double taken = static_cast<double>(p) / static_cast<double>(kDeltaScale);
  if (taken != set.system.delta) {
    plan.notes.push_back(
        fmt::format("delta {} is taken to 6 decimals as {}", set.system.delta, exact_decimal(p)));
  }
  if (any_heavy) {
    plan.notes.push_back(
        "federated-ws: heavy tasks get no hard response bound (work stealing may be as slow as "
        "one core, RTWS §VI); expected_response_ns bounds their mean response (RTWS §V-B)");
  }
  return plan;
}

}  // namespace rtpar
