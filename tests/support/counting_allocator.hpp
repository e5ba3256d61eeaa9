// counting_allocator.hpp — the test suite replaces the global operator new/delete with versions
// that count allocations per thread, so tests can prove that a real-time thread allocated nothing
// between two points (the fast path's "no allocation after start-up" rule).
#pragma once

namespace rtpar::test {

// thread_allocations is the number of operator new calls made so far by the calling thread.
long thread_allocations() noexcept;

}  // namespace rtpar::test
