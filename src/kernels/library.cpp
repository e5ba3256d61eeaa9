// library.cpp — `kernel = "lib:PATH:SYMBOL"`: task code from a shared object, through the C ABI
// of rtpar/rtpar_kernel.h. The path comes only from the task-set file: a relative path is resolved
// against the file's directory (never through LD_LIBRARY_PATH or the loader's search list).
#include <dlfcn.h>

#include <filesystem>

#include "kernels/builtin.hpp"
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

KernelBuild make_library(const KernelRequest& request, const Args& args) {
  args.allow_only({});
  const SourceLocation where = args.location(request.where);
  const std::string field = request.field_prefix + ".kernel";
  const std::string_view spec = request.name.substr(4);  // after "lib:"
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == spec.size()) {
    throw InputError(where, field,
                     "expected \"lib:PATH:SYMBOL\", e.g. \"lib:./libcam.so:cam_job\"");
  }
  std::filesystem::path path(std::string(spec.substr(0, colon)));
  const std::string symbol(spec.substr(colon + 1));
  if (path.is_relative()) {
    path = std::filesystem::path(request.file).parent_path() / path;
  }
  // A path containing '/' makes dlopen load exactly that file, with no search.
  const std::string resolved = std::filesystem::absolute(path).lexically_normal().string();
  void* handle = dlopen(resolved.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw InputError(where, field, std::string("cannot load shared object: ") + dlerror());
  }
  dlerror();
  void* sym = dlsym(handle, symbol.c_str());
  if (sym == nullptr) {
    const char* err = dlerror();
    throw InputError(where, field,
                     "symbol '" + symbol + "' not found in " + resolved +
                         (err != nullptr ? std::string(": ") + err : std::string()));
  }
  return KernelBuild{
      std::make_shared<LibraryKernel>(handle, reinterpret_cast<rtpar_kernel_fn>(sym)), std::nullopt,
      std::nullopt, {}};
}

}  // namespace rtpar::kernels

// The C entry points report errors as -1: exceptions must not cross the C ABI.
extern "C" int rtpar_channel_write(const rtpar_job* job, const char* channel, const void* src,
                                   size_t size) {
  auto* endpoint = static_cast<rtpar::Endpoint*>(job->channels);
  if (endpoint == nullptr || channel == nullptr) return -1;
  try {
    rtpar::ByteChannel& c = endpoint->writer(channel);
    if (c.size_bytes() != size) return -1;
    c.write(src);
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
    rtpar::ChannelReader& r = endpoint->reader(channel);
    if (r.channel()->size_bytes() != size) return -1;
    return r.read(dst).ok ? 1 : 0;
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
