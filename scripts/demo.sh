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
# One live demo key: issuing it again revokes the one an earlier demo printed (label "demo").
key=$(bin/svc admin issue-key --partner ptn_northsea_mgmt --mode live --label demo --replace 2>/dev/null | tail -n 1)
port="${SVC_PORT:-8080}"
receiver_port="${DEMO_RECEIVER_PORT:-8787}"
cat <<EOF

The demo serves on http://127.0.0.1:$port with the store $SVC_DATABASE_URL.

In another shell, so that bin/svc works on the demo store and may deliver webhooks to a receiver
on loopback over http (local testing only):
  export SVC_DATABASE_URL=$SVC_DATABASE_URL SVC_ALLOW_INSECURE_WEBHOOKS=1

Webhooks for ptn_northsea_mgmt go to http://127.0.0.1:$receiver_port/hooks. Start the example receiver
in a third shell (docs/webhooks.md, "Try it on the demo"):
  WEBHOOK_SECRET=whsec_ZGVtby1yZWNlaXZlci1zZWNyZXQtMDEyMzQ1Njc4 PORT=$receiver_port npx tsx examples/webhook-receiver.ts
then deliver what changed (a first run records a baseline and sends nothing):
  bin/svc sync

Demo partner key (management tier, live mode, label "demo"; an earlier demo key is revoked), shown once:
  export SVC_KEY=$key
  curl -s -H "Authorization: Bearer \$SVC_KEY" http://127.0.0.1:$port/api/v2/partners/me

EOF
exec bin/svc serve --allow-insecure-webhooks
