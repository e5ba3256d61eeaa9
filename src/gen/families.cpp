// families.cpp — the table of generator families and generate(), which dispatches to them.
#include <string>
#include <utility>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"
#include "gen/lock_channels.hpp"
#include "gen/params.hpp"

namespace rtpar::gen {

namespace {

// Entry pairs a family's description with its draw function.
struct Entry {
  FamilyInfo info;
  Generated (*draw)(const ParamReader&, std::uint64_t);
};

// entries is built once (a function-local static: thread-safe initialisation, read-only after).
const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {fjos_family(), generate_fjos},   {uunifast_family(), generate_uunifast},
      {sync_family(), generate_sync},   {dag_family(), generate_dag},
      {rtomp_family(), generate_rtomp}, {rtws_family(), generate_rtws},
      {omprt_family(), generate_omprt}, {rtws_sync_family(), generate_rtws_sync},
  };
  return table;
}

}  // namespace

const std::vector<FamilyInfo>& families() {
  static const std::vector<FamilyInfo> infos = [] {
    std::vector<FamilyInfo> v;
    for (const Entry& e : entries()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

Generated generate(std::string_view family, const Params& params, std::uint64_t seed) {
  const FamilyInfo& info = find_family(family);
  // The lock parameters are every family's (lock_channels.hpp): read apart, applied after.
  Params own;
  Params lock;
  for (const auto& [key, value] : params) (is_lock_param(key) ? lock : own).emplace(key, value);
  const LockParams locks = read_lock_params(lock);
  for (const Entry& e : entries()) {
    if (e.info.name != info.name) continue;
    Generated g = e.draw(ParamReader(e.info, own), seed);
    if (locks.locks > 0) {
      add_lock_channels(g.set, locks, seed);
      g.set = finish(std::move(g.set), info.name);  // validated again, with the channels
    }
    return g;
  }
  return {};  // unreachable: find_family found it in the same table
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) noexcept {
  // The public name (rtpar/tools/generate.hpp) of core's derivation, which the simulator and the
  // experiment runner share with the generators.
  return rtpar::derive_seed(seed, index);
}

}  // namespace rtpar::gen
