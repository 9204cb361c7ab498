#!/usr/bin/env bash
# One command from a fresh clone to a running API on demo data (SQLite, no other server).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export SVC_DATABASE_URL="${SVC_DATABASE_URL:-sqlite:data/demo.db}"
node scripts/ensure-deps.mjs
bin/svc db migrate                      # also installs the requirement catalogue (data/requirements.json)
bin/svc fixtures load fixtures/demo.json
key=$(bin/svc admin issue-key --partner ptn_northsea_mgmt --mode live --label demo 2>/dev/null | tail -n 1)
echo
echo "The demo store is $SVC_DATABASE_URL. For bin/svc in another shell to use it:"
echo "  export SVC_DATABASE_URL=$SVC_DATABASE_URL"
echo
echo "Demo partner key (management tier, live mode), shown once:"
echo "  export SVC_KEY=$key"
echo "  curl -s -H \"Authorization: Bearer \$SVC_KEY\" http://127.0.0.1:${SVC_PORT:-8080}/api/v2/partners/me"
echo
exec bin/svc serve --allow-insecure-webhooks
