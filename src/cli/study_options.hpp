// study_options.hpp — which study an `rtpar experiment` subcommand names: the manifest (a name or
// a path), the scale and the seed, and where a manifest named without a path is found.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "experiment/units.hpp"

namespace rtpar::cli {

// StudyOptions are the options that pick a study: manifest, scale, seed.
struct StudyOptions {
  std::string name;
  std::string scale = "paper";
  std::optional<std::uint64_t> seed;
};

// add_study_options registers NAME, --scale and --seed on a subcommand.
void add_study_options(CLI::App& app, StudyOptions& o);

// manifest_dirs lists where manifests named without a path are found, in order:
// $RTPAR_EXPERIMENTS, ./experiments, and the repository's or installation's experiments/ beside
// the running binary (build/rtpar → experiments/; bin/rtpar → share/rtpar/experiments/).
std::vector<std::filesystem::path> manifest_dirs();

// find_manifest resolves NAME (a manifest name) or a path to a .toml file.
std::filesystem::path find_manifest(const std::string& name);

// resolve_study loads the manifest an invocation names and resolves it at its scale and seed.
experiment::Resolved resolve_study(const StudyOptions& o);

}  // namespace rtpar::cli
