// rtpar/kernel.hpp — moved to rtpar/ext/kernel.hpp; this forwarding header keeps old includes
// working.
#pragma once

#include "rtpar/ext/kernel.hpp"
