// test_edf_band_sections.cpp — an EDF-band thread inside an MSRP section
// (runtime/executor/edf_band.hpp, runtime/channel/nonpreemptive_hook.hpp): re-ranking its core
// leaves it at the section's priority, so the section stays non-preemptive as the band's
// demand test assumes (analysis/bounds/edf_blocking.hpp), and leaving the section ranks it again.
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "rtpar/channel.hpp"
#include "runtime/channel/nonpreemptive_hook.hpp"
#include "runtime/channel/sched_probe.hpp"
#include "runtime/channel/test_channel_payload.hpp"
#include "runtime/executor/edf_band.hpp"
#include "support/skip.hpp"

using rtpar::detail::EdfBand;

TEST_CASE("edf band: re-ranking keeps a thread in an MSRP section at the section's priority") {
  EdfBand band;
  const int mine = band.add_slot(0);
  const int other = band.add_slot(0);  // never given a tid: ranked, never set
  auto config = chtest::config(rtpar::ChannelKind::lock, 8, 1);
  config.name = "state";
  config.protocol = rtpar::LockProtocol::msrp;
  config.nonpreemptive_priority = EdfBand::kEdfDispatch;
  config.user_tasks = {0, 1};
  auto channel = make_channel(config);
  int ranked = -1, inside = -1, after = -1, unhooked = -1;
  const bool ran = chtest::run_fifo(10, [&] {
    band.set_tid(mine, static_cast<int>(::gettid()));
    rtpar::detail::set_nonpreemptive_hook(band.nonpreemptive_hook(mine));
    band.activate(mine, 1000);  // alone: rank 0
    ranked = chtest::kernel_priority();
    {
      rtpar::ChannelHold hold(*channel);
      band.activate(other, 500);           // an earlier deadline: our rank drops to 1 (88) ...
      inside = chtest::kernel_priority();  // ... but not inside the section
    }
    after = chtest::kernel_priority();  // ranked again on leaving it
    // Without the hook the same re-rank lowers the thread in the middle of its section.
    rtpar::detail::set_nonpreemptive_hook(nullptr);
    {
      rtpar::ChannelHold hold(*channel);
      band.activate(other, 400);
      unhooked = chtest::kernel_priority();
    }
  });
  if (!ran) RTPAR_SKIP("SCHED_FIFO refused (run as root or with CAP_SYS_NICE)");
  CHECK(ranked == EdfBand::kEdfTop);
  CHECK(inside == EdfBand::kEdfDispatch);
  CHECK(after == EdfBand::kEdfTop - 1);
  CHECK(unhooked == EdfBand::kEdfTop - 1);
}
