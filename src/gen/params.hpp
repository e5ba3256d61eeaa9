// params.hpp — reading a family's parameters: defaults from its FamilyInfo, typed and range-checked
// values, and an error for every key the family does not know.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rtpar/time.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

// ParamReader reads the parameters of one family. Each getter takes the value given, or the
// family's documented default, and throws InputError at "generator.<key>" when it is malformed or
// out of range. finish() rejects keys no getter asked for.
class ParamReader {
 public:
  // ParamReader checks the keys of `params` against `family` up front (a misspelt key is reported
  // before any value is read).
  ParamReader(const FamilyInfo& family, const Params& params);

  // integer reads key as a decimal integer in [lo, hi].
  std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi) const;
  // real reads key as a finite decimal number in [lo, hi].
  double real(std::string_view key, double lo, double hi) const;
  // duration reads key as a duration ("10ms"; a bare integer is µs, as in task-set files) > 0.
  Duration duration(std::string_view key) const;
  // boolean reads key as true or false.
  bool boolean(std::string_view key) const;
  // choice reads key as one of `choices`.
  std::string choice(std::string_view key, const std::vector<std::string_view>& choices) const;
  // text_of is the raw text of key (given or default), for list-valued parameters.
  const std::string& text_of(std::string_view key) const { return text(key); }
  // real_text parses `value` (one item of key's list) as real() would.
  double real_text(std::string_view key, const std::string& value, double lo, double hi) const;
  // fail throws InputError at "generator.<key>" with `message` (for checks across keys).
  [[noreturn]] void fail(std::string_view key, const std::string& message) const;

 private:
  // text is the value of key as written, or its default.
  const std::string& text(std::string_view key) const;
  const FamilyInfo& family_;
  const Params& params_;
};

// find_family returns the family called `name`, or throws InputError at "generator.family".
const FamilyInfo& find_family(std::string_view name);

}  // namespace rtpar::gen
