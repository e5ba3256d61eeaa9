// omp_library.cpp — `kernel = "omp:PATH:SYMBOL"`: OpenMP task code from a shared object built with
// `gcc -fopenmp` or `clang -fopenmp`, called once per job through the C ABI of
// rtpar/rtpar_kernel.h. Its parallel regions run on rtpar's OpenMP runtime
// (lib/rtpar/omp/libgomp.so.1, and libomp.so.5 beside it for LLVM's ABI), loaded into the process
// before the object so that the object's libgomp.so.1 or libomp.so.5 dependency is rtpar's (the
// dynamic loader matches a needed library by its SONAME against those already loaded). The task's
// master thread is bound to the task (include/rtpar/detail/omp_binding.h): its regions use the
// task's planned cores, priority and wait policy, on workers created before the first release.
#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/builtin.hpp"
#include "platform/omp_library_dir.hpp"
#include "rtpar/detail/omp_binding.h"
#include "rtpar/rtpar_kernel.h"

namespace rtpar::kernels {

namespace {

// OmpRuntime is rtpar's OpenMP runtime loaded into this process, with its binding entry points.
struct OmpRuntime {
  void* handle = nullptr;
  std::string path;
  void* gomp_parallel = nullptr;  // its GOMP_parallel: what a kernel object must resolve to
  // kmpc_fork_call: rtpar's libomp.so.5's __kmpc_fork_call (LLVM's ABI), what a clang-built
  // object must resolve to (nullptr when the directory has no libomp.so.5); kmpc_fork_call_impl:
  // the runtime's own, which a gcc-built object's libgomp.so.1 dependency shows to dlsym.
  void* kmpc_fork_call = nullptr;
  void* kmpc_fork_call_impl = nullptr;
  rtpar_omp_bind_fn bind = nullptr;
  rtpar_omp_worker_tids_fn worker_tids = nullptr;
  rtpar_omp_job_start_fn job_start = nullptr;
  rtpar_omp_job_end_fn job_end = nullptr;
  rtpar_omp_set_unbound_cpus_fn set_unbound_cpus = nullptr;
  // The workers' trace (optional: a runtime without them runs untraced).
  rtpar_omp_trace_fn trace = nullptr;
  rtpar_omp_trace_job_fn trace_job = nullptr;
  rtpar_omp_trace_take_fn trace_take = nullptr;
  rtpar_omp_unbind_fn unbind = nullptr;  // optional: without it the workers outlive the run
};

// omp_runtime loads the runtime once per process (RTLD_GLOBAL: OpenMP code loaded later, and its
// dependencies, see this copy), or throws InputError at `where`.
const OmpRuntime& omp_runtime(const SourceLocation& where) {
  static std::mutex mutex;
  static OmpRuntime runtime;
  const std::lock_guard<std::mutex> lock(mutex);
  if (runtime.handle != nullptr) return runtime;
  const auto dir = platform::find_omp_library_dir();
  if (!dir) {
    throw InputError(where, "kernel",
                     "omp: kernels run on rtpar's OpenMP runtime (lib/rtpar/omp/libgomp.so.1), "
                     "which was not found beside librtpar or this program; build it or set "
                     "RTPAR_OMP_DIR");
  }
  const std::string path = (*dir / "libgomp.so.1").string();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    throw InputError(where, "kernel",
                     "cannot load rtpar's OpenMP runtime " + path + ": " + (err ? err : "?"));
  }
  OmpRuntime r;
  r.handle = handle;
  r.path = path;
  // LLVM's ABI: rtpar's libomp.so.5 forwards to the runtime just loaded (holding no state), so a
  // clang-built object's regions reach the same runtime and binding. Without it such an object
  // would load LLVM's own libomp, which make_omp_library refuses.
  const std::string llvm_path = (*dir / "libomp.so.5").string();
  if (access(llvm_path.c_str(), R_OK) == 0) {
    if (void* llvm = dlopen(llvm_path.c_str(), RTLD_NOW | RTLD_GLOBAL); llvm != nullptr) {
      r.kmpc_fork_call = dlsym(llvm, "__kmpc_fork_call");
    }
  }
  r.gomp_parallel = dlsym(handle, "GOMP_parallel");
  r.kmpc_fork_call_impl = dlsym(handle, "__kmpc_fork_call");
  r.bind = reinterpret_cast<rtpar_omp_bind_fn>(dlsym(handle, "rtpar_omp_bind"));
  r.worker_tids =
      reinterpret_cast<rtpar_omp_worker_tids_fn>(dlsym(handle, "rtpar_omp_worker_tids"));
  r.job_start = reinterpret_cast<rtpar_omp_job_start_fn>(dlsym(handle, "rtpar_omp_job_start"));
  r.job_end = reinterpret_cast<rtpar_omp_job_end_fn>(dlsym(handle, "rtpar_omp_job_end"));
  r.set_unbound_cpus =
      reinterpret_cast<rtpar_omp_set_unbound_cpus_fn>(dlsym(handle, "rtpar_omp_set_unbound_cpus"));
  r.trace = reinterpret_cast<rtpar_omp_trace_fn>(dlsym(handle, "rtpar_omp_trace"));
  r.trace_job = reinterpret_cast<rtpar_omp_trace_job_fn>(dlsym(handle, "rtpar_omp_trace_job"));
  r.trace_take = reinterpret_cast<rtpar_omp_trace_take_fn>(dlsym(handle, "rtpar_omp_trace_take"));
  r.unbind = reinterpret_cast<rtpar_omp_unbind_fn>(dlsym(handle, "rtpar_omp_unbind"));
  if (r.gomp_parallel == nullptr || r.bind == nullptr || r.worker_tids == nullptr ||
      r.set_unbound_cpus == nullptr || r.job_start == nullptr || r.job_end == nullptr) {
    throw InputError(where, "kernel",
                     path +
                         " is not rtpar's OpenMP runtime (it lacks rtpar_omp_bind): "
                         "RTPAR_OMP_DIR points elsewhere?");
  }
  runtime = r;
  return runtime;
}

// member_hooks_of is `hooks` as rtpar_omp_bind's C hooks (the runtime calls them on its workers).
rtpar_omp_member_hooks member_hooks_of(MemberJobHooks* hooks) {
  rtpar_omp_member_hooks c{};
  c.ctx = hooks;
  c.started = [](void* ctx, std::int32_t rank) {
    static_cast<MemberJobHooks*>(ctx)->started(rank);
  };
  c.job_begin = [](void* ctx, std::int32_t rank) {
    static_cast<MemberJobHooks*>(ctx)->job_begin(rank);
  };
  c.job_end = [](void* ctx, std::int32_t rank) {
    static_cast<MemberJobHooks*>(ctx)->job_end(rank);
  };
  c.demoted = [](void* ctx, std::int32_t rank) -> std::int32_t {
    return static_cast<MemberJobHooks*>(ctx)->demoted(rank) ? 1 : 0;
  };
  c.exiting = [](void* ctx, std::int32_t rank) {
    static_cast<MemberJobHooks*>(ctx)->exiting(rank);
  };
  return c;
}

// OmpLibraryKernel runs the object's function once per job on the bound master thread.
class OmpLibraryKernel final : public Kernel {
 public:
  OmpLibraryKernel(const OmpRuntime& runtime, rtpar_kernel_fn fn, SourceLocation where)
      : runtime_(runtime), fn_(fn), where_(std::move(where)) {}

