// rtpar/simulate.hpp — moved to rtpar/tools/simulate.hpp; this forwarding header keeps old includes
// working.
#pragma once

#include "rtpar/tools/simulate.hpp"
