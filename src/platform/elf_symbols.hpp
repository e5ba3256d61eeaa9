// elf_symbols.hpp — reading a shared object's exported symbols without loading it.
//
// `rtpar check` and `rtpar simulate` must run no code named by a task-set file, so a `lib:` kernel
// is resolved by reading the ELF file's dynamic symbol table (.dynsym, found through the section
// headers) instead of dlopen, which would run the library's constructors. The input is untrusted:
// every offset, size and index is checked against the image before it is used.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rtpar::platform {

// ElfError is a file that is not a readable ELF shared object of this machine; what() says why.
class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ElfSymbol is one defined, exported symbol of the dynamic symbol table.
struct ElfSymbol {
  std::string name;
  bool function = false;  // STT_FUNC or STT_GNU_IFUNC (code), false for data and others
};

// find_dynamic_symbol looks `name` up among the defined global or weak symbols of the dynamic
// symbol table of `image`, a whole ELF file in memory. Returns nullopt when the object does not
// export it. Throws ElfError when the image is not a 64-bit little-endian shared object for this
// machine's architecture, or is truncated or inconsistent anywhere it is read.
std::optional<ElfSymbol> find_dynamic_symbol(std::span<const std::byte> image,
                                             std::string_view name);

// find_dynamic_symbol_in_file is find_dynamic_symbol on the file at path (read, never mapped
// executable). Throws ElfError when the file cannot be opened or read (with the system's reason),
// is not a regular file, or is larger than kMaxElfBytes.
std::optional<ElfSymbol> find_dynamic_symbol_in_file(const std::string& path,
                                                     std::string_view name);

// needed_libraries lists the DT_NEEDED entries of `image`'s dynamic section (the shared objects
// it was linked against, e.g. "libgomp.so.1"), in order; empty without section headers or a
// dynamic section. Same checks and ElfError as find_dynamic_symbol.
std::vector<std::string> needed_libraries(std::span<const std::byte> image);

// needed_libraries_in_file is needed_libraries on the file at path (read as
// find_dynamic_symbol_in_file reads it).
std::vector<std::string> needed_libraries_in_file(const std::string& path);

// kMaxElfBytes bounds the file read into memory: a kernel library is far smaller.
inline constexpr std::size_t kMaxElfBytes = std::size_t{1} << 30;

}  // namespace rtpar::platform
