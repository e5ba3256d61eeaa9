// library.cpp — `kernel = "lib:PATH:SYMBOL"`: task code from a shared object, through the C ABI
// of rtpar/rtpar_kernel.h. The path comes only from the task-set file: a relative path is resolved
// against the file's directory (never through LD_LIBRARY_PATH or the loader's search list). Loading
// the file checks it by its ELF symbol table only; dlopen (which runs its constructors) happens
// when a run starts.
#include <dlfcn.h>

#include <filesystem>
#include <optional>

#include "kernels/builtin.hpp"
#include "platform/elf_symbols.hpp"
#include "rtpar/channel_set.hpp"
#include "rtpar/rtpar_kernel.h"

namespace rtpar::kernels {

namespace {

class LibraryKernel final : public Kernel {
 public:
  LibraryKernel(void* handle, rtpar_kernel_fn fn) : handle_(handle), fn_(fn) {}
  ~LibraryKernel() override {
    // The library stays loaded: task threads may still be unwinding through it at exit, and
    // unloading buys nothing for a process that runs one task set.
    (void)handle_;
  }

  void run(JobContext& job) override {
    const rtpar_job c_job{job.index, job.release_ns, job.team != nullptr ? job.team->size() : 1,
                          job.team, job.channels};
    fn_(&c_job);
  }

 private:
  void* handle_;
  rtpar_kernel_fn fn_;
};

}  // namespace

KernelBuild describe_library(const KernelRequest& request, const Args& args) {
  args.allow_only({});
  const SourceLocation where = args.location(request.where);
  const std::string field = request.field_prefix + ".kernel";
  // "lib:" (C ABI) or "omp:" (the same ABI, OpenMP inside): 4 characters either way.
  const std::string_view prefix = request.name.substr(0, 4);
  const bool openmp = prefix == "omp:";
  const std::string_view spec_text = request.name.substr(4);
  const std::size_t colon = spec_text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec_text.size()) {
    throw InputError(where, field,
                     "expected \"" + std::string(prefix) + "PATH:SYMBOL\", e.g. \"" +
                         std::string(prefix) + "./libcam.so:cam_job\"");
  }
  const std::string written(spec_text.substr(0, colon));
  std::filesystem::path path(written);
  // Taken literally: a relative path (with or without '/', '..' included) is relative to the
  // task-set file's directory, never to the current directory, a search path or LD_LIBRARY_PATH.
  if (path.is_relative()) path = std::filesystem::path(request.file).parent_path() / path;
  KernelSpec spec;
  spec.source = openmp ? KernelSource::openmp : KernelSource::library;
  spec.name = std::string(request.name);
  spec.library = std::filesystem::absolute(path).lexically_normal().string();
  spec.symbol = std::string(spec_text.substr(colon + 1));
  spec.where = where;
  std::optional<platform::ElfSymbol> found;
  try {
    found = platform::find_dynamic_symbol_in_file(spec.library, spec.symbol);
  } catch (const platform::ElfError& e) {
    throw InputError(where, field, written + " (" + spec.library + "): " + e.what());
  }
  if (!found) {
    throw InputError(where, field, written + " has no symbol \"" + spec.symbol + "\"");
  }
  if (!found->function) {
    throw InputError(where, field, written + ": symbol \"" + spec.symbol + "\" is not a function");
  }
  return KernelBuild{std::move(spec), std::nullopt, std::nullopt, {}};
}

LoadedSymbol load_symbol(const KernelSpec& spec) {
  // An absolute path makes dlopen load exactly that file, with no search.
  void* handle = dlopen(spec.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    throw InputError(spec.where, "kernel",
                     std::string("cannot load shared object: ") + (err != nullptr ? err : "?"));
  }
  dlerror();
  void* sym = dlsym(handle, spec.symbol.c_str());
  if (sym == nullptr) {
    const char* err = dlerror();
    throw InputError(spec.where, "kernel",
                     "symbol '" + spec.symbol + "' not found in " + spec.library +
                         (err != nullptr ? std::string(": ") + err : std::string()));
  }
  return LoadedSymbol{handle, sym};
}

std::shared_ptr<Kernel> make_library(const KernelSpec& spec) {
  const LoadedSymbol loaded = load_symbol(spec);
  return std::make_shared<LibraryKernel>(loaded.handle,
                                         reinterpret_cast<rtpar_kernel_fn>(loaded.function));
}

}  // namespace rtpar::kernels

// The C entry points report errors as -1: exceptions must not cross the C ABI.
extern "C" int rtpar_channel_write(const rtpar_job* job, const char* channel, const void* src,
                                   size_t size) {
  auto* endpoint = static_cast<rtpar::Endpoint*>(job->channels);
  if (endpoint == nullptr || channel == nullptr) return -1;
  try {
    endpoint->write_bytes(channel, src, size);  // throws for a wrong channel or size
    return 0;
  } catch (...) {
    return -1;
  }
}

extern "C" int rtpar_channel_read(const rtpar_job* job, const char* channel, void* dst,
                                  size_t size) {
  auto* endpoint = static_cast<rtpar::Endpoint*>(job->channels);
  if (endpoint == nullptr || channel == nullptr) return -1;
  try {
    return endpoint->read_bytes(channel, dst, size).ok ? 1 : 0;
  } catch (...) {
    return -1;
  }
}

extern "C" void rtpar_parallel_for(const rtpar_job* job, int64_t n,
                                   void (*body)(int64_t i, void* ctx), void* ctx) {
  auto* team = static_cast<rtpar::Team*>(job->runtime);
  if (team == nullptr) {
    for (int64_t i = 0; i < n; ++i) body(i, ctx);
    return;
  }
  rtpar::parallel_for_static(*team, 0, n, [&](std::int64_t i) { body(i, ctx); });
}
