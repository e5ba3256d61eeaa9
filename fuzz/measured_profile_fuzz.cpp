// measured_profile_fuzz.cpp — libFuzzer target for the measured-profile reader
// (load_measured_profile, src/report/measured_profile.cpp: the report.json of `rtpar run --out`
// read back by `rtpar check --measured`).
//
// Properties: any byte string is either a profile or an InputError, and a profile it returns
// holds only what the planners may rely on: tasks with at least one profiled job and
// non-negative work and burdened-span maxima.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static rtpar::fuzz::MemFile input("report.json");
  input.assign(rtpar::fuzz::as_text(data, size));
  rtpar::MeasuredProfile profile;
  if (!rtpar::fuzz::expect_input_error([&] { profile = rtpar::load_measured_profile(input.path()); })) {
    return 0;
  }
  for (const rtpar::MeasuredTask& task : profile.tasks) {
    if (task.jobs <= 0 || task.work_max_ns < 0 || task.burdened_span_max_ns < 0) {
      rtpar::fuzz::fail_finding("a measured task with no jobs or a negative maximum was accepted");
    }
  }
  return 0;
}
