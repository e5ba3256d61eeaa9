// env.hpp — helpers shared by the environment parser (env.cpp), the places parser (places.cpp)
// and the environment report (display_env.cpp). Internal to librtpar-omp; implemented by env.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "omp/icv.hpp"

namespace rtpar::omp::env {

// warn_invalid prints libgomp's one-line warning for an environment variable whose value is
// ignored: "rtpar-omp: Invalid value for environment variable NAME: 'VALUE'".
void warn_invalid(const char* name, const char* value) noexcept;

// read_environment builds the process settings from the environment (env.cpp).
Globals read_environment();

// parse_places turns an OMP_PLACES value into places restricted to `allowed` (the process's
// affinity mask, ascending), dropping places left empty. Returns false (out untouched) when the
// value is malformed or no place keeps a CPU (places.cpp).
bool parse_places(const char* text, const std::vector<int>& allowed,
                  std::vector<std::vector<int>>& out);

// binding_requested says whether the environment asks for thread binding, as libgomp reads it:
// OMP_PROC_BIND other than false, or OMP_PLACES without OMP_PROC_BIND=false. Only then do the
// place queries and OMP_DISPLAY_ENV report places (libgomp reports none otherwise).
bool binding_requested(const Globals& g) noexcept;

// bind_initial_thread binds the calling (initial) thread to the place holding its current CPU
// when binding_requested, as libgomp does at start: team members
// are pinned to the places that follow their master's (parallel.cpp).
void bind_initial_thread(const Globals& g) noexcept;

// format_place writes one place as libgomp prints it: runs of consecutive CPUs as "first:len",
// separated by commas, inside braces ("{0:2},{4}").
std::string format_place(const std::vector<int>& place);

}  // namespace rtpar::omp::env
