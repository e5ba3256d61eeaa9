// channel_parse.cpp — [[channel]] tables: name, kind, size, numtries, writer, readers.
#include "load/channel_parse.hpp"

#include <charconv>
#include <set>
#include <string_view>

#include "load/toml_fields.hpp"

namespace rtpar::model {

namespace {

// parse_size reads a payload size: an integer number of bytes, or a string with a unit
// ("64KiB", "1MiB", "1MB", "512B"); 0 when the text is not a size (the caller reports it).
std::size_t parse_size(const TableReader& reader, const toml::node& value) {
  if (const auto* i = value.as_integer()) {
    if (i->get() <= 0) reader.fail(&value, "size", "must be > 0 bytes");
    return static_cast<std::size_t>(i->get());
  }
  const auto* s = value.as_string();
  if (s == nullptr) {
    reader.fail(&value, "size", "expected a byte count: an integer or a string like \"64KiB\"");
  }
  const std::string_view text = s->get();
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);  // "64 KiB" reads too
  struct Unit {
    std::string_view name;
    std::uint64_t bytes;
  };
  static constexpr Unit kUnits[] = {{"B", 1},         {"KiB", 1024}, {"MiB", 1024 * 1024},
                                    {"kB", 1000},     {"KB", 1000},  {"MB", 1000 * 1000},
                                    {"GiB", 1U << 30}};
  if (ec != std::errc() || end == text.data()) {
    reader.fail(&value, "size",
                "expected a byte count like \"64KiB\", got \"" + std::string(text) + "\"");
  }
  for (const Unit& u : kUnits) {
    if (unit == u.name) {
      if (number == 0) reader.fail(&value, "size", "must be > 0 bytes");
      if (number > kMaxChannelBytes / u.bytes) {
        reader.fail(&value, "size",
                    "must be at most " + std::to_string(kMaxChannelBytes) + " bytes (1 GiB)");
      }
      return static_cast<std::size_t>(number * u.bytes);
    }
  }
  reader.fail(&value, "size",
              "unknown unit \"" + std::string(unit) + "\" (use B, KiB, MiB, GiB, kB or MB)");
}

}  // namespace

ChannelSpec parse_channel(const toml::table& table, std::size_t i, const std::string& file,
                          FieldLocations& locations) {
  TableReader reader(table, file, "channel[" + std::to_string(i) + "]", locations);
  ChannelSpec channel;
  channel.where = reader.where();
  reader.allow_only({"name", "kind", "size", "numtries", "writer", "readers"});
  const auto name = reader.string("name");
  if (!name) reader.fail(nullptr, "name", "required");
  channel.name = *name;

  if (const auto kind = reader.string("kind")) {
    const auto parsed = parse_channel_kind(*kind);
    if (!parsed) {
      reader.fail(reader.node("kind"), "kind",
                  "unknown channel kind \"" + *kind +
                      "\" (expected \"latest\", \"retry\", \"double_buffer\" or \"lock\")");
    }
    channel.kind = *parsed;
  }
  const toml::node* size = reader.node("size");
  if (size == nullptr) reader.fail(nullptr, "size", "required (payload size in bytes)");
  channel.size_bytes = parse_size(reader, *size);
  if (const auto tries = reader.integer("numtries")) {
    if (channel.kind != ChannelKind::retry) {
      reader.fail(reader.node("numtries"), "numtries", "only applies to kind = \"retry\"");
    }
    if (*tries < 1 || *tries > 1'000'000) {
      reader.fail(reader.node("numtries"), "numtries", "must be between 1 and 1000000");
    }
    channel.numtries = static_cast<int>(*tries);
  }
  const auto writer = reader.string("writer");
  if (!writer) reader.fail(nullptr, "writer", "required (a task name, or \"nonrt\")");
  channel.writer = *writer;

  const toml::node* readers = reader.node("readers");
  if (readers == nullptr) reader.fail(nullptr, "readers", "required (a list of task names)");
  const toml::array* list = readers->as_array();
  if (list == nullptr) {
    reader.fail(readers, "readers", "expected an array of names, e.g. [\"tracker\", \"nonrt\"]");
  }
  for (std::size_t k = 0; k < list->size(); ++k) {
    const toml::node& element = (*list)[k];
    if (!element.is_string()) reader.fail(&element, "readers", "expected a task name (string)");
    locations.add(reader.field("readers") + "[" + std::to_string(k) + "]",
                  location(file, element.source()));
    channel.readers.push_back(element.as_string()->get());
  }
  return channel;
}

}  // namespace rtpar::model
