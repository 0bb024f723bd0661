#!/usr/bin/env bash
# `npm test`: the same provisioning as `npm start`, then every check and test:
# build, typecheck, lint and the formatting check (as `npm run lint`), the committed OpenAPI document, unit and integration
# tests of each package, then the end-to-end suites against the built services.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
bash scripts/provision.sh
rm -rf .test-results && mkdir -p .test-results
export VITEST_RESULTS_DIR="$PWD/.test-results"
status=0
run() { echo "[test] $*"; "$@" || status=1; }
run npx turbo run build --output-logs=errors-only
run npx turbo run typecheck --output-logs=errors-only
# The evaluations are no workspace: typechecked here so an API change cannot break them unseen.
run npx tsc -p eval/tsconfig.json
run npx eslint .
run npx prettier --check .
run npx turbo run test --filter='!@reports/e2e' --concurrency=2 --continue
run npx turbo run test --filter=@reports/e2e --concurrency=1 --continue
node scripts/test-summary.mjs "$VITEST_RESULTS_DIR" || status=1
exit $status
