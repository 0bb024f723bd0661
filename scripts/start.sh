#!/usr/bin/env bash
# `npm start`: provision what is missing, migrate, build, and run every service
# with local providers until Ctrl-C.
set -euo pipefail
export TURBO_TELEMETRY_DISABLED=1
cd "$(dirname "$0")/.."
bash scripts/provision.sh
echo "[start] building"
npx turbo run build --output-logs=errors-only
echo "[start] migrating"
node packages/schema/dist/cli.js
exec node scripts/run-services.mjs
