// omprt_wcet_table.hpp — a measured OpenMP-RT Table 1 for the omprt generator: the WCETs that
// `rtpar bench wcet --json` measured on this machine, in place of the paper's (OpenMP-RT §5,
// Table 1), so generated applications are sized by what the kernels really take here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace rtpar::gen {

// WcetPair is one kernel's WCETs in ns: sequential (1 thread) and on 2 threads.
struct WcetPair {
  std::int64_t seq_ns = 0, two_ns = 0;
};

// parse_wcet_table reads the text of a `rtpar bench wcet --json` document and returns, for the
// rows of `runtime`, each kernel's max_ns at 1 and 2 threads, keyed by the kernel's name in lower
// case (the generator's spelling: "nqueens", "taskbench"). Throws std::runtime_error naming what
// is wrong: not JSON, no "wcet" array, a row without its fields, a kernel without both team
// sizes, a WCET not a positive whole number of ns.
std::map<std::string, WcetPair> parse_wcet_table(std::string_view text, const std::string& runtime);

// read_wcet_table is parse_wcet_table of the file at path; throws std::runtime_error also when
// the file cannot be read. (Here rather than in omprt.cpp: <fstream> would bring std::quoted into
// the unity batch of gen/toml_out.cpp.)
std::map<std::string, WcetPair> read_wcet_table(const std::string& path, const std::string& runtime);

}  // namespace rtpar::gen