  void prepare(const KernelSetup& setup) override { threads_ = setup.threads; }

  [[nodiscard]] bool owns_threads() const override { return true; }

  void start_master(const KernelSetup& setup) override {
    std::vector<std::int32_t> cpus(setup.cpus.begin(), setup.cpus.end());
    if (cpus.empty()) cpus.push_back(-1);
    rtpar_omp_binding binding{};
    binding.version = RTPAR_OMP_BINDING_VERSION;
    binding.ncpus = static_cast<std::int32_t>(cpus.size());
    binding.cpus = cpus.data();
    binding.wait = static_cast<std::int32_t>(setup.wait.kind);
    binding.spin_ns = setup.wait.spin_ns.count();
    if (setup.member_hooks != nullptr) {
      hooks_ = member_hooks_of(setup.member_hooks);
      binding.hooks = &hooks_;
    }
    std::array<char, 256> err{};
    handle_ = runtime_.bind(&binding, err.data(), err.size());
    if (handle_ == nullptr) throw InputError(where_, "kernel", err.data());
    threads_ = binding.ncpus;
    cpus_ = std::move(cpus);
    traced_ = setup.trace_jobs > 0 && runtime_.trace != nullptr && runtime_.trace_job != nullptr &&
              runtime_.trace_take != nullptr && runtime_.trace(handle_, setup.trace_jobs) == 0;
  }

  void job_started(std::int64_t next_release_ns) noexcept override {
    if (handle_ != nullptr) runtime_.job_start(handle_, next_release_ns);
  }

  void job_finished() noexcept override {
    if (handle_ != nullptr) runtime_.job_end(handle_);
  }

