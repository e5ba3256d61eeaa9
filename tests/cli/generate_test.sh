#!/usr/bin/env bash
# generate_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar generate`: every family's output passes
# `rtpar check` (exit 0 or 1: a verdict, never bad input), sequences are deterministic and
# prefix-stable, and a bad --param exits 2 naming the key without writing anything.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status
case_name=$1 rtpar=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

case $case_name in
families)
  expect_status 0 "$rtpar" generate --list
  families=$(grep -E '^[a-z-]+:' <<<"$out" | cut -d: -f1)
  [ -n "$families" ] || fail "no family listed: $out"
  for kind in $families; do
    expect_status 0 "$rtpar" generate "$kind" --seed 7 --count 2 --out sets
    for f in sets/"$kind"-7-000.toml sets/"$kind"-7-001.toml; do
      [ -f "$f" ] || fail "missing $f"
      "$rtpar" check "$f" >check.txt 2>&1
      st=$?
      [ "$st" -eq 0 ] || [ "$st" -eq 1 ] || fail "rtpar check $f exited $st: $(cat check.txt)"
    done
  done
  ;;
determinism)
  expect_status 0 "$rtpar" generate fjos --param cores=8 --param sockets=2 --seed 3 --count 3 --out a
  expect_status 0 "$rtpar" generate fjos --param sockets=2 --param cores=8 --seed 3 --count 1 --out b
  cmp a/fjos-3-000.toml b/fjos-3-000.toml || fail "--count 1 is not a prefix of --count 3"
  expect_status 0 "$rtpar" generate fjos --param cores=8 --param sockets=2 --seed 3 --count 3 --out c
  for i in 000 001 002; do cmp "a/fjos-3-$i.toml" "c/fjos-3-$i.toml" || fail "set $i differs"; done
  cmp -s a/fjos-3-000.toml a/fjos-3-001.toml && fail "sets 0 and 1 are equal"
  ls a | grep -q tmp && fail "temporary file left: $(ls a)"
  ;;
bad_param)
  expect_status 2 "$rtpar" generate fjos --param cores=zero --seed 1 --out bad
  grep -q "generator.cores" <<<"$err" || fail "key not named: $err"
  expect_status 2 "$rtpar" generate fjos --param bogus=1 --seed 1 --out bad
  grep -q "generator.bogus" <<<"$err" || fail "key not named: $err"
  expect_status 2 "$rtpar" generate fjos --param cores --seed 1 --out bad
  grep -q -- "--param" <<<"$err" || fail "no --param in: $err"
  expect_status 2 "$rtpar" generate nosuch --seed 1 --out bad
  expect_status 2 "$rtpar" generate fjos --out bad
  [ -e bad ] && fail "bad input wrote $(ls -R bad)"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
