// error.cpp — the `error` directive at execution time (OpenMP 5.1 §2.5.4): GOMP_warning prints
// the message and continues, GOMP_error prints it and ends the program with status 1, in
// libgomp's words so that scripts matching them keep working.
#include <cstdio>
#include <cstdlib>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// report prints "\nlibgomp: PREFIXerror directive encountered[: MSG]\n" (msg may lack a NUL:
// msglen is its length, or (size_t)-1 for a NUL-terminated string): libgomp's prefix and line
// breaks, since programs and test harnesses match them.
void report(const char* prefix, const char* msg, std::size_t msglen) {
  std::fflush(stdout);
  if (msg == nullptr) {
    std::fprintf(stderr, "\nlibgomp: %serror directive encountered\n", prefix);
  } else if (msglen == static_cast<std::size_t>(-1)) {
    std::fprintf(stderr, "\nlibgomp: %serror directive encountered: %s\n", prefix, msg);
  } else {
    std::fprintf(stderr, "\nlibgomp: %serror directive encountered: %.*s\n", prefix,
                 static_cast<int>(msglen), msg);
  }
}

}  // namespace

// GOMP_warning is `error severity(warning)`: report and continue.
RTPAR_OMP_EXPORT void GOMP_warning(const char* msg, std::size_t msglen) { report("", msg, msglen); }

// GOMP_error is `error severity(fatal)`: report and exit with status 1.
RTPAR_OMP_EXPORT void GOMP_error(const char* msg, std::size_t msglen) {
  report("fatal error: ", msg, msglen);
  std::exit(EXIT_FAILURE);
}

}  // namespace rtpar::omp
