// manifest_class.hpp — ManifestClass, what the units of an experiment study do ([experiment]
// class, docs/experiments.md). Declared in core beside its name table (core/names.hpp), though
// only the experiment runner and `rtpar experiment` use it.
#pragma once

namespace rtpar {

// ManifestClass is an experiment manifest's class: it decides what a unit does with its task
// set, which tables and keys the manifest may have, and which columns its rows carry.
enum class ManifestClass {
  analysis,    // the planners judge each generated set
  simulation,  // admitted plans are also simulated
  runtime,     // admitted plans are run on this machine, one unit at a time
  bench,       // a unit runs an rtpar-bench driver on this machine: no generator, no planner
};

// to_string is the class's name in manifests (core/names.hpp), "unknown" for an invalid value.
const char* to_string(ManifestClass klass) noexcept;

}  // namespace rtpar
