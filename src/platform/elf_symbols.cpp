// elf_symbols.cpp — see elf_symbols.hpp. Layout from the System V ABI, "Object Files" chapter
// (ELF header, section header table, symbol table, string table), through <elf.h>.
#include "platform/elf_symbols.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <vector>

namespace rtpar::platform {

namespace {

// kHostMachine is the e_machine of objects this process could load (EM_NONE: none supported).
#if defined(__x86_64__)
constexpr std::uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr std::uint16_t kHostMachine = EM_AARCH64;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr std::uint16_t kHostMachine = EM_RISCV;
#elif defined(__powerpc64__)
constexpr std::uint16_t kHostMachine = EM_PPC64;
#else
constexpr std::uint16_t kHostMachine = EM_NONE;
#endif

// in_bounds tells whether [offset, offset + count·size) lies inside an image of `total` bytes,
// without overflowing.
bool in_bounds(std::uint64_t offset, std::uint64_t count, std::uint64_t size, std::size_t total) {
  if (offset > total) return false;
  if (size != 0 && count > (total - offset) / size) return false;
  return true;
}

// read_at copies a T from image at offset (memcpy: the image has no alignment guarantee). The
// caller has checked the bounds.
template <typename T>
T read_at(std::span<const std::byte> image, std::uint64_t offset) {
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

// Section is the part of a section header this reader uses.
struct Section {
  std::uint32_t type;
  std::uint64_t offset;
  std::uint64_t size;
  std::uint32_t link;
  std::uint64_t entsize;
};

// check_header validates the ELF header of image and returns it.
Elf64_Ehdr check_header(std::span<const std::byte> image) {
  if (image.size() < EI_NIDENT || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0) {
    throw ElfError("not an ELF file");
  }
  const auto ident = reinterpret_cast<const unsigned char*>(image.data());
  if (ident[EI_CLASS] != ELFCLASS64) {
    throw ElfError(ident[EI_CLASS] == ELFCLASS32 ? "a 32-bit ELF object (this machine loads 64-bit)"
                                                 : "an ELF object of unknown class");
  }
  if (ident[EI_DATA] != ELFDATA2LSB || std::endian::native != std::endian::little) {
    throw ElfError("not a little-endian ELF object (only 64-bit little-endian objects are read)");
  }
  if (image.size() < sizeof(Elf64_Ehdr)) throw ElfError("truncated ELF header");
  const auto header = read_at<Elf64_Ehdr>(image, 0);
  if (header.e_type != ET_DYN) throw ElfError("not a shared object (ELF type is not ET_DYN)");
  if (kHostMachine == EM_NONE || header.e_machine != kHostMachine) {
    throw ElfError("built for another architecture (ELF machine " +
                   std::to_string(header.e_machine) + ")");
  }
  return header;
}

// section_at reads section header `index`, checking it and its contents against the image.
Section section_at(std::span<const std::byte> image, const Elf64_Ehdr& header,
                   std::uint64_t index) {
  if (index >= header.e_shnum) throw ElfError("section index out of range");
  const auto raw =
      read_at<Elf64_Shdr>(image, header.e_shoff + index * std::uint64_t{header.e_shentsize});
  const Section s{raw.sh_type, raw.sh_offset, raw.sh_size, raw.sh_link, raw.sh_entsize};
  if (s.type != SHT_NOBITS && !in_bounds(s.offset, 1, s.size, image.size())) {
    throw ElfError("section " + std::to_string(index) + " lies outside the file (truncated?)");
  }
  return s;
}

}  // namespace

std::optional<ElfSymbol> find_dynamic_symbol(std::span<const std::byte> image,
                                             std::string_view name) {
  const Elf64_Ehdr header = check_header(image);
  if (header.e_shoff == 0 || header.e_shnum == 0) {
    throw ElfError("no section headers: its symbol table cannot be read without loading it");
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr)) throw ElfError("unexpected section header size");
  if (!in_bounds(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), image.size())) {
    throw ElfError("section header table lies outside the file (truncated?)");
  }

