#!/usr/bin/env bash
# Hunts flaky tests the way a new contributor meets them: clones the current HEAD into a fresh
# `mktemp -d` folder (its mode and whether the path has a space are chosen), installs with `npm ci`
# once, builds, then runs the given test files (or the whole suite) N times with vitest, optionally
# while other processes keep both cores busy. Prints the runs, their wall times and how often each
# test failed. The load processes and the temporary folder are removed however the script ends.
#
#   scripts/flake-hunt.sh [-n N] [--load] [--parent-mode 0700|0755] [--space] [-t NAME_PATTERN] [--logs DIR] [TEST_FILE...]
#
# -t runs only the tests whose names match (vitest -t); --logs keeps each run's output and JSON
# report in DIR. Only committed work is tested (the clone is of HEAD). Exit status: 0 when every
# run passed.
set -euo pipefail

# The whole script is one function, parsed before it runs: editing or checking out this file while a
# hunt runs cannot change what the running hunt executes.
main() {

usage() {
  sed -n 's/^#   //p' "$0" >&2
  exit 2
}

runs=1
load=0
parent_mode=0700
space=0
logs=''
name_filter=()
files=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    -n) [ "$#" -ge 2 ] || usage; runs="$2"; shift 2 ;;
    --load) load=1; shift ;;
    --parent-mode) [ "$#" -ge 2 ] || usage; parent_mode="$2"; shift 2 ;;
    --space) space=1; shift ;;
    --logs) [ "$#" -ge 2 ] || usage; logs="$2"; shift 2 ;;
    -t) [ "$#" -ge 2 ] || usage; name_filter=(-t "$2"); shift 2 ;;
    -h | --help) usage ;;
    --) shift; files+=("$@"); break ;;
    -*) echo "flake-hunt: unknown option $1" >&2; usage ;;
    *) files+=("$1"); shift ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) echo "flake-hunt: -n wants a positive whole number, not '$runs'" >&2; exit 2 ;; esac
case "$parent_mode" in 0700 | 0755) ;; *) echo "flake-hunt: --parent-mode is 0700 or 0755, not '$parent_mode'" >&2; exit 2 ;; esac

source_repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
commit="$(git -C "$source_repo" rev-parse HEAD)"
if [ -n "$(git -C "$source_repo" status --porcelain)" ]; then
  echo "flake-hunt: note: uncommitted changes in $source_repo are not tested (the clone is of HEAD)" >&2
fi
if [ -n "$logs" ]; then
  mkdir -p "$logs"
  logs="$(cd "$logs" && pwd)"
fi

parent="$(mktemp -d)"
load_pids=()
test_pgid=''
cleanup() {
  trap - EXIT INT TERM
  # Each was started by this script; a group id is negative so the whole group goes.
  if [ -n "$test_pgid" ]; then kill -TERM -- "-$test_pgid" 2>/dev/null || true; fi
  for pid in "${load_pids[@]}"; do kill -TERM -- "$pid" 2>/dev/null || true; done
  for pid in "${load_pids[@]}"; do wait "${pid#-}" 2>/dev/null || true; done
  rm -rf -- "$parent"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

chmod "$parent_mode" "$parent"
if [ "$space" -eq 1 ]; then clone="$parent/with space/dsh"; else clone="$parent/dsh"; fi
mkdir -p "$(dirname "$clone")"
echo "flake-hunt: $commit in $clone (parent mode $parent_mode)"
git clone --quiet --no-checkout "$source_repo" "$clone"
git -C "$clone" checkout --quiet --detach "$commit"
cd "$clone"
npm ci --no-audit --no-fund --loglevel=error >"$parent/npm-ci.log" 2>&1 || { cat "$parent/npm-ci.log" >&2; exit 1; }
npm run build >"$parent/build.log" 2>&1 || { cat "$parent/build.log" >&2; exit 1; }

if [ "$load" -eq 1 ]; then
  if command -v stress-ng >/dev/null; then
    setsid stress-ng --cpu 2 --quiet &
    load_pids+=("-$!")
    load_name='stress-ng --cpu 2'
  else
    yes >/dev/null &
    load_pids+=("$!")
    yes >/dev/null &
    load_pids+=("$!")
    load_name='two yes >/dev/null'
  fi
  echo "flake-hunt: CPU load: $load_name"
fi

results="$parent/results"
mkdir -p "$results"
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s)
  status=0
  # Its own process group, so an interrupted hunt takes vitest's workers and their children along.
  CI=true setsid npx vitest run --reporter=default --reporter=json --outputFile.json="$results/run-$i.json" "${name_filter[@]}" "${files[@]}" >"$results/run-$i.log" 2>&1 &
  test_pgid=$!
  wait "$test_pgid" || status=$?
  test_pgid=''
  seconds=$(($(date +%s) - start))
  echo "$i $status $seconds" >>"$results/runs.txt"
  echo "flake-hunt: run $i/$runs: exit $status, ${seconds}s"
  if [ -n "$logs" ]; then cp "$results/run-$i.log" "$logs/run-$i.log"; cp "$results/run-$i.json" "$logs/run-$i.json" 2>/dev/null || true; fi
done

node - "$results" "$runs" <<'EOF'
// Summary: runs, failed runs, wall times, and each failing test with how often it failed.
const { readFileSync, existsSync } = require('node:fs')
const { relative } = require('node:path')
const [dir, total] = process.argv.slice(2)
const runs = readFileSync(`${dir}/runs.txt`, 'utf8').trim().split('\n').map((line) => line.split(' ').map(Number))
const failures = new Map()
let failedRuns = 0
for (const [i, status, seconds] of runs) {
  const file = `${dir}/run-${i}.json`
  if (status !== 0) failedRuns++
  if (!existsSync(file)) {
    if (status !== 0) failures.set(`(run ${i}: no report; see its log)`, { count: 1, first: '' })
    continue
  }
  const report = JSON.parse(readFileSync(file, 'utf8'))
  for (const suite of report.testResults) {
    const name = relative(process.cwd(), suite.name)
    const failed = suite.assertionResults.filter((test) => test.status === 'failed')
    if (failed.length === 0 && suite.status === 'failed') failed.push({ fullName: '(file failed to run)', failureMessages: [suite.message ?? ''] })
    for (const test of failed) {
      const key = `${name} > ${test.fullName}`
      const seen = failures.get(key) ?? { count: 0, first: (test.failureMessages[0] ?? '').split('\n').slice(0, 3).join(' | ') }
      seen.count++
      failures.set(key, seen)
    }
  }
}
const times = runs.map(([, , seconds]) => seconds)
console.log(`\nflake-hunt summary: ${runs.length}/${total} runs, ${failedRuns} failed; wall time per run ${times.join('s, ')}s (max ${Math.max(...times)}s)`)
if (failures.size === 0) console.log('no test failed')
for (const [key, { count, first }] of [...failures].toSorted((a, b) => b[1].count - a[1].count)) {
  console.log(`  ${count}x ${key}`)
  if (first !== '') console.log(`       ${first.slice(0, 300)}`)
}
EOF
[ "$(awk '$2 != 0' "$results/runs.txt" | wc -l)" -eq 0 ]
}

main "$@"
