#!/usr/bin/env bash
# Regenerates policies/generated.yaml by the documented workflow (README.md of the project,
# "Choosing control points from a profile"): profile one heavy request (a PUT of the generated
# 100-page PDF to /tika) on Tika server with `qosweaver profile`, time the same request on Tika
# without the agent, then `qosweaver pointcuts PROFILE --interval 10ms --max-occurrence 1000
# --cover-all --into policies/generated.yaml`. The profile's times are the application's own (the
# agent takes the probe's cost and the time off the CPU out), so no slowdown is passed; the request
# is timed without the agent only to print how far the recorded one was stretched.
# Needs curl. Takes about two minutes; writes its scratch files to run/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
jar="$("$here/fetch.sh")"
work="$here/run/profile"
rm -rf "$work" && mkdir -p "$work"
"$root/qosweaver" bench mixed --app tika --prepare "$work" >&2
port=3392
mport=9492
extract() { curl -sf -o /dev/null -w '%{time_total}\n' -X PUT -H 'Content-Type: application/pdf' \
    --data-binary "@$work/heavy.pdf" "http://127.0.0.1:$port/tika"; }
await_ready() { for _ in $(seq 1 240); do curl -sf -o /dev/null "http://127.0.0.1:$port/version" && return 0; sleep 0.5; done; echo "Tika did not start" >&2; return 1; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# the JVM listening on $port: the server itself, also when the CLI runs it as its child
server_pid() { ss -Htlnp "sport = :$port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1; }

# 1. the request without the agent: 20 to warm up, the median of 9
(cd "$work" && exec java -Xmx2g -jar "$jar" -h 127.0.0.1 -p $port >"$work/plain.log" 2>&1) &
pid=$!
await_ready
for _ in $(seq 1 20); do extract >/dev/null; done
plain=$(for _ in $(seq 1 9); do extract; done | median)
kill "$pid"; wait "$pid" 2>/dev/null || true

# 2. the same request profiled: woven but paused while 20 warm it up, then one recorded
(cd "$work" && exec "$root/qosweaver" profile --include org.apache.tika,org.apache.pdfbox,org.apache.fontbox \
    --out "$work/extract.qwp" --start-paused --metrics-port $mport -- \
    java -Xmx2g -jar "$jar" -h 127.0.0.1 -p $port >"$work/profiled.log" 2>&1) &
pid=$!
await_ready
for _ in $(seq 1 20); do extract >/dev/null; done
curl -sf -X POST "http://127.0.0.1:$mport/profile/start" >/dev/null
profiled=$(extract)
curl -sf -X POST "http://127.0.0.1:$mport/profile/stop" >/dev/null
# the CLI runs Tika as its child: stop that JVM (found by its port), the CLI then returns
server="$(server_pid)"
[ -n "$server" ] && kill "$server"
wait "$pid" 2>/dev/null || true

stretch=$(awk -v a="$profiled" -v b="$plain" 'BEGIN {printf "%.1f", a / b}')
echo "extract: ${plain} s without the agent, ${profiled} s recorded (${stretch}x; the profile's time base takes that out)" >&2
"$root/qosweaver" pointcuts "$work/extract.qwp" --interval 10ms --max-occurrence 1000 --cover-all \
    --into "$here/policies/generated.yaml"
