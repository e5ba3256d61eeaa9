// chain_parse.cpp — [[chain]] tables: name, tasks, max_age.
#include "load/chain_parse.hpp"

#include "load/toml_fields.hpp"

namespace rtpar::model {

ChainSpec parse_chain(const toml::table& table, std::size_t i, const std::string& file,
                      FieldLocations& locations) {
  TableReader reader(table, file, "chain[" + std::to_string(i) + "]", locations);
  ChainSpec chain;
  chain.where = reader.where();
  reader.allow_only({"name", "tasks", "max_age"});
  const auto name = reader.string("name");
  if (!name) reader.fail(nullptr, "name", "required");
  chain.name = *name;
  const toml::node* tasks = reader.node("tasks");
  if (tasks == nullptr) {
    reader.fail(nullptr, "tasks", "required (the tasks of the chain in order, source first)");
  }
  const toml::array* list = tasks->as_array();
  if (list == nullptr) {
    reader.fail(tasks, "tasks", "expected an array of task names, e.g. [\"camera\", \"control\"]");
  }
  for (std::size_t k = 0; k < list->size(); ++k) {
    const toml::node& element = (*list)[k];
    const std::string field = "tasks[" + std::to_string(k) + "]";
    if (!element.is_string()) reader.fail(&element, field, "expected a task name (string)");
    locations.add(reader.field(field), location(file, element.source()));
    chain.tasks.push_back(element.as_string()->get());
  }
  if (const auto age = reader.duration("max_age")) {
    if (age->count() <= 0) reader.fail(reader.node("max_age"), "max_age", "must be > 0");
    chain.max_age = *age;
  }
  return chain;
}

}  // namespace rtpar::model
