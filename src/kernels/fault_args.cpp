// fault_args.cpp — the fault-injection args shared by `spin` and `segments` (see builtin.hpp).
#include <string_view>
#include <vector>

#include "kernels/builtin.hpp"

namespace rtpar::kernels {

std::vector<KernelArg> fault_args(const Args& args) {
  // The two go together: one without the other would inject nothing, silently.
  if (args.has("overrun_every") != args.has("overrun_factor")) {
    const std::string_view missing = args.has("overrun_every") ? "overrun_factor" : "overrun_every";
    args.error(nullptr, args.field(missing),
               "overrun_every and overrun_factor go together (every N-th job burns F x its work)");
  }
  std::vector<KernelArg> out;
  if (args.has("overrun_every")) {
    out.push_back({"overrun_every", args.integer("overrun_every", 1, 1'000'000'000)});
    out.push_back({"overrun_factor", args.real_or("overrun_factor", 1.0, 1000.0, 1.0)});
  }
  if (args.has("hang_at_job")) {
    out.push_back({"hang_at_job", args.integer("hang_at_job", 0, 1'000'000'000'000)});
  }
  return out;
}

}  // namespace rtpar::kernels
