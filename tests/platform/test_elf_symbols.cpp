// test_elf_symbols.cpp — reading a shared object's exports without loading it
// (platform/elf_symbols.hpp): a synthetic image built here, each way it can be malformed, every
// truncation and single-byte corruption (an ElfError or an answer, never a read out of bounds),
// and real objects of the build.
#include <doctest/doctest.h>

#include <elf.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "platform/elf_symbols.hpp"

using rtpar::platform::ElfError;
using rtpar::platform::find_dynamic_symbol;
using rtpar::platform::find_dynamic_symbol_in_file;

namespace {

// Image is a minimal 64-bit little-endian shared object for this machine: the ELF header, then
// the dynamic string table, the dynamic symbol table (null, "job" function, "value" object,
// "imported" undefined, "local" local, "hidden" hidden) and three section headers (null, .dynsym,
// .dynstr). Fields are public so that tests can break one at a time.
struct Image {
  Elf64_Ehdr header{};
  std::string strings = std::string("\0job\0value\0imported\0local\0hidden\0", 33);
  std::vector<Elf64_Sym> symbols;
  Elf64_Shdr sections[3]{};

  Image() {
    std::memcpy(header.e_ident, ELFMAG, SELFMAG);
    header.e_ident[EI_CLASS] = ELFCLASS64;
    header.e_ident[EI_DATA] = ELFDATA2LSB;
    header.e_ident[EI_VERSION] = EV_CURRENT;
    header.e_type = ET_DYN;
    header.e_machine = host_machine();
    header.e_version = EV_CURRENT;
    header.e_ehsize = sizeof(Elf64_Ehdr);
    header.e_shentsize = sizeof(Elf64_Shdr);
    header.e_shnum = 3;
    symbols.resize(6);
    auto sym = [&](int i, unsigned name, unsigned bind, unsigned type, unsigned shndx,
                   unsigned vis) {
      symbols[i].st_name = name;
      symbols[i].st_info = ELF64_ST_INFO(bind, type);
      symbols[i].st_shndx = static_cast<Elf64_Section>(shndx);
      symbols[i].st_other = static_cast<unsigned char>(vis);
    };
    sym(1, 1, STB_GLOBAL, STT_FUNC, 7, STV_DEFAULT);     // job
    sym(2, 5, STB_GLOBAL, STT_OBJECT, 7, STV_DEFAULT);   // value
    sym(3, 11, STB_GLOBAL, STT_FUNC, SHN_UNDEF, 0);      // imported
    sym(4, 20, STB_LOCAL, STT_FUNC, 7, STV_DEFAULT);     // local
    sym(5, 26, STB_GLOBAL, STT_FUNC, 7, STV_HIDDEN);     // hidden
  }

  static std::uint16_t host_machine() {
#if defined(__x86_64__)
    return EM_X86_64;
#elif defined(__aarch64__)
    return EM_AARCH64;
#else
    return EM_NONE;
#endif
  }

  // bytes lays the image out; section offsets and sizes are filled in unless `keep` is set.
  [[nodiscard]] std::vector<std::byte> bytes(bool keep = false) {
    const std::size_t str_off = sizeof(Elf64_Ehdr);
    const std::size_t sym_off = str_off + strings.size();
    const std::size_t sh_off = sym_off + symbols.size() * sizeof(Elf64_Sym);
    if (!keep) {
      header.e_shoff = sh_off;
      sections[1].sh_type = SHT_DYNSYM;
      sections[1].sh_offset = sym_off;
      sections[1].sh_size = symbols.size() * sizeof(Elf64_Sym);
      sections[1].sh_entsize = sizeof(Elf64_Sym);
      sections[1].sh_link = 2;
      sections[2].sh_type = SHT_STRTAB;
      sections[2].sh_offset = str_off;
      sections[2].sh_size = strings.size();
    }
    std::vector<std::byte> out(sh_off + sizeof sections);
    std::memcpy(out.data(), &header, sizeof header);
    std::memcpy(out.data() + str_off, strings.data(), strings.size());
    std::memcpy(out.data() + sym_off, symbols.data(), symbols.size() * sizeof(Elf64_Sym));
    std::memcpy(out.data() + sh_off, sections, sizeof sections);
    return out;
  }
};

// refused tells whether find_dynamic_symbol throws ElfError whose message contains part.
bool refused(const std::vector<std::byte>& image, const std::string& part) {
  try {
    (void)find_dynamic_symbol(image, "job");
  } catch (const ElfError& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return true;
    MESSAGE("other error: " << e.what());
    return false;
  }
  return false;
}

}  // namespace

TEST_CASE("elf_symbols: a well-formed image exports its defined global symbols only") {
  Image img;
  const std::vector<std::byte> bytes = img.bytes();
  const auto job = find_dynamic_symbol(bytes, "job");
  REQUIRE(job.has_value());
  CHECK(job->name == "job");
  CHECK(job->function);
  const auto value = find_dynamic_symbol(bytes, "value");
  REQUIRE(value.has_value());
  CHECK_FALSE(value->function);
  CHECK_FALSE(find_dynamic_symbol(bytes, "imported").has_value());  // undefined: an import
  CHECK_FALSE(find_dynamic_symbol(bytes, "local").has_value());
  CHECK_FALSE(find_dynamic_symbol(bytes, "hidden").has_value());
  CHECK_FALSE(find_dynamic_symbol(bytes, "jo").has_value());
  CHECK_FALSE(find_dynamic_symbol(bytes, "").has_value());
}

