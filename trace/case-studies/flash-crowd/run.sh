#!/usr/bin/env bash
# The river monitor's flash crowd under QoSWeaver, traced (issue 17's second case study):
# the importance policy with its generated control points, a collection every PERIOD, and CLIENTS
# closed-loop chart clients (curl loops); after WARM seconds of the crowd the tracer attaches for
# TRACED seconds. Writes OUT.pftrace and OUT.html (default: flash-crowd.* here).
# Usage: trace/case-studies/flash-crowd/run.sh [OUT]   (from anywhere; builds what is missing)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-$here/flash-crowd}"
CLIENTS="${CLIENTS:-40}" WARM="${WARM:-15}" TRACED="${TRACED:-8}" PERIOD="${PERIOD:-3s}" RIVERS="${RIVERS:-200}"
cd "$root"
[ -f examples/river-monitor/target/river-monitor.jar ] || ./mvnw -q -B -DskipTests package -f examples/river-monitor/pom.xml
port_file="$(mktemp)" log="$(mktemp)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -f "$port_file" "$log"' EXIT
# Started under the agent with the policy; the tracer attaches once the crowd is on, so that the
# trace holds the crowd only (not the start-up's seeding of the history).
# POLICY=none runs the unmodified monitor (no agent until the tracer attaches), for comparison.
POLICY="${POLICY:-examples/policies/river-monitor.yaml}"
if [ "$POLICY" = none ]; then launch=(); else launch=(./qosweaver run --policy "$POLICY" --); fi
"${launch[@]}" java -Xmx2g -jar examples/river-monitor/target/river-monitor.jar --port 0 --generator-port 0 \
    --rivers "$RIVERS" --period "$PERIOD" --history-hours 12 >"$port_file" 2>"$log" &
app=$!
for _ in $(seq 1 1500); do
    grep -q 'listening on' "$port_file" 2>/dev/null && break
    sleep 0.2
done
url="$(grep -o 'http://127.0.0.1:[0-9]*' "$port_file" | head -1)"
[ -n "$url" ] || { cat "$log" >&2; echo "the river monitor did not start" >&2; exit 1; }
# The agent names the JVM's pid in its control-socket line; without it, the java process is $app.
pid="$(grep -o 'qosweaver ctl [0-9]*' "$log" | head -1 | grep -o '[0-9]*$' || true)"
pid="${pid:-$app}"
echo "river monitor at $url; $CLIENTS chart clients, ${WARM}s of warm-up, then ${TRACED}s traced" >&2
end=$((SECONDS + WARM + TRACED + 2))
for c in $(seq 1 "$CLIENTS"); do
    ( while [ "$SECONDS" -lt "$end" ]; do
        curl -s -o /dev/null --max-time 60 "$url/chart?river=$(( (RANDOM % RIVERS) + 1 ))&hours=12" || true
      done ) &
done
sleep "$WARM"
./qosweaver trace "$pid" --duration "${TRACED}s" --out "$out.pftrace"
wait $(jobs -p | grep -v "^$app\$") 2>/dev/null || true
kill "$pid" 2>/dev/null || true
wait "$app" 2>/dev/null || true
cp "$log" "$out.app.log" # the JVM's stderr: the agent's lines and the tracer's 'trace written:'
ls -la "$out".*
