// test_channel_origin.cpp — origin stamps (ByteChannel::write(src, origin_ns), ReadResult::
// origin_ns), which carry a cause-effect chain's release time with the data
// (docs/analysis.md, "Cause-effect chains"): every kind returns the stamp of the value it
// returns — 0 for the initial value and unstamped writes — and, under a concurrent writer, a
// complete value never comes with another write's stamp (the stamp has the payload's guard). A
// chain's middle task (Endpoint::continue_chain, rtpar/channel_set.hpp) stamps its output with
// the origin it read from the previous link, not with its own release.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "rtpar/channel.hpp"
#include "rtpar/channel_set.hpp"
#include "rtpar/taskset_file.hpp"
#include "rtpar/tools/planners.hpp"
#include "runtime/channel/test_channel_payload.hpp"

using rtpar::ChannelKind;

namespace {

// kOriginKinds is every channel kind.
const ChannelKind kOriginKinds[] = {ChannelKind::retry, ChannelKind::double_buffer,
                                    ChannelKind::latest, ChannelKind::lock};

}  // namespace

TEST_CASE("channel origin: the initial value has origin 0, each write's stamp comes back") {
  for (ChannelKind kind : kOriginKinds) {
    INFO("kind=", std::string(rtpar::to_string(kind)));
    auto channel = make_channel(chtest::config(kind, 24, 1));
    auto reader = channel->reader(0);
    std::vector<unsigned char> buf(24, 0);
    rtpar::ReadResult r = reader.read(buf.data());
    CHECK(r.ok);
    CHECK(r.origin_ns == 0);
    for (std::int64_t w = 1; w <= 3; ++w) {
      chtest::fill(buf.data(), buf.size(), static_cast<std::uint32_t>(w));
      channel->write(buf.data(), 1'000'000 * w);
      r = reader.read(buf.data());
      CHECK(r.ok);
      CHECK(r.origin_ns == 1'000'000 * w);
    }
    channel->write(buf.data());  // unstamped
    r = reader.read(buf.data());
    CHECK(r.origin_ns == 0);
  }
}

TEST_CASE("channel origin: a complete value never carries another write's stamp") {
  for (ChannelKind kind : kOriginKinds) {
    INFO("kind=", std::string(rtpar::to_string(kind)));
    auto channel = make_channel(chtest::config(kind, 256, 1));
    auto reader = channel->reader(0);
    constexpr std::uint32_t kWrites = 20000;
    std::atomic<bool> done{false};  // relaxed is enough: only ends the reader's loop
    std::thread writer([&] {
      std::vector<unsigned char> src(256);
      for (std::uint32_t w = 1; w <= kWrites; ++w) {
        chtest::fill(src.data(), src.size(), w);
        channel->write(src.data(), static_cast<std::int64_t>(w));  // stamp = the write's number
      }
      done.store(true, std::memory_order_relaxed);
    });
    std::int64_t reads = 0;
    std::int64_t mismatched = 0;
    std::vector<unsigned char> dst(256);
    while (!done.load(std::memory_order_relaxed) || reads == 0) {
      const rtpar::ReadResult r = reader.read(dst.data());
      if (!r.ok) continue;
      const std::int64_t seq = chtest::decode(dst.data(), dst.size());
      if (seq < 0) continue;  // torn (double_buffer lapped twice: its documented flaw)
      ++reads;
      if (r.origin_ns != seq) ++mismatched;
    }
    writer.join();
    CHECK(reads > 0);
    // double_buffer: a reader lapped twice during one copy may mix two writes (its documented
    // flaw, see test_channel_api.cpp); the others never do.
    if (kind != ChannelKind::double_buffer) CHECK(mismatched == 0);
  }
}

TEST_CASE("channel counts: writes and each reader index's reads, failures and tries") {
  for (ChannelKind kind : kOriginKinds) {
    INFO("kind=", std::string(rtpar::to_string(kind)));
    auto channel = make_channel(chtest::config(kind, 16, 2));
    auto first = channel->reader(0);
    auto second = channel->reader(1);
    std::vector<unsigned char> buf(16, 1);
    CHECK(channel->writes() == 0);
    channel->write(buf.data());
    channel->write(buf.data(), 5);
    for (int k = 0; k < 3; ++k) (void)first.read(buf.data());
    CHECK(channel->writes() == 2);
    const rtpar::ChannelReadCounts a = channel->read_counts(0);
    CHECK(a.reads == 3);
    CHECK(a.failed == 0);
    CHECK(a.tries == 3);  // uncontended: one attempt each
    CHECK(channel->read_counts(1).reads == 0);
    (void)second.read(buf.data());
    CHECK(channel->read_counts(1).reads == 1);
    CHECK(channel->read_counts(2).reads == 0);  // out of range: nothing
  }
}

