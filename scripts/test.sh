#!/usr/bin/env bash
# The whole gate: build, typecheck, lint, unit tests of every package, e2e in Chromium.
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
for pkg in packages/protocol apps/proxy apps/web; do
  name=$(basename "$pkg")
  step "unit: $pkg" bash -c "cd $pkg && npx vitest run --passWithNoTests --reporter=default --reporter=json --outputFile.json=../../reports/unit-$name.json"
done
step e2e bash -c "cd e2e && PLAYWRIGHT_JSON_OUTPUT_NAME=../reports/e2e.json npx playwright test --reporter=list,json"
# The bench is not a test, but its smoke mode (tiny sizes) proves every benchmark still runs.
step "bench smoke" node --import tsx bench/run.ts --smoke
node scripts/summary.mjs reports/*.json || status=1
exit $status
