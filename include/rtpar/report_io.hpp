// rtpar/report_io.hpp — moved to rtpar/tools/report_io.hpp; this forwarding header keeps old
// includes working.
#pragma once

#include "rtpar/tools/report_io.hpp"
