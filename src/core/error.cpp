// error.cpp — construction of InputError and EnvironmentError (see rtpar/error.hpp).
#include "rtpar/error.hpp"

#include <utility>

namespace rtpar {

namespace {

// describe builds "file:line:column: field: message", dropping the parts that are unknown so the
// text never shows meaningless parts such as ":0:0" or an empty field.
std::string describe(const SourceLocation& where, const std::string& field,
                     const std::string& message) {
  std::string text = where.file;
  if (where.line > 0) {
    if (text.empty()) text = "<input>";  // a line number alone would read as part of the field
    text += ':' + std::to_string(where.line);
    if (where.column > 0) text += ':' + std::to_string(where.column);
  }
  if (!field.empty()) text += (text.empty() ? "" : ": ") + field;
  if (!message.empty()) text += (text.empty() ? "" : ": ") + message;
  return text;
}

}  // namespace

InputError::InputError(SourceLocation where, std::string field, const std::string& message)
    : std::runtime_error(describe(where, field, message)),
      where_(std::move(where)),
      field_(std::move(field)),
      message_(message) {}

EnvironmentError::EnvironmentError(const std::string& message, std::string hint)
    : std::runtime_error(message), hint_(std::move(hint)) {}

}  // namespace rtpar
