#!/usr/bin/env bash
# experiment_test.sh CASE RTPAR SOURCE_DIR WORK_DIR — `rtpar experiment`: any split of a study
# (threads, shards, points, a resumed kill) merges to the same bytes; every emitted unit gets the
# verdict its row says; bad manifests and options exit 2 naming the field.
set -uo pipefail
source "$(dirname "$0")/cli_lib.sh"  # fail, expect_status, json
case_name=$1 rtpar=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
manifest=$src/experiments/fjos-fig6.toml

# shards_equal MANIFEST: one process with 2 threads, 7 shards run separately (in reverse order)
# and one run per point merge to the same bytes.
shards_equal() {
  local m=$1 name
  name=$(basename "$m" .toml)
  # One process with 2 threads against 7 shards run separately (in reverse order), merged.
  expect_status 0 "$rtpar" experiment run "$m" --scale smoke --jobs 2 --out one --no-plot
  for k in 6 5 4 3 2 1 0; do
    expect_status 0 "$rtpar" experiment run "$m" --scale smoke --jobs 1 --shard "$k/7" --out seven
  done
  expect_status 0 "$rtpar" experiment status seven
  expect_status 0 "$rtpar" experiment merge seven
  cmp one/$name.csv seven/$name.csv || fail "7 shards differ from 1: $(diff one/$name.csv seven/$name.csv | head)"
  # Per point too.
  points=$("$rtpar" experiment points "$m" --scale smoke | wc -l)
  for ((p = 0; p < points; p++)); do
    expect_status 0 "$rtpar" experiment run "$m" --scale smoke --point "$p" --out bypoint
  done
  expect_status 0 "$rtpar" experiment merge bypoint
  cmp one/$name.csv bypoint/$name.csv || fail "per-point run differs"
  # The raw rows themselves agree (sorted, timing column dropped).
  strip() { tail -q -n +3 "$@" | cut -d, -f1-13,15- | sort; }
  [ "$(strip one/raw/*.csv)" = "$(strip seven/raw/*.csv)" ] || fail "raw rows differ"
}

# check_bad BASE SED_EXPR FIELD: the manifest BASE edited by SED_EXPR exits 2 naming file, line,
# column and FIELD, and creates no output directory.
check_bad() {
  sed "$2" "$1" >m.toml
  expect_status 2 "$rtpar" experiment run m.toml --scale smoke --out x
  grep -q "m.toml:[0-9]*:[0-9]*" <<<"$err" && grep -q "$3" <<<"$err" ||
    fail "$2: no location or field $3: $err"
  [ ! -e x ] || fail "a bad manifest created its output directory"
}

# rt_head VALUES: the head of a small runtime manifest over OpenMP-RT applications on 2 cores.
rt_head() {
  printf '[experiment]\nname = "rt-test"\nclass = "runtime"\n[generator]\nfamily = "omprt"\ncores = 2\n[sweep]\nx = "util_per_core"\nvalues = %s\n' "$1"
}

case $case_name in
shards_equal)
  shards_equal "$manifest"
  ;;
sim_shards_equal)
  # A simulation manifest (plan, then simulate with sampled Table II overheads) splits alike.
  shards_equal "$src/experiments/rt-openmp-fig4.toml"
  grep -q "missed" one/rt-openmp-fig4.csv || fail "no simulation columns: $(head -1 one/rt-openmp-fig4.csv)"
  ;;
