// rtpar/overhead.hpp — moved to rtpar/tools/overhead.hpp (profiles) and rtpar/tools/calibrate.hpp
// (measuring); this forwarding header keeps old includes working.
#pragma once

#include "rtpar/tools/calibrate.hpp"
#include "rtpar/tools/overhead.hpp"
