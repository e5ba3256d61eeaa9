// skip.hpp — a doctest case that cannot check what its name claims here (no real-time privilege,
// a sanitizer that forbids it) says so and is reported as skipped, never as passed.
//
// RTPAR_SKIP("reason") prints "SKIPPED: reason" and returns from the case; mark_skipped("reason")
// only records it (for a case that still checks a best-effort half). When the run has no failure
// and something was skipped, the runner (tests/support/main.cpp) exits with
// RTPAR_TEST_SKIP_CODE when that variable is set: ctest sets it to 77 with SKIP_RETURN_CODE 77
// (tests/CMakeLists.txt), so the case shows as skipped with its reason in the output. Run by hand
// without the variable, the binary exits 0 as doctest would.
#pragma once

#include <string_view>

namespace rtpar::test {

void mark_skipped(std::string_view reason);

}  // namespace rtpar::test

#define RTPAR_SKIP(reason)                 \
  do {                                     \
    ::rtpar::test::mark_skipped(reason);   \
    return;                                \
  } while (false)
