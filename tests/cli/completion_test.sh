#!/usr/bin/env bash
# completion_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — the hidden `rtpar completion bash|zsh` and
# `rtpar man` (src/cli/completion.cpp, man_page.cpp): generated from the command's own
# definitions, they list every command and every option `--help` shows, and nothing hidden.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status
case_name=$1 rtpar=$2 src=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1

# The command paths whose options are compared with their --help.
paths=("" check run simulate profile calibrate generate omp plot experiment "experiment run"
       "experiment merge")

# help_options PATH...: the option names `rtpar PATH --help` lists (one per line, sorted).
help_options() {
  # shellcheck disable=SC2068
  "$rtpar" $@ --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' |
    sort -u
}

case $case_name in
bash)
  expect_status 0 "$rtpar" completion bash
  printf '%s\n' "$out" >rtpar.bash
  bash -n rtpar.bash || fail "bash syntax"
  # complete WORD...: what the script offers for the last word, as bash would call it.
  complete() {
    bash -c 'source ./rtpar.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rtpar
             printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
  }
  [ "$(complete rtpar chec)" = check ] || fail "rtpar chec: $(complete rtpar chec)"
  complete rtpar check --js | grep -qx -- --json || fail "check --js: $(complete rtpar check --js)"
  complete rtpar experiment r | grep -qx run || fail "experiment r: $(complete rtpar experiment r)"
  complete rtpar run --allow-misses x.toml --dur | grep -qx -- --duration || fail "run --dur"
  # An option's value and a positional: file names.
  touch tasks.toml
  [ "$(complete rtpar check --overhead tas)" = tasks.toml ] || fail "value: not a file name"
  [ "$(complete rtpar check tas)" = tasks.toml ] || fail "positional: not a file name"
  # Hidden commands are not offered.
  complete rtpar "" | grep -qxE 'completion|man' && fail "hidden command offered"
  # Every option of --help, for each command path.
  for p in "${paths[@]}"; do
    # shellcheck disable=SC2086
    want=$(help_options $p)
    # shellcheck disable=SC2086
    got=$(complete rtpar $p -- | sort -u)
    [ "$want" = "$got" ] || fail "rtpar $p: --help has [$want], the completion [$got]"
  done
  ;;
zsh)
  expect_status 0 "$rtpar" completion zsh
  printf '%s\n' "$out" >_rtpar
  head -1 _rtpar | grep -qx '#compdef rtpar' || fail "no #compdef line"
  if command -v zsh >/dev/null; then zsh -n _rtpar || fail "zsh syntax"; fi
  for p in "${paths[@]}"; do
    # shellcheck disable=SC2086
    for opt in $(help_options $p); do
      grep -q -- "'$opt:" _rtpar || fail "rtpar $p: $opt missing"
    done
  done
  grep -q "'check:Admission control" _rtpar || fail "no described command"
  grep -qE "'(completion|man):" _rtpar && fail "hidden command listed"
  expect_status 2 "$rtpar" completion fish
  grep -q "fish" <<<"$err" || fail "no error naming the shell: $err"
  ;;
man)
  expect_status 0 "$rtpar" man
  printf '%s\n' "$out" >rtpar.1
  grep -q '^\.TH RTPAR 1 ' rtpar.1 || fail "no .TH"
  # groff renders it without a warning (-ww).
  page=$(groff -man -Tutf8 -ww rtpar.1 2>groff.err | col -b) || fail "groff failed"
  [ -s groff.err ] && fail "groff warnings: $(cat groff.err)"
  for sec in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" FILES; do
    grep -q "^$sec" <<<"$page" || fail "no section $sec"
  done
  for p in "${paths[@]}"; do
    [ -n "$p" ] && { grep -q "rtpar $p" <<<"$page" || fail "no section for rtpar $p"; }
    # shellcheck disable=SC2086
    for opt in $(help_options $p); do
      grep -q -- "$opt" <<<"$page" || fail "rtpar $p: $opt missing from the man page"
    done
  done
  grep -qE "rtpar (completion|man)" <<<"$page" && fail "hidden command in the man page"
  # --version and the hidden commands stay out of --help.
  expect_status 0 "$rtpar" --help
  grep -qE "^ +(completion|man) " <<<"$out" && fail "hidden command in --help: $out"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
