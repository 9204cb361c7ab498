#!/usr/bin/env bash
# One command from a fresh clone to a running API on demo data (SQLite, no other server).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export SVC_DATABASE_URL="${SVC_DATABASE_URL:-sqlite:data/demo.db}"
node scripts/ensure-deps.mjs
bin/svc db migrate                      # also installs the requirement catalogue (data/requirements.json)
bin/svc fixtures load fixtures/demo.json
# The demo partner's webhook endpoint: the example receiver on loopback, with the secret it verifies
# (docs/webhooks.md, "Try it on the demo"). Registering it again with the same values changes nothing.
SVC_ALLOW_INSECURE_WEBHOOKS=1 bin/svc admin register-webhook --partner ptn_northsea_mgmt \
  --url "http://127.0.0.1:${DEMO_RECEIVER_PORT:-8787}/hooks" \
  --events crew.document.processed,crew.document.updated,crew.compliance.changed,crew.status.changed,crew.profile.updated \
  --secret whsec_ZGVtby1yZWNlaXZlci1zZWNyZXQtMDEyMzQ1Njc4 >/dev/null
key=$(bin/svc admin issue-key --partner ptn_northsea_mgmt --mode live --label demo 2>/dev/null | tail -n 1)
echo
echo "The demo store is $SVC_DATABASE_URL. For bin/svc in another shell to use it:"
echo "  export SVC_DATABASE_URL=$SVC_DATABASE_URL"
echo
echo "Webhooks for ptn_northsea_mgmt go to http://127.0.0.1:${DEMO_RECEIVER_PORT:-8787}/hooks (docs/webhooks.md, \"Try it on the demo\")."
echo
echo "Demo partner key (management tier, live mode), shown once:"
echo "  export SVC_KEY=$key"
echo "  curl -s -H \"Authorization: Bearer \$SVC_KEY\" http://127.0.0.1:${SVC_PORT:-8080}/api/v2/partners/me"
echo
exec bin/svc serve --allow-insecure-webhooks
