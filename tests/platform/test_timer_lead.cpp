// test_timer_lead.cpp — TimerLead: a self-timed worker's lead is its configured base plus the
// largest lateness of its last 16 timer wake-ups, never above the cap; early wake-ups are not
// samples.
#include <doctest/doctest.h>

#include <cstdint>

#include "platform/timer_lead.hpp"

using rtpar::detail::TimerLead;

TEST_CASE("timer lead: base plus the worst recent lateness, capped") {
  TimerLead l(20'000, 200'000);
  CHECK(l.lead() == 20'000);  // no sample yet: the base
  l.observe(35'000);
  CHECK(l.lead() == 55'000);
  l.observe(10'000);  // a faster wake-up does not lower the worst of the window
  CHECK(l.lead() == 55'000);
  l.observe(-5'000);  // woken by a fork before the deadline: not a timer sample
  CHECK(l.lead() == 55'000);
  l.observe(500'000);  // a stall: the lead is capped at the window
  CHECK(l.lead() == 200'000);
  // 16 more fast wake-ups push both slow samples out of the window.
  for (int i = 0; i < 16; ++i) l.observe(3'000);
  CHECK(l.lead() == 23'000);
  l.observe(0);
  CHECK(l.lead() == 23'000);
}

TEST_CASE("timer lead: degenerate configurations") {
  TimerLead zero(0, 0);  // no lead, no window: always 0
  zero.observe(40'000);
  CHECK(zero.lead() == 0);
  TimerLead inverted(30'000, 10'000);  // cap below base: the base wins
  CHECK(inverted.lead() == 30'000);
  inverted.observe(40'000);
  CHECK(inverted.lead() == 30'000);
  TimerLead negative(-7, 100);  // a negative base is read as 0
  CHECK(negative.lead() == 0);
  negative.observe(60);
  CHECK(negative.lead() == 60);
}