sim_bad_input)
  # Bad simulation fields exit 2 naming the manifest's file, line, column and field.
  sim=$src/experiments/rt-openmp-fig4.toml
  mkdir -p data && cp "$src"/experiments/data/*.json data/
  check_bad "$sim" '0,/^hyperperiods = /s/^hyperperiods = .*/horizon = "5 parsecs"/' horizon
  check_bad "$sim" '0,/^sim_overhead = /s|^sim_overhead = .*|sim_overhead = "data/nosuch.json"|' sim_overhead
  check_bad "$sim" '0,/^overhead_statistic = /s/^overhead_statistic = .*/overhead_statistic = "p42"/' overhead_statistic
  check_bad "$sim" '0,/^force_place = /s/^force_place = .*/admision = false/' admision
  # force_place (issue 36 item 3): a boolean, decomposition only, never with admission = true.
  check_bad "$sim" '0,/^force_place = /s/^force_place = .*/force_place = "yes"/' force_place
  check_bad "$sim" '0,/^force_place = /s/^force_place = .*/force_place = true\nadmission = true/' \
    "admission.*force_place executes refused plans"
  check_bad "$sim" '0,/^planner = "decomposition"/s/^planner = "decomposition"/planner = "federated"/' \
    "force_place.*only the decomposition planner"
  expect_status 0 "$rtpar" experiment show "$sim"
  grep -q "force-place (refused strands placed anyway)" <<<"$out" || fail "show: $out"
  check_bad "$sim" '0,/^context_switch = /s/^context_switch = .*/context_switch = "-1us"/' context_switch
  check_bad "$sim" '0,/^barrier_team = /s/^barrier_team = .*/barrier_team = "all"/' barrier_team
  check_bad "$sim" '0,/^sim_overhead = /s|^sim_overhead = .*|charged_statistic = "max"|' charged_statistic
  # A bad statistic for a series that charges a profile (an analysis manifest's).
  sed '0,/^back_to_back = true/s/^back_to_back = true/back_to_back = true\ncharged_statistic = "p42"/' "$src/experiments/fjos-fig8.toml" >m.toml
  expect_status 2 "$rtpar" experiment run m.toml --scale smoke --out x
  grep -q "m.toml:[0-9]*:[0-9]*.*charged_statistic.*p42" <<<"$err" || fail "charged_statistic p42: $err"
  sed '0,/^back_to_back = true/s/^back_to_back = true/back_to_back = true\ncharged_statistic = "max"/' "$src/experiments/fjos-fig8.toml" >m.toml
  expect_status 0 "$rtpar" experiment show m.toml
  grep -q "charged at max" <<<"$out" || fail "show does not say the charged statistic: $out"
  # Simulation keys in an analysis manifest are unknown keys there.
  sed 's/^planner = "fork-join-rta"$/planner = "fork-join-rta"\nhyperperiods = 2/' "$manifest" >m.toml
  cp -r "$src"/experiments/data . 2>/dev/null
  expect_status 2 "$rtpar" experiment run m.toml --scale smoke --out x
  grep -q "hyperperiods" <<<"$err" || fail "simulation key accepted in an analysis manifest: $err"
  ;;
runtime_rows)
  # A runtime study runs each admitted plan (and, with admission = false, each complete refused
  # one) on this machine: execution columns filled from the real run, units one at a time.
  { rt_head '["0.3", "0.9"]' && cat <<'TOML'; } >rt.toml
