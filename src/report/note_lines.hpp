// note_lines.hpp — a plan note in the human-readable tables: a note that lists many items (task
// names, cores) is printed one item per line, a long list summarised as its first items and
// "… and K more" (docs/cli.md, "Notes"); -v and `--json` carry every item.
#pragma once

#include <string>
#include <vector>

namespace rtpar::report {

// kNoteItemsShown is how many items of a long list a default table prints.
inline constexpr std::size_t kNoteItemsShown = 10;
// kNoteListItems is the length from which a ", "-separated list in a long note is split.
inline constexpr std::size_t kNoteListItems = 8;
// kLongNote is the note length (characters) below which a note is printed as it is.
inline constexpr std::size_t kLongNote = 240;

// note_lines splits `note` into the lines to print: a note shorter than kLongNote stays one line;
// in a longer one each list of at least kNoteListItems items ("a, b, c, …", items without spaces)
// ends the line before it ("core 0: (1289 items)") and gives one line per item, indented by two
// spaces, all of them when `full`, else the first kNoteItemsShown and "… and K more".
std::vector<std::string> note_lines(const std::string& note, bool full);

}  // namespace rtpar::report
