#!/usr/bin/env bash
# run.sh SOURCE_DIR BUILD_DIR WORK [SANITIZERS] — install rtpar into a staging prefix, then configure, build
# and run the consumer project against it with find_package(rtpar), and check pkg-config.
set -euo pipefail
src=$1 build=$2 work=$3 sanitize=${4:-}
flags=()
# A sanitized librtpar needs a consumer built with the same runtime.
[ -n "$sanitize" ] && flags=(-DCMAKE_CXX_FLAGS="-fsanitize=$sanitize" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitize")
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/tests/consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_RPATH="$work/prefix/lib" "${flags[@]}" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/consumer"
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs rtpar | grep -q -- -lrtpar
# Exactly one installed library, whatever else is built (the bench programs link into no library).
libs=$(cd "$work/prefix/lib" && ls lib*.so* 2>/dev/null | sed 's/\.so.*//' | sort -u)
[ "$libs" = "librtpar" ] || { echo "installed libraries: $libs (expected librtpar only)"; exit 1; }
# With the benchmarks built, the installed `rtpar bench` finds libexec/rtpar/rtpar-bench, which runs
# (its INSTALL_RPATH reaches librtpar) and lists its subcommands.
if [ -x "$work/prefix/libexec/rtpar/rtpar-bench" ]; then
  help=$(env -u RTPAR_BENCH_DIR "$work/prefix/bin/rtpar" bench --help)
  grep -q "steal" <<<"$help" || { echo "installed rtpar bench --help: $help"; exit 1; }
fi
echo "consumer OK"
