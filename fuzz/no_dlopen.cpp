// no_dlopen.cpp — the task-set fuzz target must never load a shared object named by its input.
//
// Parsing a `kernel = "lib:PATH:SYMBOL"` task builds the kernel, and (until `check` stops running
// user code, issue 12 item 4) that means dlopen(PATH): a fuzzed path that names a real library
// would run its constructors inside the fuzzer. This file defines dlopen and dlerror in the fuzz
// executable; the dynamic linker binds librtpar's calls to these definitions before libc's, so
// every lib: kernel fails as "cannot load shared object" and nothing is loaded. Only the fuzz
// targets link this file.
#include <dlfcn.h>

extern "C" {

// dlopen refuses every load (see the file comment).
void* dlopen(const char* /*file*/, int /*mode*/) { return nullptr; }

// dlerror explains the refusal: librtpar puts it in the InputError message.
char* dlerror() {
  static char message[] = "loading shared objects is disabled in the fuzz target";
  return message;
}

}  // extern "C"
