// rejected_input.hpp — the check every file-format test makes of a refused task-set text: it is
// an InputError with this field path, at this line, saying this.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"

namespace testsupport {

// expect_rejected parses `text` (as file `file`) and checks that it is refused with an
// InputError naming `field` at `line` whose message contains `fragment`.
inline void expect_rejected(const std::string& text, const std::string& file,
                            const std::string& field, int line, const std::string& fragment) {
  CAPTURE(text);
  try {
    (void)rtpar::parse_taskset(text, file);
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == field);
    CHECK(e.where().line == line);
    CHECK_MESSAGE(e.message().find(fragment) != std::string::npos, e.message());
  }
}

}  // namespace testsupport
