// main.cpp — doctest's runner for the rtpar test suite, with skips reported as such
// (tests/support/skip.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/skip.hpp"

namespace {
bool g_skipped = false;
}  // namespace

namespace rtpar::test {

void mark_skipped(std::string_view reason) {
  g_skipped = true;
  std::printf("SKIPPED: %.*s\n", static_cast<int>(reason.size()), reason.data());
  std::fflush(stdout);
}

}  // namespace rtpar::test

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit() || result != 0) return result;
  if (g_skipped) {
    if (const char* code = std::getenv("RTPAR_TEST_SKIP_CODE"); code != nullptr && *code != '\0') {
      return std::atoi(code);
    }
  }
  return 0;
}