[[series]]
name = "all"
planner = "partitioned"
admission = false
best_effort = true
cpu_latency = "off"
[[series]]
name = "admitted"
planner = "partitioned"
best_effort = true
cpu_latency = "off"
[scale.paper]
trials = 2
duration = "300ms"
[scale.smoke]
trials = 1
duration = "200ms"
TOML
  expect_status 0 "$rtpar" experiment run rt.toml --scale smoke --jobs 2 --out rt --no-plot
  grep -q "one at a time" <<<"$out" || fail "--jobs 2 was not refused for a runtime study: $out"
  raw=rt/raw/all.csv
  sed -n 2p $raw | grep -q ",plan_admitted,run_jobs,run_misses,miss_ratio,max_rel_response,mean_rel_response$" ||
    fail "no run columns: $(sed -n 2p $raw)"
  head -1 rt/rt-test.csv | grep -q ",executed," || fail "merged CSV has no executed column"
  # Every row that ran has jobs; a refused row of the admitted series has empty run cells.
  awk -F, 'NR > 2 && $10 != "rejected" && !($16 > 0) { bad = 1 } END { exit bad }' $raw ||
    fail "a row that ran has no jobs: $(cat $raw)"
  awk -F, 'NR > 2 && $10 == "rejected" && $16 != "" { bad = 1 } END { exit bad }' $raw ||
    fail "a refused row has run cells: $(cat $raw)"
  # At 0.9 per core the partitioned analysis refuses this set (deterministic generation) and the
  # `admission = false` series runs it anyway.
  grep -q "^rt-test,smoke,1,default,0.9,0,1,[0-9]*,all,[a-z]*,[0-9]*,[0-9.]*,[0-9]*,[0-9]*,0,[1-9]" $raw ||
    fail "the refused set did not run without admission: $(cat $raw)"
  grep -q "^rt-test,smoke,1,default,0.9,0,1,[0-9]*,admitted,rejected," $raw ||
    fail "the refused set ran with admission: $(cat $raw)"
  # The machine record: beside the raw file, copied to machine.txt by merge.
  grep -q "^rt_throttling = " rt/raw/all.env && grep -q "^kernel = Linux" rt/raw/all.env ||
    fail "no machine record: $(cat rt/raw/all.env)"
  cmp rt/raw/all.env rt/machine.txt || fail "machine.txt is not the record"
  # Two shards from "different machines" are not pooled unless asked.
  expect_status 0 "$rtpar" experiment run rt.toml --scale smoke --shard 0/2 --out two
  expect_status 0 "$rtpar" experiment run rt.toml --scale smoke --shard 1/2 --out two
  expect_status 0 "$rtpar" experiment merge two
  sed -i 's/^governor = .*/governor = elsewhere/' two/raw/shard-0001-of-0002.env
  expect_status 2 "$rtpar" experiment merge two
  grep -q -- "different machines.*--mix-machines" <<<"$err" && grep -q "governor = elsewhere" <<<"$err" ||
    fail "rows of two machines merged: $err"
  expect_status 0 "$rtpar" experiment merge two --mix-machines
  grep -q "# shard-0001-of-0002.csv" two/machine.txt || fail "machine.txt: $(cat two/machine.txt)"
  rm two/raw/shard-0000-of-0002.env
  expect_status 2 "$rtpar" experiment merge two --mix-machines
  grep -q "no machine record" <<<"$err" || fail "a raw file without its record was merged: $err"
  expect_status 0 "$rtpar" experiment estimate rt.toml --scale paper
  grep -q "at most 3.2 s wall" <<<"$out" || fail "estimate: $out"
  expect_status 0 "$rtpar" experiment show rt.toml
  grep -q "runs whatever the planner says, 300ms best effort" <<<"$out" || fail "show: $out"
  # OpenMP-RT's baseline (OpenMP tasks with loops and delays on libgomp, bench/omp/looptasks.c):
  # every set runs, whatever the planner says; where the program is not built (sanitizer builds),
  # its rows are n/a, never rows that pretend it ran.
  cat >>rt.toml <<'TOML'
[[series]]
name = "omp"
planner = "partitioned"
baseline = "openmp-tasks"
TOML
  expect_status 0 "$rtpar" experiment show rt.toml
  grep -q "as OpenMP tasks with loops and delays" <<<"$out" || fail "show: $out"
  expect_status 0 "$rtpar" experiment run rt.toml --scale smoke --out omp --no-plot
  raw=omp/raw/all.csv
  if [ -x "$(dirname "$rtpar")/bench/rtpar-omp-looptasks" ]; then
    # Both sets ran (jobs > 0), the refused one too; verdict admitted (clean) or missed.
    [ "$(awk -F, '$9 == "omp" && ($10 == "admitted" || $10 == "missed") && $16 > 0' $raw | wc -l)" \
      -eq 2 ] || fail "the baseline did not run every set: $(cat $raw)"
  else
    [ "$(awk -F, '$9 == "omp" && $10 == "n/a"' $raw | wc -l)" -eq 2 ] ||
      fail "the baseline without its program: $(cat $raw)"
  fi
  expect_status 0 "$rtpar" experiment slurm rt.toml --shards 2 --out /tmp/x
  grep -q -- "--exclusive" <<<"$out" || fail "a runtime study's shards may share a node: $out"
  ;;
runtime_bad_input)
  { rt_head '["0.3"]' && cat <<'TOML'; } >rt.toml
