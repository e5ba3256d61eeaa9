// machine_env.hpp — the record of the machine a runtime study's rows were measured on.
//
// A runtime study's rows are measurements, so they belong to a machine configuration: the kernel
// (and whether it is PREEMPT_RT), the CPU model and the CPUs the process may use, RT throttling
// (decision O7 of the experiments brief: it decides the points near full utilization) and the
// frequency governor. Each raw file of a runtime study gets one (raw/NAME.env) and merge refuses
// to pool rows of different machines unless told to (`--mix-machines`). The host name is left out
// on purpose: identical nodes of a cluster are one machine for a study.
#pragma once

#include <filesystem>
#include <string>

namespace rtpar::experiment {

// machine_env is this machine's record: `key = value` lines (kernel, preempt_rt, cpu,
// cpus_online, rt_throttling, governor), each value what Linux reports or "unknown".
std::string machine_env();

// env_file is the machine record beside raw file `raw` (raw/all.csv -> raw/all.env).
std::filesystem::path env_file(const std::filesystem::path& raw);

}  // namespace rtpar::experiment
