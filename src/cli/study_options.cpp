// study_options.cpp — finding a study's manifest and resolving it (study_options.hpp).
#include "cli/study_options.hpp"

#include <cstdlib>
#include <system_error>

#include "experiment/manifest.hpp"
#include "rtpar/error.hpp"

namespace rtpar::cli {

namespace fs = std::filesystem;

void add_study_options(CLI::App& app, StudyOptions& o) {
  app.add_option("name", o.name, "Manifest name (experiments/NAME.toml) or path")->required();
  app.add_option("--scale", o.scale, "Scale of the study: paper, quick, smoke (default paper)");
  app.add_option("--seed", o.seed, "Base seed (default: the manifest's)");
}

std::vector<fs::path> manifest_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("RTPAR_EXPERIMENTS"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  dirs.emplace_back("experiments");
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back((self.parent_path() / ".." / "experiments").lexically_normal());
    dirs.push_back(
        (self.parent_path() / ".." / "share" / "rtpar" / "experiments").lexically_normal());
  }
  return dirs;
}

fs::path find_manifest(const std::string& name) {
  if (name.find('/') != std::string::npos || name.ends_with(".toml")) {
    if (!fs::is_regular_file(name)) throw InputError({name, 0, 0}, "NAME", "no such manifest file");
    return fs::absolute(name);
  }
  for (const fs::path& d : manifest_dirs()) {
    const fs::path p = d / (name + ".toml");
    if (fs::is_regular_file(p)) return fs::absolute(p).lexically_normal();
  }
  std::string where;
  for (const fs::path& d : manifest_dirs()) where += (where.empty() ? "" : ", ") + d.string();
  throw InputError({name, 0, 0}, "NAME",
                   "no manifest named \"" + name + "\" (searched " + where +
                       "; `rtpar experiment list` names them)");
}

experiment::Resolved resolve_study(const StudyOptions& o) {
  return experiment::resolve(experiment::load_manifest(find_manifest(o.name).string()), o.scale,
                             o.seed);
}

}  // namespace rtpar::cli
