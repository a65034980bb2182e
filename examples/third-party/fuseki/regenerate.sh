#!/usr/bin/env bash
# Regenerates policies/generated.yaml by the documented workflow (README.md of the project,
# "Choosing control points from a profile"): profile one aggregate on Fuseki with
# `qosweaver profile`, time the same aggregate on Fuseki without the agent, then
# `qosweaver pointcuts PROFILE --interval 10ms --max-occurrence 100000 --into`. The profile's times are
# the application's own (the agent takes the probe's cost and the time off the CPU out), so no
# slowdown is passed; the aggregate is still timed without the agent, to print how far the recorded
# one was stretched. (The committed generated.yaml was made before the agent did this, with the
# slowdown measured by hand, 32.5, passed as --profile-slowdown: see README.md.)
# Needs curl. Takes about two minutes; writes its scratch files to run/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
jar="$("$here/fetch.sh")"
work="$here/run/profile"
rm -rf "$work" && mkdir -p "$work"
"$root/qosweaver" bench mixed --app fuseki --prepare "$work" >&2
port=3391
mport=9491
query='PREFIX ex: <http://example.org/> SELECT ?cat (COUNT(*) AS ?n) (AVG(?price) AS ?avg) WHERE { ?s ex:category ?cat ; ex:price ?price } GROUP BY ?cat ORDER BY DESC(?n)'
aggregate() { curl -s -o /dev/null -w '%{time_total}\n' -G --data-urlencode "query=$query" "http://127.0.0.1:$port/ds/analytics"; }
await_ready() { for _ in $(seq 1 240); do curl -sf -o /dev/null "http://127.0.0.1:$port/\$/ping" && return 0; sleep 0.5; done; echo "Fuseki did not start" >&2; return 1; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# 1. the aggregate without the agent: 10 to warm up, the median of 5
(cd "$work" && exec java -Xmx2g -jar "$jar" --port=$port --config=config.ttl >"$work/plain.log" 2>&1) &
pid=$!
await_ready
for _ in $(seq 1 10); do aggregate >/dev/null; done
plain=$(for _ in $(seq 1 5); do aggregate; done | median)
kill "$pid"; wait "$pid" 2>/dev/null || true

# 2. the same aggregate profiled: woven but paused while 10 warm it up, then one recorded
(cd "$work" && exec "$root/qosweaver" profile --include org.apache.jena.sparql,org.apache.jena.atlas,org.apache.jena.mem \
    --out "$work/aggregate.qwp" --start-paused --metrics-port $mport -- \
    java -Xmx2g -jar "$jar" --port=$port --config=config.ttl >"$work/profiled.log" 2>&1) &
pid=$!
await_ready
for _ in $(seq 1 10); do aggregate >/dev/null; done
curl -sf -X POST "http://127.0.0.1:$mport/profile/start" >/dev/null
profiled=$(aggregate)
curl -sf -X POST "http://127.0.0.1:$mport/profile/stop" >/dev/null
# the CLI runs Fuseki as its child: stop that JVM (found by its own arguments), the CLI then returns
pkill -f -- "--port=$port --config=config.ttl" || true
wait "$pid" 2>/dev/null || true

slowdown=$(awk -v a="$profiled" -v b="$plain" 'BEGIN {printf "%.1f", a / b}')
echo "aggregate: ${plain} s without the agent, ${profiled} s recorded (${slowdown}x; the profile's time base takes that out)" >&2
"$root/qosweaver" pointcuts "$work/aggregate.qwp" --interval 10ms --max-occurrence 100000 \
    --into "$here/policies/generated.yaml"
