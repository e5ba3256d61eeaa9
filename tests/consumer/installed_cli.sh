#!/usr/bin/env bash
# installed_cli.sh CASE SOURCE_DIR BUILD_DIR WORK CC — the installed `rtpar`, away from the build
# tree: `prefix` installs with `cmake --install` into a scratch DESTDIR under a prefix; `deb`
# builds the Debian package with CPack and unpacks it into a scratch root. Either way the
# installed files are all there (command, library, headers, OpenMP runtime, completions, man
# page), the installed `rtpar check` admits an example, and `rtpar omp` runs a `gcc -fopenmp`
# program on the installed runtime (lib/rtpar/omp/libgomp.so.1 beside the installed library).
# SANITIZE (optional 6th argument) is the build's RTPAR_SANITIZE: in a sanitizer build the
# installed runtime is instrumented and an uninstrumented program cannot load it (the sanitizer
# runtime must come first), so that last part is skipped there with a message.
set -uo pipefail
case_name=$1 src=$2 build=$3 work=$4 cc=$5 sanitize=${6:-}
fail() { echo "FAIL [install.$case_name]: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

case $case_name in
prefix)
  root=$work/root/opt/rtpar-test
  DESTDIR=$work/root cmake --install "$build" --prefix /opt/rtpar-test >install.log 2>&1 ||
    fail "cmake --install: $(tail -5 install.log)"
  libdir=lib zsh_dir=share/zsh/site-functions
  ;;
deb)
  cpack -G DEB -B "$work/pkg" --config "$build/CPackConfig.cmake" >cpack.log 2>&1 ||
    fail "cpack: $(tail -20 cpack.log)"
  deb=$(ls "$work"/pkg/rtpar_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no .deb in $work/pkg: $(ls "$work/pkg")"
  [ "$(dpkg-deb -f "$deb" Package)" = rtpar ] || fail "package name"
  depends=$(dpkg-deb -f "$deb" Depends)
  for dep in libc6 libstdc++6 libhwloc python3; do
    grep -q "$dep" <<<"$depends" || fail "Depends lacks $dep: $depends"
  done
  dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
  root=$work/root/usr
  libdir=lib zsh_dir=share/zsh/vendor-completions
  ;;
*) fail "unknown case" ;;
esac

for f in bin/rtpar "$libdir/librtpar.so.0" "$libdir/rtpar/omp/libgomp.so.1" include/rtpar.hpp \
  include/rtpar/system.hpp share/bash-completion/completions/rtpar "$zsh_dir/_rtpar" \
  share/man/man1/rtpar.1 share/rtpar/tools/plot_run.py; do
  [ -e "$root/$f" ] || fail "not installed: $f (installed: $(cd "$root" && find . -maxdepth 3 | head -40))"
done
grep -q '^complete .* rtpar$' "$root/share/bash-completion/completions/rtpar" ||
  fail "bash completion"
grep -q '^\.TH RTPAR 1' "$root/share/man/man1/rtpar.1" || fail "man page"

# Nothing of the build tree may be used: no RTPAR_OMP_DIR, no LD_LIBRARY_PATH, and the installed
# command resolves the installed library.
unset RTPAR_OMP_DIR LD_LIBRARY_PATH
lib=$(ldd "$root/bin/rtpar" | awk '$1 ~ /^librtpar\.so/ {print $3}')
[ "$(realpath "$lib")" = "$(realpath "$root/$libdir/librtpar.so.0")" ] ||
  fail "installed rtpar loads $lib"

cp "$src/examples/demo.toml" .
out=$("$root/bin/rtpar" check demo.toml) || fail "installed rtpar check: $out"
grep -q SCHEDULABLE <<<"$out" || fail "no verdict: $out"
"$root/bin/rtpar" --version | grep -q '^rtpar ' || fail "--version"

if [ -n "$sanitize" ]; then
  echo "PASS [install.$case_name]: $root (rtpar omp not run: the runtime is built with $sanitize)"
  exit 0
fi

# An OpenMP program that prints the libgomp.so.1 it runs on (its mapping in /proc/self/maps).
cat >which_gomp.c <<'C'
#include <omp.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  int n = 0;
#pragma omp parallel
  {
#pragma omp single
    n = omp_get_num_threads();
  }
  FILE* maps = fopen("/proc/self/maps", "r");
  char line[4096];
  while (maps && fgets(line, sizeof line, maps)) {
    const char* p = strchr(line, '/');
    if (p && strstr(p, "libgomp.so")) { printf("runtime %s", p); break; }
  }
  printf("threads %d\n", n);
  return n > 0 ? 0 : 1;
}
C
if ! "$cc" -fopenmp which_gomp.c -o which_gomp 2>cc.err; then
  echo "SKIPPED: $cc -fopenmp cannot build an OpenMP program: $(cat cc.err)"
  exit 77
fi
out=$("$root/bin/rtpar" omp -- ./which_gomp 2>omp.err) ||
  fail "installed rtpar omp: $out $(cat omp.err)"
used=$(sed -n 's/^runtime //p' <<<"$out")
[ "$(realpath "$used")" = "$(realpath "$root/$libdir/rtpar/omp/libgomp.so.1")" ] ||
  fail "the program ran on $used, not the installed runtime $root/$libdir/rtpar/omp/libgomp.so.1"
grep -q "threads [1-9]" <<<"$out" || fail "no team: $out"
echo "PASS [install.$case_name]: $root"
