// channel_parse.cpp — [[channel]] tables: name, kind, size, numtries, writer, readers, hold,
// accesses.
#include "load/channel_parse.hpp"

#include <charconv>
#include <set>
#include <string_view>

#include "load/toml_fields.hpp"

namespace rtpar::model {

ChannelSpec parse_channel(const toml::table& table, std::size_t i, const std::string& file,
                          FieldLocations& locations) {
  TableReader reader(table, file, "channel[" + std::to_string(i) + "]", locations);
  ChannelSpec channel;
  channel.where = reader.where();
  reader.allow_only({"name", "kind", "size", "numtries", "writer", "readers", "hold", "accesses"});
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
  channel.size_bytes = static_cast<std::size_t>(reader.byte_size(*size, "size", kMaxChannelBytes));
  if (const auto tries = reader.integer("numtries")) {
    if (channel.kind != ChannelKind::retry) {
      reader.fail(reader.node("numtries"), "numtries", "only applies to kind = \"retry\"");
    }
    if (*tries < 1 || *tries > 1'000'000) {
      reader.fail(reader.node("numtries"), "numtries", "must be between 1 and 1000000");
    }
    channel.numtries = static_cast<int>(*tries);
  }
  // hold and accesses: their ranges against the users' deadlines are checked by check_channels,
  // so that sets built in code get the same rules; here only the kind and the spelling.
  if (const auto hold = reader.duration("hold")) {
    if (channel.kind != ChannelKind::lock) {
      reader.fail(reader.node("hold"), "hold", "only applies to kind = \"lock\"");
    }
    if (hold->count() <= 0) reader.fail(reader.node("hold"), "hold", "must be > 0");
    channel.hold = *hold;
  } else if (channel.kind == ChannelKind::lock) {
    reader.fail(nullptr, "hold",
                "required for kind = \"lock\": the longest time any job holds the lock in one "
                "access, e.g. hold = \"50us\" (admission control charges it as blocking)");
  }
  if (const auto count = reader.integer("accesses")) {
    if (channel.kind != ChannelKind::lock) {
      reader.fail(reader.node("accesses"), "accesses", "only applies to kind = \"lock\"");
    }
    if (*count < 1 || *count > 1'000'000) {
      reader.fail(reader.node("accesses"), "accesses", "must be between 1 and 1000000");
    }
    channel.accesses = static_cast<int>(*count);
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
