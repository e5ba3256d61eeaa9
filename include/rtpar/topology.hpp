// rtpar/topology.hpp — moved to rtpar/tools/topology.hpp; this forwarding header keeps old includes
// working.
#pragma once

#include "rtpar/tools/topology.hpp"
