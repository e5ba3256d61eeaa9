// note_lines.cpp — see note_lines.hpp.
#include "report/note_lines.hpp"

#include <algorithm>
#include <string_view>

namespace rtpar::report {

namespace {

// split cuts s at every ", ".
std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at = s.find(", "); at != std::string::npos; at = s.find(", ", from)) {
    parts.push_back(s.substr(from, at - from));
    from = at + 2;
  }
  parts.push_back(s.substr(from));
  return parts;
}

// trimmed is s without leading and trailing spaces.
std::string trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::vector<std::string> note_lines(const std::string& note, bool full) {
  const std::vector<std::string> parts = split(note);
  if (note.size() < kLongNote || parts.size() < kNoteListItems) return {note};
  std::vector<std::string> lines;
  std::string current;  // the text of the line being built
  bool first = true;    // no part appended to current yet
  const auto spaceless = [](const std::string& p) { return p.find(' ') == std::string::npos; };
  std::size_t i = 0;
  while (i < parts.size()) {
    // A list starts with parts[i]'s last word and goes on while parts have no space; a part with
    // a space after it ends the list with its first word.
    std::size_t j = i + 1;
    while (j < parts.size() && spaceless(parts[j])) ++j;
    const std::size_t items = j - i + (j < parts.size() ? 1 : 0);
    if (items < kNoteListItems) {
      current += (first ? "" : ", ") + parts[i];
      first = false;
      ++i;
      continue;
    }
    const std::size_t cut = parts[i].rfind(' ');
    std::vector<std::string> list;
    list.push_back(cut == std::string::npos ? parts[i] : parts[i].substr(cut + 1));
    current += (first ? "" : ", ") + (cut == std::string::npos ? "" : parts[i].substr(0, cut));
    for (std::size_t k = i + 1; k < j; ++k) list.push_back(parts[k]);
    std::string rest;
    if (j < parts.size()) {
      const std::size_t space = parts[j].find(' ');
      list.push_back(parts[j].substr(0, space));
      rest = trimmed(std::string_view(parts[j]).substr(space));
    }
    std::string head = trimmed(current);
    lines.push_back((head.empty() ? "" : head + " ") + "(" + std::to_string(list.size()) +
                    " items)");
    const std::size_t shown = full ? list.size() : std::min(list.size(), kNoteItemsShown);
    for (std::size_t k = 0; k < shown; ++k) lines.push_back("  " + list[k]);
    if (shown < list.size()) {
      lines.push_back("  … and " + std::to_string(list.size() - shown) +
                      " more (-v or --json: all)");
    }
    current = rest;
    first = rest.empty();
    i = j + 1;
  }
  if (!trimmed(current).empty()) lines.push_back(trimmed(current));
  return lines;
}

}  // namespace rtpar::report
