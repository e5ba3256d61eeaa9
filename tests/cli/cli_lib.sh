# cli_lib.sh — helpers shared by the end-to-end CLI test scripts (sourced; needs $case_name).
# fail MESSAGE: report this case as failed and stop.
fail() { echo "FAIL [$case_name]: $*" >&2; exit 1; }
# expect_status WANT CMD...: run CMD; its stdout in $out, its stderr in $err; fail unless it
# exited WANT.
expect_status() {
  local want=$1; shift
  out=$("$@" 2>stderr.txt); local got=$?; err=$(cat stderr.txt)
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want; stdout: ${out:0:2000}; stderr: $err"
}
# json PYTHON: evaluate PYTHON with d = the JSON document in $out; fail if it raises.
json() { python3 -c "import json,sys; d=json.load(sys.stdin); $1" <<<"$out" || fail "json check failed: $1 on: $out"; }