[[series]]
name = "a"
planner = "partitioned"
duration = "1s"
[scale.paper]
trials = 1
[scale.smoke]
trials = 1
duration = "200ms"
TOML
  check_bad rt.toml 's/^duration = "1s"/duration = "0s"/' duration
  check_bad rt.toml 's/^duration = "1s"/duration = "11min"/' duration
  check_bad rt.toml 's/^duration = "1s"/cpu_latency = "1ns"/' cpu_latency
  check_bad rt.toml 's/^duration = "1s"/best_effort = "yes"/' best_effort
  check_bad rt.toml 's/^duration = "1s"/admission = 1/' admission
  check_bad rt.toml 's/^duration = "1s"/baseline = "openmp"/' baseline
  check_bad rt.toml 's/^duration = "1s"/baseline = "openmp-tasks"\nadmission = true/' admission
  check_bad rt.toml 's/^duration = "1s"/baseline = "openmp-tasks"\nbest_effort = true/' best_effort
  check_bad rt.toml 's/^duration = "1s"/target = "40c4s"/' target
  check_bad rt.toml 's/^duration = "1s"/hyperperiods = 2/' hyperperiods
  check_bad rt.toml 's/^planner = "partitioned"/bound = "3.73"/' bound
  check_bad rt.toml 's/^duration = "200ms"/duration = "-1s"/' duration
  check_bad rt.toml 's/^class = "runtime"/class = "runtim"/' class
  # A scale's duration belongs to runtime manifests only.
  sed 's/^\[scale.smoke\]$/[scale.smoke]\nduration = "1s"/' "$manifest" >m.toml
  expect_status 2 "$rtpar" experiment run m.toml --scale smoke --out x
  grep -q "duration" <<<"$err" || fail "a scale duration was accepted in an analysis manifest: $err"
  ;;
partial_and_resume)
  expect_status 0 "$rtpar" experiment run "$manifest" --scale smoke --jobs 2 --out full --no-plot
  expect_status 0 "$rtpar" experiment run "$manifest" --scale smoke --shard 0/2 --out cut
  # Shard 1 is missing: merge refuses and names the missing units; status says so too.
  expect_status 2 "$rtpar" experiment merge cut
  grep -q "units missing" <<<"$err" || fail "merge did not name the missing units: $err"
  expect_status 1 "$rtpar" experiment status cut
  # A kill mid-unit: cut shard 0's file inside its last line, then resume it and run shard 1.
  f=cut/raw/shard-0000-of-0002.csv
  size=$(stat -c %s "$f")
  truncate -s $((size - 7)) "$f"
  expect_status 0 "$rtpar" experiment run "$manifest" --scale smoke --shard 0/2 --out cut --resume
  grep -q "resumed" <<<"$out" || fail "no resume summary: $out"
  expect_status 0 "$rtpar" experiment run "$manifest" --scale smoke --shard 1/2 --out cut
  expect_status 0 "$rtpar" experiment merge cut
  cmp full/fjos-fig6.csv cut/fjos-fig6.csv || fail "resumed run differs"
  # An all-units run into the directory of a complete sharded run: its merge finds duplicates.
  expect_status 2 "$rtpar" experiment run "$manifest" --scale smoke --out cut --no-plot --jobs 1
  grep -q "computed twice" <<<"$err" || fail "duplicates not reported: $err"
  # Another study into the same directory is refused.
  expect_status 2 "$rtpar" experiment run "$manifest" --scale smoke --seed 9 --out cut
  grep -q "another study" <<<"$err" || fail "mixed studies: $err"
  ;;
emit_agrees)
  # The task set of a unit, written out, gets from `rtpar check` the verdict of the unit's row.
  expect_status 0 "$rtpar" experiment run "$manifest" --scale smoke --jobs 2 --out e --no-plot
  checked=0
  while IFS=, read -r _ _ _ _ _ trial unit _ series verdict _; do
    [ "$series" = "SA-RTA" ] || continue
    trials=$(grep -o 'trials=[0-9]*' e/raw/all.csv | head -1 | cut -d= -f2)
    point=$((unit / trials))
    expect_status 0 "$rtpar" experiment emit "$manifest" --scale smoke --point "$point" --trial "$trial" --out u.toml
    "$rtpar" check u.toml --planner fork-join-rta --target 40c4s >/dev/null 2>check.err
    got=$?
    want=1; [ "$verdict" = admitted ] && want=0
    [ "$got" -eq "$want" ] || fail "unit $unit: row says $verdict, check exits $got: $(cat check.err)"
    checked=$((checked + 1))
  done < <(tail -n +3 e/raw/all.csv)
  [ "$checked" -gt 0 ] || fail "no SA-RTA row checked"
  ;;
bad_input)
  cp "$manifest" m.toml
  sed -i 's/^trials = 3$/trails = 3/' m.toml
  expect_status 2 "$rtpar" experiment run m.toml --scale smoke --out x
  grep -q 'm.toml:[0-9]*:[0-9]*' <<<"$err" && grep -q "trails" <<<"$err" || fail "no location/field: $err"
  [ ! -e x ] || fail "a bad manifest created its output directory"
  expect_status 2 "$rtpar" experiment run "$manifest" --scale nosuch --out x
  grep -q "smoke" <<<"$err" || fail "the scales are not listed: $err"
  expect_status 2 "$rtpar" experiment run "$manifest" --scale smoke --shard 7/7 --out x
  expect_status 2 "$rtpar" experiment run "$manifest" --scale smoke --shard 1/ --out x
  expect_status 2 "$rtpar" experiment run nosuch-experiment --out x
  expect_status 2 "$rtpar" experiment merge /nonexistent-dir
  ;;