  [[nodiscard]] std::vector<ThreadTrack> worker_tracks() override {
    std::vector<ThreadTrack> tracks;
    if (!traced_) return tracks;
    for (std::int32_t rank = 1; rank < threads_; ++rank) {
      ThreadTrack track;
      std::int32_t tid = 0;
      const std::int64_t n = runtime_.trace_take(handle_, rank, nullptr, 0, nullptr, nullptr);
      std::vector<rtpar_omp_slice> slices(static_cast<std::size_t>(n));
      const std::int64_t got =
          runtime_.trace_take(handle_, rank, slices.data(), n, &track.dropped, &tid);
      track.tid = tid;
      track.cpu = static_cast<std::size_t>(rank) < cpus_.size() ? cpus_[rank] : -1;
      track.role = "omp worker " + std::to_string(rank);
      for (std::int64_t i = 0; i < std::min(n, got); ++i) {
        const rtpar_omp_slice& s = slices[static_cast<std::size_t>(i)];
        track.slices.push_back(
            ThreadSlice{s.job, s.start_ns, s.end_ns, -1, ThreadSliceKind::share});
      }
      tracks.push_back(std::move(track));
    }
    return tracks;
  }

  void stop_workers() noexcept override {
    if (handle_ != nullptr && runtime_.unbind != nullptr) runtime_.unbind(handle_);
    handle_ = nullptr;
  }

  [[nodiscard]] std::vector<int> worker_tids() const override {
    if (handle_ == nullptr) return {};
    const std::int32_t n = runtime_.worker_tids(handle_, nullptr, 0);
    std::vector<std::int32_t> tids(static_cast<std::size_t>(n));
    const std::int32_t got = runtime_.worker_tids(handle_, tids.data(), n);
    return {tids.begin(), tids.begin() + std::min(n, got)};
  }

  void run(JobContext& job) override {
    // runtime = nullptr: rtpar_parallel_for runs serially here; the job's parallelism is OpenMP.
    const rtpar_job c_job{job.index, job.release_ns, threads_, nullptr, job.channels};
    if (traced_) runtime_.trace_job(handle_, job.index);
    fn_(&c_job);
  }

 private:
  const OmpRuntime& runtime_;
  rtpar_kernel_fn fn_;
  rtpar_omp_member_hooks hooks_{};  // setup.member_hooks in C, when given (start_master)
  SourceLocation where_;
  int threads_ = 1;
  void* handle_ = nullptr;          // the bound master (rtpar_omp_bind), null before start_master
  std::vector<std::int32_t> cpus_;  // the CPU of each member (start_master)
  bool traced_ = false;             // the runtime records the workers' shares (rtpar_omp_trace)
};

}  // namespace

std::shared_ptr<Kernel> make_omp_library(const KernelSpec& spec) {
  const OmpRuntime& runtime = omp_runtime(spec.where);
  const LoadedSymbol loaded = load_symbol(spec);
  // The object's OpenMP calls must reach rtpar's runtime: an object linked against another one
  // (clang's libomp.so, or a libgomp loaded before rtpar's) would run its regions on threads
  // nobody planned.
  // Both ABIs are checked: GCC's entry (which LLVM's libomp exports too) and LLVM's.
  struct Entry {
    const char* name;
    void* ours;
    void* also_ours;
  };
  const Entry entries[] = {
      {"GOMP_parallel", runtime.gomp_parallel, runtime.gomp_parallel},
      {"__kmpc_fork_call", runtime.kmpc_fork_call, runtime.kmpc_fork_call_impl}};
  for (const Entry& e : entries) {
    dlerror();
    void* theirs = dlsym(loaded.handle, e.name);
    if (theirs == nullptr || theirs == e.ours || theirs == e.also_ours) continue;
    Dl_info info{};
    const bool named = dladdr(theirs, &info) != 0 && info.dli_fname != nullptr;
    throw InputError(spec.where, "kernel",
                     spec.library + " uses another OpenMP runtime (" +
                         (named ? std::string(info.dli_fname) : std::string("unknown")) +
                         ") than rtpar's " + runtime.path +
                         "; build it with gcc -fopenmp or clang -fopenmp (it must need "
                         "libgomp.so.1 or libomp.so.5, found in rtpar's runtime directory)");
  }
  return std::make_shared<OmpLibraryKernel>(
      runtime, reinterpret_cast<rtpar_kernel_fn>(loaded.function), spec.where);
}

void restrict_unbound_openmp(const std::vector<int>& cpus) {
  const OmpRuntime& runtime = omp_runtime(SourceLocation{"<system>", 0, 0});
  const std::vector<std::int32_t> list(cpus.begin(), cpus.end());
  // Called once per process in practice; a second call (a second run in one process) keeps the
  // first list, which is the same system's.
  (void)runtime.set_unbound_cpus(list.data(), static_cast<std::int32_t>(list.size()));
}

}  // namespace rtpar::kernels
