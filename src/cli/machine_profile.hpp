// machine_profile.hpp — the machine's own overhead profile: `rtpar calibrate` writes it to a
// per-machine location, and `check`, `run` and `simulate` charge it unless told otherwise, so
// that admitted bounds include this machine's release latency and fork/join costs by default
// (docs/cli.md, "Overhead profiles").
#pragma once

#include <optional>
#include <string>

#include "rtpar/tools/overhead.hpp"

namespace rtpar::cli {

// machine_profile_path is where this machine's profile lives: $RTPAR_STATE_DIR/overhead.json if
// set, else $XDG_STATE_HOME/rtpar/overhead.json, else /var/lib/rtpar/overhead.json for root and
// ~/.local/state/rtpar/overhead.json for anyone else.
std::string machine_profile_path();

// machine_identity names this machine as a profile records it (hostname and online CPU count):
// a profile measured elsewhere is not charged here.
std::string machine_identity();

// OverheadChoice is the profile the planners charge (none: nullopt) and the one-line note that
// says which, and when none, why and how to get one.
struct OverheadChoice {
  std::optional<OverheadProfile> profile;
  std::string note;
};

// choose_overhead resolves --overhead `flag`: "none" charges nothing; a file name charges that
// file; empty means the machine profile when one exists for this machine and no `--target`
// names another one (`for_target`). Throws InputError for an unreadable or malformed file
// (exit status 2), including a malformed machine profile.
OverheadChoice choose_overhead(const std::string& flag, bool for_target);

}  // namespace rtpar::cli
