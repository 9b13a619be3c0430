#!/usr/bin/env bash
# The whole gate: build, typecheck, lint, unit tests of every package, the published package on
# every supported Node, e2e in Chromium.
# Every step runs even when an earlier one fails, so one report shows everything; the last line
# is "N passed, N failed, N skipped", counted from the runners' JSON reports.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf reports && mkdir -p reports/screenshots
status=0
# The machine's CPU ticks so far, busy and all (every core; /proc/stat's first line).
cpu_ticks() { awk '/^cpu /{ print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat 2>/dev/null || echo "0 0"; }
# How busy the machine's cores were since `cpu_ticks` printed $1 $2 (100 % = every core busy).
cpu_busy_since() {
  read -r busy all < <(cpu_ticks)
  [ "$all" -gt "$2" ] && echo ", $(( (busy - $1) * 100 / (all - $2) )) % of the cores busy" || true
}
# Each step ends with its wall time and how busy the cores were meanwhile, so the log shows where
# the gate's minutes go and which steps leave a core idle.
step() {
  local name=$1 started=$SECONDS ticks
  ticks=$(cpu_ticks)
  echo "── $name"
  shift
  "$@" || { echo "✗ failed: $*"; status=1; }
  echo "── $name: $((SECONDS - started)) s$(cpu_busy_since $ticks)"
}

# A step no runner writes a report for (build, typecheck, lint, the bench's smoke run): its
# failure counts as one failed test in the closing line, so "0 failed" means every step passed.
unreported_failures=0
unreported() { "$@" || { unreported_failures=$((unreported_failures + 1)); return 1; }; }

gate_ticks=$(cpu_ticks)
step build unreported pnpm run build
step typecheck unreported pnpm run typecheck
step lint unreported pnpm run lint
vitest_in() { (cd "$1" && npx vitest run --passWithNoTests --reporter=default --reporter=json --outputFile.json="../../reports/unit-$2.json"); }
# A step started in the background, beside the steps that follow it: its output goes to
# reports/NAME.log and is printed whole by `background_wait NAME`, the step that waits for it
# (so lines of steps running side by side never interleave).
declare -A background_pid background_started
background_start() {
  local name=$1
  shift
  background_started[$name]=$SECONDS
  "$@" > "reports/$name.log" 2>&1 &
  background_pid[$name]=$!
}
background_wait() {
  local name=$1
  wait "${background_pid[$name]}"
  local code=$?
  cat "reports/$name.log"
  echo "── $name ran $((SECONDS - background_started[$name])) s in all"
  return "$code"
}

# The proxy's heavy lane (apps/proxy/vitest.config.ts: the files that load the machine on their
# own, one at a time) runs in the background while the other unit suites run one after another
# beside it: the proxy's light lane (also one file at a time), then protocol and web. So a heavy
# file never shares the machine with another heavy file, and the light suites fill the time the
# heavy lane takes.
heavy_lane() { MCPSCOPE_TEST_LANE=heavy vitest_in apps/proxy proxy-heavy; }
light_lane() { MCPSCOPE_TEST_LANE=light vitest_in apps/proxy proxy-light; }
background_start unit-proxy-heavy heavy_lane
step "unit: apps/proxy (light lane, beside the heavy lane)" light_lane
step "unit: packages/protocol (beside the heavy lane)" vitest_in packages/protocol protocol
step "unit: apps/web (beside the heavy lane)" vitest_in apps/web web
step "unit: apps/proxy (heavy lane, waited for once the others are done)" background_wait unit-proxy-heavy

# e2e runs one spec file at a time (e2e/playwright.config.ts), which keeps about one core busy; the
# package and bench steps use the other one beside it.
e2e_specs() { (cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/e2e.json npx playwright test --reporter=list,json); }
background_start e2e e2e_specs
# The published package: packed, installed with npm into a temporary prefix and run under Node 20,
# 22 and 24 (release/test/package.test.ts; Node binaries from the npm registry, cached).
step "package: npm install + smoke on Node 20, 22, 24 (beside e2e)" bash -c "cd release && npx vitest run --reporter=default --reporter=json --outputFile.json=../reports/release.json"
# The bench is not a test, but its smoke mode (tiny sizes) proves every benchmark still runs.
step "bench smoke (beside e2e)" unreported node --import tsx bench/run.ts --smoke
step "e2e (waited for once the others are done)" background_wait e2e
echo "── the whole gate: $SECONDS s$(cpu_busy_since $gate_ticks)"
GATE_UNREPORTED_FAILURES=$unreported_failures node scripts/summary.mjs reports/*.json || status=1
exit $status