  bool seen_dynsym = false;
  for (std::uint64_t i = 0; i < header.e_shnum; ++i) {
    const Section symtab = section_at(image, header, i);
    if (symtab.type != SHT_DYNSYM) continue;
    seen_dynsym = true;
    if (symtab.entsize != sizeof(Elf64_Sym) || symtab.size % sizeof(Elf64_Sym) != 0) {
      throw ElfError("malformed dynamic symbol table");
    }
    const Section strtab = section_at(image, header, symtab.link);
    if (strtab.type != SHT_STRTAB) throw ElfError("dynamic symbol table has no string table");
    const auto* strings = reinterpret_cast<const char*>(image.data() + strtab.offset);
    const std::uint64_t count = symtab.size / sizeof(Elf64_Sym);
    for (std::uint64_t k = 1; k < count; ++k) {  // entry 0 is the reserved null symbol
      const auto sym = read_at<Elf64_Sym>(image, symtab.offset + k * sizeof(Elf64_Sym));
      if (sym.st_name >= strtab.size) throw ElfError("symbol name outside the string table");
      const std::size_t room = strtab.size - sym.st_name;
      const void* nul = std::memchr(strings + sym.st_name, '\0', room);
      if (nul == nullptr) throw ElfError("unterminated symbol name");
      const std::string_view sym_name(strings + sym.st_name,
                                      static_cast<const char*>(nul) - (strings + sym.st_name));
      if (sym_name != name) continue;
      const unsigned bind = ELF64_ST_BIND(sym.st_info);
      const bool exported = bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE;
      const unsigned visibility = ELF64_ST_VISIBILITY(sym.st_other);
      // An undefined entry is an import (the object uses the name, it does not provide it).
      if (sym.st_shndx == SHN_UNDEF || !exported ||
          (visibility != STV_DEFAULT && visibility != STV_PROTECTED)) {
        continue;
      }
      const unsigned type = ELF64_ST_TYPE(sym.st_info);
      return ElfSymbol{std::string(sym_name), type == STT_FUNC || type == STT_GNU_IFUNC};
    }
  }
  if (!seen_dynsym) throw ElfError("no dynamic symbol table (.dynsym): nothing is exported");
  return std::nullopt;
}

namespace {

// read_elf_file reads the file at path whole (never mapped executable): the checks
// find_dynamic_symbol_in_file documents.
std::vector<std::byte> read_elf_file(const std::string& path) {
  auto system_error = [](const char* what) {
    return ElfError(std::string(what) + ": " +
                    std::error_code(errno, std::generic_category()).message());
  };
  // O_NONBLOCK: opening a FIFO named by the file must not hang `check`.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw system_error("cannot open");
  struct FdGuard {
    int fd;
    ~FdGuard() { ::close(fd); }
  } guard{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw system_error("cannot stat");
  if (!S_ISREG(st.st_mode)) throw ElfError("not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxElfBytes) {
    throw ElfError("larger than " + std::to_string(kMaxElfBytes >> 20) + " MiB");
  }
  std::vector<std::byte> image(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < image.size()) {
    const ssize_t n = ::read(fd, image.data() + done, image.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw system_error("cannot read");
    if (n == 0) break;  // the file shrank: parse what was read (bounds checks catch truncation)
    done += static_cast<std::size_t>(n);
  }
  image.resize(done);
  return image;
}

}  // namespace

std::optional<ElfSymbol> find_dynamic_symbol_in_file(const std::string& path,
                                                     std::string_view name) {
  return find_dynamic_symbol(read_elf_file(path), name);
}

std::vector<std::string> needed_libraries(std::span<const std::byte> image) {
  const Elf64_Ehdr header = check_header(image);
  if (header.e_shoff == 0 || header.e_shnum == 0) return {};
  if (header.e_shentsize != sizeof(Elf64_Shdr)) throw ElfError("unexpected section header size");
  if (!in_bounds(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), image.size())) {
    throw ElfError("section header table lies outside the file (truncated?)");
  }
  std::vector<std::string> out;
  for (std::uint64_t i = 0; i < header.e_shnum; ++i) {
    const Section dynamic = section_at(image, header, i);
    if (dynamic.type != SHT_DYNAMIC) continue;
    if (dynamic.size % sizeof(Elf64_Dyn) != 0) throw ElfError("malformed dynamic section");
    const Section strtab = section_at(image, header, dynamic.link);
    if (strtab.type != SHT_STRTAB) throw ElfError("dynamic section has no string table");
    const auto* strings = reinterpret_cast<const char*>(image.data() + strtab.offset);
    const std::uint64_t count = dynamic.size / sizeof(Elf64_Dyn);
    for (std::uint64_t k = 0; k < count; ++k) {
      const auto dyn = read_at<Elf64_Dyn>(image, dynamic.offset + k * sizeof(Elf64_Dyn));
      if (dyn.d_tag == DT_NULL) break;
      if (dyn.d_tag != DT_NEEDED) continue;
      if (dyn.d_un.d_val >= strtab.size) throw ElfError("DT_NEEDED outside the string table");
      const std::size_t room = strtab.size - dyn.d_un.d_val;
      const void* nul = std::memchr(strings + dyn.d_un.d_val, '\0', room);
      if (nul == nullptr) throw ElfError("unterminated DT_NEEDED name");
      out.emplace_back(strings + dyn.d_un.d_val, static_cast<const char*>(nul));
    }
  }
  return out;
}

std::vector<std::string> needed_libraries_in_file(const std::string& path) {
  return needed_libraries(read_elf_file(path));
}

}  // namespace rtpar::platform
