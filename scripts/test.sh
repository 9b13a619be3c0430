#!/usr/bin/env bash
# The whole gate: build, typecheck, lint, unit tests of every package, the published package on
# every supported Node, e2e in Chromium.
# Every step runs even when an earlier one fails, so one report shows everything; the last line
# is "N passed, N failed, N skipped", counted from the runners' JSON reports.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf reports && mkdir -p reports/screenshots
status=0
step() { echo "── $1"; shift; "$@" || { echo "✗ failed: $*"; status=1; }; }

step build pnpm run build
step typecheck pnpm run typecheck
step lint pnpm run lint
vitest_in() { (cd "$1" && npx vitest run --passWithNoTests --reporter=default --reporter=json --outputFile.json="../../reports/unit-$2.json"); }
step "unit: packages/protocol" vitest_in packages/protocol protocol
# The proxy's two lanes side by side, one file at a time each (apps/proxy/vitest.config.ts): the
# files that load the machine on their own never run beside one another. Each lane's output is
# printed whole once both are done.
proxy_lanes() {
  MCPSCOPE_TEST_LANE=heavy vitest_in apps/proxy proxy-heavy > reports/unit-proxy-heavy.log 2>&1 &
  local heavy=$!
  MCPSCOPE_TEST_LANE=light vitest_in apps/proxy proxy-light > reports/unit-proxy-light.log 2>&1
  local light_status=$?
  wait "$heavy"
  local heavy_status=$?
  cat reports/unit-proxy-heavy.log reports/unit-proxy-light.log
  [ "$heavy_status" -eq 0 ] && [ "$light_status" -eq 0 ]
}
step "unit: apps/proxy (heavy and light lanes)" proxy_lanes
step "unit: apps/web" vitest_in apps/web web
# The published package: packed, installed with npm into a temporary prefix and run under Node 20,
# 22 and 24 (release/test/package.test.ts; Node binaries from the npm registry, cached).
step "package: npm install + smoke on Node 20, 22, 24" bash -c "cd release && npx vitest run --reporter=default --reporter=json --outputFile.json=../reports/release.json"
step e2e bash -c "cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/e2e.json npx playwright test --reporter=list,json"
# The bench is not a test, but its smoke mode (tiny sizes) proves every benchmark still runs.
step "bench smoke" node --import tsx bench/run.ts --smoke
node scripts/summary.mjs reports/*.json || status=1
exit $status
