// test_channel_stress.cpp — one writer and several readers hammering a channel with checksummed
// payloads (the paper's 64x64 int matrix of §5.3 and 1 MB image of §5.4): retry never reports a
// torn success, latest and lock never return a torn value. Bounded by write count and time, and
// short enough for the TSan build (every payload word is an instrumented atomic there).
#include <doctest/doctest.h>

#include <string>

#include "rtpar/channel.hpp"
#include "runtime/channel/test_channel_payload.hpp"

using rtpar::ChannelKind;
using namespace std::chrono_literals;

namespace {

// run_stress stresses one kind and checks the no-torn-read and bookkeeping properties.
void run_stress(ChannelKind kind, std::size_t size, int readers, long max_writes,
                std::chrono::milliseconds budget) {
  auto channel = make_channel(chtest::config(kind, size, readers, 2));
  const chtest::StressStats s = chtest::stress(*channel, readers, max_writes, budget);
  INFO("kind=", std::string(rtpar::to_string(kind)), " size=", size, " writes=", s.writes,
       " reads=", s.reads, " ok=", s.ok, " failed=", s.failed);
  CHECK(s.writes > 0);
  CHECK(s.ok >= readers);     // at least the final reads, after the writer stopped
  CHECK(s.torn_ok == 0);      // a read reported ok is a whole write, the one its sequence names
  CHECK(s.over_tries == 0);   // never more than numtries attempts
  CHECK(s.bad_failure == 0);  // a failure means numtries attempts were made
  CHECK(s.non_monotone == 0);
  CHECK(s.final_wrong == 0);  // once the writer stops, every reader gets its last write
  if (kind != ChannelKind::retry) CHECK(s.failed == 0);
}

}  // namespace

TEST_CASE("channel stress: 64x64 matrix, one writer, three readers: no torn read") {
  for (ChannelKind kind : {ChannelKind::retry, ChannelKind::latest, ChannelKind::lock}) {
    run_stress(kind, sizeof(chtest::Matrix), 3, 4000, 300ms);
  }
}

TEST_CASE("channel stress: 1 MB payload, one writer, two readers: no torn read") {
  for (ChannelKind kind : {ChannelKind::retry, ChannelKind::latest, ChannelKind::lock}) {
    run_stress(kind, std::size_t{1} << 20, 2, 60, 400ms);
  }
}
