// fuzz_input.hpp — what every fuzz target shares: an in-memory file for the readers that take a
// path, and the one rule for what a reader may throw.
//
// The readers under test report bad input by throwing InputError (the CLI turns it into exit
// status 2). Anything else escaping a reader (std::out_of_range, nlohmann::json::exception, ...)
// reaches the CLI's last-resort handler as "internal error" (exit 70): a bug. expect_input_error
// runs a reader, accepts InputError, and aborts with the exception's message on anything else,
// so libFuzzer records the input as a crash.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "rtpar/error.hpp"

namespace rtpar::fuzz {

// MemFile is an anonymous in-memory file (memfd) reachable by path as /proc/self/fd/N, so that
// readers taking a file name read the fuzzer's bytes without touching the disk.
class MemFile {
 public:
  // MemFile creates the file; name appears only in /proc listings.
  explicit MemFile(const char* name) : fd_(::memfd_create(name, MFD_CLOEXEC)) {
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  ~MemFile() { ::close(fd_); }

  // assign replaces the file's contents with bytes.
  void assign(std::string_view bytes) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                                 static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
  }

  // path is the name the readers open.
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

// as_text views libFuzzer's input as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// fail_finding reports a broken property of a reader and aborts (libFuzzer saves the input).
[[noreturn]] inline void fail_finding(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::abort();
}

// expect_input_error runs read(); it returns true when read returned, false when it threw
// InputError, and aborts on any other exception (see the file comment).
template <typename Read>
bool expect_input_error(Read&& read) {
  try {
    read();
    return true;
  } catch (const InputError&) {
    return false;
  } catch (const std::exception& e) {
    fail_finding(std::string("an exception other than InputError escaped the reader: ") +
                 typeid(e).name() + ": " + e.what());
  } catch (...) {
    fail_finding("a non-std exception escaped the reader");
  }
}

}  // namespace rtpar::fuzz
