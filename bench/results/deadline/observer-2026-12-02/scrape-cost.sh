#!/usr/bin/env bash
# The woven river monitor's CPU with and without back-to-back GET /metrics, in alternating 20 s
# windows (after a 60 s settle), from /proc/PID/stat (utime + stime, clock ticks of 10 ms).
# Usage: bench/results/deadline/observer-2026-12-02/scrape-cost.sh [ROUNDS]   (from the repository root)
set -euo pipefail
rounds="${1:-4}"
log="$(mktemp)"
java -Djava.awt.headless=true \
  "-javaagent:agent/target/qosweaver-agent.jar=policy=examples/policies/versions/capped-at-entry.yaml,metricsPort=0" \
  -jar examples/river-monitor/target/river-monitor.jar --port 0 --generator-port 0 --period 1.2 >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 60); do grep -q "metrics on" "$log" && break; sleep 1; done
url="$(grep -o 'metrics on http://[^ ]*' "$log" | head -1 | cut -d' ' -f3)"
[ -n "$url" ] || { echo "no metrics line in the app's output" >&2; cat "$log" >&2; exit 1; }
echo "app pid $pid, $url, $(curl -s "$url" | wc -c) bytes per answer; settling 60 s"
sleep 60
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
for r in $(seq "$rounds"); do
  a=$(cpu); sleep 20; b=$(cpu); idle=$((b - a))
  a=$(cpu); n=0; end=$((SECONDS + 20))
  while [ $SECONDS -lt $end ]; do curl -s -o /dev/null "$url"; n=$((n + 1)); done
  b=$(cpu); busy=$((b - a))
  awk -v r="$r" -v i="$idle" -v s="$busy" -v n="$n" 'BEGIN {
    printf "round %d: idle 20 s %d ticks; %d scrapes in 20 s %d ticks; extra %.2f ms CPU per scrape\n",
      r, i, n, s, (s - i) * 10 / n }'
done