all_smoke)
  # Every manifest in experiments/ runs at its smoke scale (CI's check that none has rotted).
  # SMOKE_SAMPLE=1 (the sanitizer builds, where the simulator runs 10-20x slower): every runtime
  # manifest (real threads) but only the first analysis and simulation manifest; the release
  # build runs them all.
  n=0
  seen=" "
  # Bench studies need rtpar-bench and its peers (not in the sanitizer builds): bench_smoke.
  for m in "$src"/experiments/*.toml; do
    n=$((n + 1))
    grep -q '^class = "bench"' "$m" && continue
    class=$(sed -n 's/^class = "\(.*\)"/\1/p' "$m")
    if [ "${SMOKE_SAMPLE:-0}" = 1 ] && [ "$class" != runtime ]; then
      case $seen in *" $class "*) continue ;; esac
      seen="$seen$class "
    fi
    expect_status 0 "$rtpar" experiment run "$m" --scale smoke --jobs 2 --out "smoke-$(basename "$m" .toml)" --no-plot
  done
  [ "$n" -ge 4 ] || fail "only $n manifests found"
  expect_status 0 "$rtpar" experiment list
  [ "$(wc -l <<<"$out")" -eq "$n" ] || fail "list shows $(wc -l <<<"$out") of $n manifests: $out"
  ;;
bench_smoke)
  # Every bench manifest at its smoke scale: one real driver run per unit, records matched.
  n=0
  for m in $(grep -l '^class = "bench"' "$src"/experiments/*.toml); do
    name=$(basename "$m" .toml)
    expect_status 0 "$rtpar" experiment run "$m" --scale smoke --out "$name" --no-plot
    # Every series of every point was matched in the driver's records (measured or n/a, never a
    # missing row), and rtpar's own series measured something.
    rows=$(tail -n +2 "$name/$name.csv" | wc -l)
    [ "$rows" -gt 0 ] || fail "$name: no merged row"
    n=$((n + 1))
  done
  [ "$n" -ge 6 ] || fail "only $n bench manifests"
  # FJOS Fig. 5: every application size of rtpar's library has a measured speedup (each run
  # checked its result bit for bit against its serial twin, or the driver would have failed).
  for c in FFT "FFT work 1-16" Jacobi "Jacobi work 1-4" LU "LU work 1-16"; do
    grep -q "^fjos-fig5,$c,2,rtpar,1,1,[0-9]" fjos-fig5/fjos-fig5.csv ||
      fail "fjos-fig5 $c: rtpar not measured: $(cat fjos-fig5/fjos-fig5.csv)"
  done
  grep -q '^fjos-fig4,back-to-back,2,rtpar spin,1,1,[0-9]' fjos-fig4/fjos-fig4.csv ||
    fail "rtpar spin not measured: $(cat fjos-fig4/fjos-fig4.csv)"
  # Panels differing only in match share one driver run per (x, trial): the second and third
  # placements of OpenMP-RT Fig. 3 took no run of their own (a run is >= 12 x 100 ms).
  awk -F, 'NR > 2 && $4 != "RT to RT" && $14 > 100000 { bad = 1 } END { exit bad }' \
    openmp-rt-fig3/raw/all.csv || fail "fig3 panels ran the driver again: $(cat openmp-rt-fig3/raw/all.csv)"
  awk -F, 'NR > 2 && $4 == "RT to RT" && $14 < 1000000 { bad = 1 } END { exit bad }' \
    openmp-rt-fig3/raw/all.csv || fail "fig3's first panel did not run the driver"
  ;;
bench_rows)
  # A bench study split in two shards merges with every unit once; raw rows carry the metrics.
  m=$src/experiments/p3ls3-fig5.toml
  for k in 1 0; do
    expect_status 0 "$rtpar" experiment run "$m" --scale smoke --shard "$k/2" --out two
  done
  expect_status 0 "$rtpar" experiment status two
  expect_status 0 "$rtpar" experiment merge two
  head -1 two/p3ls3-fig5.csv | grep -q '^experiment,panel,x,series,n,measured,median_speedup,min_speedup,max_speedup,median_min_ns,' ||
    fail "merged header: $(head -1 two/p3ls3-fig5.csv)"
  [ "$(tail -n +2 two/p3ls3-fig5.csv | wc -l)" -eq 8 ] || fail "expected 2 panels x 4 series"
  grep -q '^p3ls3-fig5,isolated,2,rtpar,1,1,[0-9.]*,' two/p3ls3-fig5.csv || fail "rtpar row"
  [ -s two/machine.txt ] || fail "no machine record"
  grep -q ',measured,0,0.000000,0,[0-9]*,[0-9.]*,' two/raw/shard-0000-of-0002.csv || fail "raw row"
  expect_status 0 "$rtpar" experiment show "$m" --scale smoke
  grep -q 'rtpar bench steal --bench matmul --matmul-n 128 --threads X --json' <<<"$out" || fail "show: $out"
  expect_status 0 "$rtpar" experiment estimate "$m" --scale smoke
  # A series whose match selects two records of one run stops the study (exit 2, naming it).
  sed 's/^match = { benchmark = "matmul", runtime = "rtpar" }/match = { benchmark = "matmul" }/' "$m" >two.toml
  expect_status 2 "$rtpar" experiment run two.toml --scale smoke --out ambiguous
  grep -q 'two.toml:[0-9]*:[0-9]*: series\[0\].match: series "rtpar" matches more than one record' <<<"$err" || fail "ambiguous match: $err"
  # Arguments the driver refuses: exit 2 naming [bench].
  sed 's/^args = \["--bench", "matmul",/args = ["--bench", "nosuch",/' "$m" >bad.toml
  expect_status 2 "$rtpar" experiment run bad.toml --scale smoke --out refused
  grep -q 'bad.toml:[0-9]*:[0-9]*: bench.args: .*refused its arguments' <<<"$err" || fail "refused args: $err"
  ;;
bench_bad_input)
  m=$src/experiments/openmp-rt-fig4.toml
  check_bad "$m" 's/^driver = "channels"/driver = "planners"/' driver
  check_bad "$m" 's/^args = \["--fig", "4"\]/args = ["--fig", "4", "--json"]/' args
  check_bad "$m" 's/^args = \["--fig", "4"\]/args = "--fig 4"/' args
  check_bad "$m" 's/^x_option = "--ratios"/x_option = "ratios"/' x_option
  check_bad "$m" 's/^metrics = .*/metrics = []/' metrics
  check_bad "$m" 's/^metrics = .*/metrics = ["torn", "torn"]/' metrics
  check_bad "$m" 's/^metrics = .*/metrics = ["Torn"]/' metrics
  check_bad "$m" 's/^records = "fig4"/records = "fig 4"/' records
  check_bad "$m" 's/^match = { kind = "retry", config = "RT->RT" }/planner = "partitioned"/' planner
  check_bad "$m" 's/^match = { kind = "retry", config = "RT->RT" }/match = {}/' match
  check_bad "$m" 's/^match = { kind = "retry", config = "RT->RT" }/match = { kind = [1] }/' match
  check_bad "$m" 's/^class = "bench"/class = "analysis"/' bench
  check_bad "$m" 's/^\[bench\]/[generator]\nfamily = "fjos"\n[bench]/' generator
  check_bad "$m" 's/^y = .*/y = ["fraction"]/' y
  check_bad "$m" 's/^trials = 2/trials = 2\nduration = "1s"/' duration
  check_bad "$m" 's/^kind = "at_most"/kind = "close"/' tolerance
  check_bad "$m" 's/^kind = "at_most"/kind = "at_most"\ntolerance = 1/' tolerance
  check_bad "$m" 's/^kind = "at_most"/kind = "close"\ntolerance = -1/' tolerance
  ;;
slurm_script)
  expect_status 0 "$rtpar" experiment slurm "$manifest" --scale smoke --shards 4 --out /tmp/x --max-parallel 2
  grep -q -- '--array=0-3%2' <<<"$out" || fail "no array line: $out"
  grep -q -- '--dependency=afterok' <<<"$out" || fail "no dependent merge: $out"
  bash -n <(echo "$out") || fail "the script is not valid bash"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