namespace {

// origin_set is tasks a, b, c on core 0 with channels ab (a → b), bc and own (b → c), all of
// `kind`, and `chain` appended (a [[chain]] table, or nothing).
rtpar::TaskSet origin_set(ChannelKind kind, const std::string& chain) {
  const std::string k = std::string(rtpar::to_string(kind));
  const std::string hold = kind == ChannelKind::lock ? "hold = \"10us\"\n" : "";
  std::string text = "[system]\ncores = [0]\n";
  for (const char* t : {"a", "b", "c"}) {
    text += std::string("[[task]]\nname = \"") + t + "\"\nperiod = \"5ms\"\nwork = \"100us\"\n";
  }
  for (const char* ch : {"ab", "bc", "own"}) {
    const std::string name = ch;
    text += "[[channel]]\nname = \"" + name + "\"\nkind = \"" + k + "\"\nsize = 8\n" + hold +
            "writer = \"" + (name == "ab" ? "a" : "b") + "\"\nreaders = [\"" +
            (name == "ab" ? "b" : "c") + "\"]\n";
  }
  return rtpar::parse_taskset(text + chain, "origin.toml");
}

}  // namespace

TEST_CASE("chain continuation: a middle task forwards the origin it read, not its release") {
  for (ChannelKind kind : kOriginKinds) {
    INFO("kind=", std::string(rtpar::to_string(kind)));
    const rtpar::TaskSet set = origin_set(kind, "");
    const rtpar::Plan plan = rtpar::plan_taskset(set);
    rtpar::ChannelSet channels(set, plan, /*best_effort=*/true);
    rtpar::Endpoint& a = channels.endpoint("a");
    rtpar::Endpoint& b = channels.endpoint("b");
    rtpar::Endpoint& c = channels.endpoint("c");
    // Only the chain kinds get a [[chain]]; the stamping itself is the same for every kind.
    REQUIRE(b.continue_chain("bc", "ab"));
    CHECK_FALSE(b.continue_chain("bc", "nope"));  // not one of b's inputs
    const std::uint64_t value = 7;
    std::uint64_t got = 0;
    a.begin_job(100);
    a.write("ab", value);
    b.begin_job(250);
    REQUIRE(b.read("ab", got).ok);
    CHECK(b.input_origin(b.read_index("ab")) == 100);
    b.write("bc", got);
    b.write("own", got);  // continues nothing: b's own release
    rtpar::ReadResult r = c.read("bc", got);
    CHECK(r.ok);
    CHECK(got == 7);
    CHECK(r.origin_ns == 100);
    r = c.read("own", got);
    CHECK(r.origin_ns == 250);
    // The next job of b forwards what it reads then; until it reads, the last origin it read.
    a.begin_job(300);
    a.write("ab", value);
    b.begin_job(400);
    b.write("bc", got);
    CHECK(c.read("bc", got).origin_ns == 100);
    REQUIRE(b.read("ab", got).ok);
    b.write("bc", got);
    CHECK(c.read("bc", got).origin_ns == 300);
  }
}

TEST_CASE("chain continuation: a [[chain]] wires its middle tasks and traces its last input") {
  for (ChannelKind kind : {ChannelKind::latest, ChannelKind::double_buffer}) {
    INFO("kind=", std::string(rtpar::to_string(kind)));
    const rtpar::TaskSet set =
        origin_set(kind, "[[chain]]\nname = \"abc\"\ntasks = [\"a\", \"b\", \"c\"]\n");
    rtpar::ChannelSet channels(set, rtpar::plan_taskset(set), /*best_effort=*/true);
    rtpar::Endpoint& a = channels.endpoint("a");
    rtpar::Endpoint& b = channels.endpoint("b");
    rtpar::Endpoint& c = channels.endpoint("c");
    REQUIRE(c.traced_inputs().size() == 1);
    CHECK(c.read_name(c.traced_inputs()[0]) == "bc");
    std::uint64_t v = 1;
    a.begin_job(1'000);
    a.write("ab", v);
    b.begin_job(2'000);
    REQUIRE(b.read("ab", v).ok);
    b.write("bc", v);
    b.write("own", v);
    REQUIRE(c.read("bc", v).ok);
    CHECK(c.input_origin(c.traced_inputs()[0]) == 1'000);
    CHECK(c.read("own", v).origin_ns == 2'000);
  }
}
