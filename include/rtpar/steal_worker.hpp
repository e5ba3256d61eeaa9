// rtpar/steal_worker.hpp — moved to rtpar/detail/steal_worker.hpp; this forwarding header keeps old
// includes working.
#pragma once

#include "rtpar/detail/steal_worker.hpp"
