// rtpar/error.hpp — the two error kinds every rtpar entry point distinguishes.
#pragma once

#include <stdexcept>
#include <string>

namespace rtpar {

// SourceLocation names where in an input file a problem was found (1-based; 0 = unknown).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// InputError is bad input: a malformed or invalid task-set file, a bad command-line value, or a
// request this machine cannot honour as written (e.g. cores that are not online). The CLI maps it
// to exit status 2. what() reads "file:line:column: field: message".
class InputError : public std::runtime_error {
 public:
  // InputError builds the error; field is a dotted path such as "task[2].period" (may be empty).
  InputError(SourceLocation where, std::string field, const std::string& message);

  // where says which file, line and column the error refers to.
  [[nodiscard]] const SourceLocation& where() const noexcept { return where_; }
  // field is the dotted path of the offending field, or empty.
  [[nodiscard]] const std::string& field() const noexcept { return field_; }
  // message is the explanation without the location prefix.
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  SourceLocation where_;
  std::string field_;
  std::string message_;
};

// EnvironmentError is the environment refusing something rtpar needs (SCHED_FIFO, mlockall,
// affinity). The CLI maps it to exit status 3 and prints hint().
class EnvironmentError : public std::runtime_error {
 public:
  // EnvironmentError builds the error with a human hint on how to fix the environment.
  EnvironmentError(const std::string& message, std::string hint);
  // hint tells the user how to obtain the missing privilege or use --best-effort.
  [[nodiscard]] const std::string& hint() const noexcept { return hint_; }

 private:
  std::string hint_;
};

}  // namespace rtpar