TEST_CASE("elf_symbols: the header is checked: magic, class, byte order, type, machine") {
  {
    Image img;
    img.header.e_ident[1] = 'X';
    CHECK(refused(img.bytes(), "not an ELF file"));
  }
  {
    Image img;
    img.header.e_ident[EI_CLASS] = ELFCLASS32;
    CHECK(refused(img.bytes(), "32-bit"));
  }
  {
    Image img;
    img.header.e_ident[EI_CLASS] = 7;
    CHECK(refused(img.bytes(), "unknown class"));
  }
  {
    Image img;
    img.header.e_ident[EI_DATA] = ELFDATA2MSB;
    CHECK(refused(img.bytes(), "little-endian"));
  }
  {
    Image img;
    img.header.e_type = ET_EXEC;
    CHECK(refused(img.bytes(), "not a shared object"));
  }
  {
    Image img;
    img.header.e_machine = EM_SPARCV9;
    CHECK(refused(img.bytes(), "another architecture"));
  }
  CHECK(refused({}, "not an ELF file"));
}

TEST_CASE("elf_symbols: section headers and tables are bounds-checked") {
  {
    Image img;
    std::vector<std::byte> b = img.bytes();
    img.header.e_shoff = b.size() - 10;  // the table runs past the end
    CHECK(refused(img.bytes(true), "section header table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.header.e_shoff = UINT64_MAX - 8;  // offset + size overflows
    CHECK(refused(img.bytes(true), "section header table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.header.e_shnum = 0xffff;
    CHECK(refused(img.bytes(true), "section header table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.header.e_shnum = 0;
    CHECK(refused(img.bytes(true), "no section headers"));
  }
  {
    Image img;
    (void)img.bytes();
    img.header.e_shentsize = 32;
    CHECK(refused(img.bytes(true), "section header size"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_size = UINT64_MAX - 7;  // sym table size overflowing offset + size
    CHECK(refused(img.bytes(true), "outside the file"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_offset = UINT64_MAX;
    CHECK(refused(img.bytes(true), "outside the file"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_entsize = 16;
    CHECK(refused(img.bytes(true), "malformed dynamic symbol table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_size -= 1;  // not a whole number of entries
    CHECK(refused(img.bytes(true), "malformed dynamic symbol table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_link = 9;  // no such section
    CHECK(refused(img.bytes(true), "section index out of range"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_link = 1;  // the symbol table itself
    CHECK(refused(img.bytes(true), "no string table"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[1].sh_type = SHT_SYMTAB;  // no .dynsym at all
    CHECK(refused(img.bytes(true), "no dynamic symbol table"));
  }
}

TEST_CASE("elf_symbols: symbol names must lie in the string table and be terminated") {
  {
    Image img;
    img.symbols[1].st_name = 1000;
    CHECK(refused(img.bytes(), "outside the string table"));
  }
  {
    Image img;
    img.strings.pop_back();  // "hidden" loses its terminator at the end of the table
    img.symbols[1].st_name = 26;
    CHECK(refused(img.bytes(), "unterminated"));
  }
  {
    Image img;
    (void)img.bytes();
    img.sections[2].sh_size = 0;
    CHECK(refused(img.bytes(true), "outside the string table"));
  }
}

TEST_CASE("elf_symbols: every truncation and every one-byte corruption is an error or an answer") {
  Image img;
  const std::vector<std::byte> good = img.bytes();
  int errors = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::vector<std::byte> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    try {
      (void)find_dynamic_symbol(cut, "job");
    } catch (const ElfError&) {
      ++errors;
    }
  }
  // The section headers are at the end: no strict prefix holds a readable table.
  CHECK(errors == static_cast<int>(good.size()));
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (const unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::vector<std::byte> bad = good;
      bad[i] = static_cast<std::byte>(v);
      try {
        (void)find_dynamic_symbol(bad, "job");
      } catch (const ElfError&) {
      }
    }
  }
}

TEST_CASE("elf_symbols: real objects of the build, and files that are not objects") {
  const std::string lib = RTPAR_BINARY_DIR "/librtpar.so";
  REQUIRE(std::filesystem::exists(lib));
  const auto write = find_dynamic_symbol_in_file(lib, "rtpar_channel_write");
  REQUIRE(write.has_value());
  CHECK(write->function);
  // librtpar imports dlopen from libc: listed in .dynsym, but undefined.
  CHECK_FALSE(find_dynamic_symbol_in_file(lib, "dlopen").has_value());
  CHECK_FALSE(find_dynamic_symbol_in_file(lib, "no_such_symbol_here").has_value());
  CHECK_THROWS_AS(find_dynamic_symbol_in_file(RTPAR_BINARY_DIR "/no/such/file.so", "f"), ElfError);
  CHECK_THROWS_AS(find_dynamic_symbol_in_file(RTPAR_BINARY_DIR, "f"), ElfError);  // a directory
  CHECK_THROWS_AS(find_dynamic_symbol_in_file(RTPAR_SOURCE_DIR "/tests/data/example.toml", "f"),
                  ElfError);
}
