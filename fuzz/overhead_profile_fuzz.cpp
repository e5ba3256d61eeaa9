// overhead_profile_fuzz.cpp — libFuzzer target for the overhead-profile reader
// (load_overhead_profile, src/model/overhead_profile.cpp; the file `rtpar calibrate --out` writes
// and `rtpar check --overhead` reads).
//
// Properties: any byte string is either a profile or an InputError; a profile it returns is
// queried the way the planners query it (fork_join_bound for every team size and wait policy);
// and what overhead_profile_json writes for that profile reads back as the same profile, supply
// entries included, in ascending distinct windows (the writer never produces a file its own
// reader refuses or reads differently).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_input.hpp"
#include "rtpar/tools/overhead.hpp"

namespace {

// same reports whether two costs hold the same values (mean_ns bit for bit: the writer prints
// doubles with enough digits to read back exactly).
bool same(const rtpar::ForkJoinCost& a, const rtpar::ForkJoinCost& b) {
  return a.threads == b.threads && a.wait == b.wait && a.parked == b.parked &&
         a.samples == b.samples && std::memcmp(&a.mean_ns, &b.mean_ns, sizeof a.mean_ns) == 0 &&
         a.p50_ns == b.p50_ns && a.p99_ns == b.p99_ns && a.p999_ns == b.p999_ns &&
         a.max_ns == b.max_ns;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static rtpar::fuzz::MemFile input("overhead-profile.json");
  static rtpar::fuzz::MemFile written("overhead-profile-written.json");
  input.assign(rtpar::fuzz::as_text(data, size));
  rtpar::OverheadProfile profile;
  if (!rtpar::fuzz::expect_input_error(
          [&] { profile = rtpar::load_overhead_profile(input.path()); })) {
    return 0;
  }
  for (const rtpar::WaitKind wait :
       {rtpar::WaitKind::spin, rtpar::WaitKind::block, rtpar::WaitKind::hybrid}) {
    for (int threads = 1; threads <= 64; ++threads) (void)profile.fork_join_bound(threads, wait);
  }

  written.assign(rtpar::overhead_profile_json(profile));
  rtpar::OverheadProfile again;
  if (!rtpar::fuzz::expect_input_error(
          [&] { again = rtpar::load_overhead_profile(written.path()); })) {
    rtpar::fuzz::fail_finding(
        "the reader refuses what overhead_profile_json wrote for a profile "
        "it accepted");
  }
  bool equal =
      again.machine == profile.machine && again.fork_join.size() == profile.fork_join.size();
  for (std::size_t i = 0; equal && i < profile.fork_join.size(); ++i) {
    equal = same(again.fork_join[i], profile.fork_join[i]);
  }
  equal = equal && again.supply.size() == profile.supply.size();
  for (std::size_t i = 0; equal && i < profile.supply.size(); ++i) {
    const rtpar::SupplyLoss& a = again.supply[i];
    const rtpar::SupplyLoss& b = profile.supply[i];
    equal = a.window_ns == b.window_ns && a.loss_ns == b.loss_ns && a.samples == b.samples &&
            (i == 0 || profile.supply[i - 1].window_ns < b.window_ns);  // ascending, distinct
  }
  if (!equal) rtpar::fuzz::fail_finding("a profile does not read back as written");
  return 0;
}
