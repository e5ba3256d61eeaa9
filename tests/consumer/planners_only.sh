#!/usr/bin/env bash
# planners_only.sh CXX SOURCE_DIR LIBRTPAR WORK [SANITIZERS] — a consumer that includes only rtpar/taskset.hpp
# and rtpar/tools/planners.hpp: its header closure must hold no runtime header (team, channel,
# steal, executor, kernel) and not <atomic>; then it builds against librtpar and plans a set.
set -euo pipefail
cxx=$1 src=$2 lib=$3 work=$4 sanitize=${5:-}
flags=()
# A sanitized librtpar needs a consumer built with the same runtime.
[ -n "$sanitize" ] && flags=(-fsanitize="$sanitize")
rm -rf "$work" && mkdir -p "$work"
"$cxx" -std=c++20 -I"$src/include" -M "$src/tests/consumer/planners_only.cpp" \
  | tr ' \\' '\n\n' | grep -v '^$' > "$work/closure.txt"
bad=$(grep -E 'rtpar/(team|channel|channel_set|steal|executor|system)\.hpp$|rtpar/(ext|detail)/|/atomic$' \
        "$work/closure.txt" || true)
if [ -n "$bad" ]; then
  echo "the planners-only consumer pulls in runtime headers:"; echo "$bad"; exit 1
fi
"$cxx" -std=c++20 "${flags[@]}" -I"$src/include" "$src/tests/consumer/planners_only.cpp" -o "$work/planners_only" \
  "$lib" -Wl,-rpath,"$(dirname "$lib")"
"$work/planners_only"
