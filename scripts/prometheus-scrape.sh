#!/usr/bin/env bash
# Once, by hand: a real Prometheus (Debian's package `prometheus`) scrapes a running `svc serve` on
# the demo data, with the alert rules of deploy/prometheus/svc-alerts.yml, and prints what it saw.
# Everything lives in a temporary folder and is removed at the end; ports: $PORT (API, 18080),
# $METRICS_PORT (18081), $PROM_PORT (19090).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v prometheus >/dev/null || { echo "prometheus is not installed: apt-get install prometheus" >&2; exit 69; }
PORT="${PORT:-18080}" METRICS_PORT="${METRICS_PORT:-18081}" PROM_PORT="${PROM_PORT:-19090}"
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export SVC_DATABASE_URL="sqlite:$work/svc.db" SVC_LOG_LEVEL=warn
bin/svc db migrate >/dev/null 2>&1
bin/svc fixtures load fixtures/demo.json >/dev/null 2>&1
bin/svc sync >/dev/null 2>&1     # records a run in sync_runs, as cron would

bin/svc serve --port "$PORT" --metrics-port "$METRICS_PORT" > "$work/serve.log" 2>&1 &
pids+=($!)
cat > "$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $PWD/deploy/prometheus/svc-alerts.yml
scrape_configs:
  - job_name: svc
    static_configs:
      - targets: ['127.0.0.1:$METRICS_PORT']
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" > "$work/prometheus.log" 2>&1 &
pids+=($!)

query() { curl -s --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1"; }
for _ in $(seq 1 60); do
  curl -s "http://127.0.0.1:$PORT/_internal/health" >/dev/null 2>&1 || true
  if query 'up{job="svc"} == 1' 2>/dev/null | grep -q '"value"'; then break; fi
  sleep 1
done
sleep 3   # a few more scrapes after the health calls
echo "targets:"
curl -s "http://127.0.0.1:$PROM_PORT/api/v1/targets" | node -e '
  const t = JSON.parse(require("fs").readFileSync(0, "utf8")).data.activeTargets;
  for (const x of t) console.log(`  ${x.scrapeUrl} health=${x.health} lastError=${JSON.stringify(x.lastError)}`);'
for q in 'up{job="svc"}' 'svc_outbox_pending_events' 'svc_outbox_due_events' 'svc_dead_letters' \
  'svc_sync_last_run_outcome == 1' 'svc_sync_last_run_events' 'time() - svc_sync_last_finished_timestamp_seconds' \
  'sum by (route, status) (svc_http_requests_total)' 'count({job="svc", __name__=~"svc_.*"})'; do
  echo "$q:"
  query "$q" | node -e '
    const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
    if (r.status !== "success") { console.log("  error:", r.error); process.exit(0); }
    for (const s of r.data.result) { const { __name__, instance, job, ...l } = s.metric; console.log(`  ${JSON.stringify(l)} ${s.value[1]}`); }'
done
echo "promtool check metrics on the scrape, as served:"
curl -s "http://127.0.0.1:$METRICS_PORT/metrics" | promtool check metrics && echo "  no problem found"
echo "alert rules:"
curl -s "http://127.0.0.1:$PROM_PORT/api/v1/rules" | node -e '
  const g = JSON.parse(require("fs").readFileSync(0, "utf8")).data.groups;
  for (const x of g) for (const r of x.rules) console.log(`  ${r.name}: health=${r.health} state=${r.state}`);'
