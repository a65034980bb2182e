#!/usr/bin/env bash
# One hand run of the JIT-after-unweave check (bench/results/swap/jit-2026-11-27/README.md): the
# river monitor under the agent and the importance policy, 40 closed-loop curl chart clients,
# `qosweaver ctl PID unweave` at 50 s, charts completed per 10 s for 150 s; the JVM prints its
# compilations (-XX:+PrintCompilation) into app.log. BOOST=0 turns the compiler boost off.
# Usage (project root, after ./mvnw install -DskipTests): run.sh OUTDIR
set -u
out=$1; boost=${BOOST:-30}; mkdir -p "$out"
java -Xlog:gc:file="$out/gc.log" -XX:+PrintCompilation -Dqosweaver.jitBoostSeconds="$boost" \
  -javaagent:agent/target/qosweaver-agent.jar=policy=examples/policies/river-monitor.yaml,metricsPort=0 \
  -jar examples/river-monitor/target/river-monitor.jar --port 18080 --generator-port 0 --period 15 --rivers 900 \
  --history-hours 12 > "$out/app.log" 2>&1 &
pid=$!
for i in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:18080/chart?river=1&hours=12" && break; sleep 1; done
: > "$out/charts.log"
for c in $(seq 40); do
  ( while kill -0 $pid 2>/dev/null; do
      curl -sf -o /dev/null "http://127.0.0.1:18080/chart?river=$(( (RANDOM % 900) + 1 ))&hours=12" \
        && date +%s.%N >> "$out/charts.log"
    done ) &
done
prev=0
for t in $(seq 10 10 150); do
  sleep 10
  n=$(wc -l < "$out/charts.log"); echo "t=$t charts=$((n - prev))"; prev=$n
  [ $t -eq 50 ] && ( ./qosweaver ctl $pid unweave > "$out/ctl.log" 2>&1 & )
done | tee "$out/charts-per-10s.txt"
kill $pid; wait 2>/dev/null
# the compilations around the unweave: methods made not entrant within 0.7 s of it, C2 compilations per 5 s after
t=$(awk '/unwoven/ {print prev; exit} {prev=$1}' "$out/app.log")
awk -v T="$t" '$1>=T-700 && $1<=T+700 && /made not entrant/ {n++}
  $1>T+700 && $3==4 && !/made not/ {c[int(($1-T)/5000)]++}
  END {printf "unweave at %d ms of uptime; made not entrant around it: %d; C2 compilations per 5 s after:", T, n;
       for (k=0;k<12;k++) printf " %d", c[k]; print ""}' "$out/app.log" | tee "$out/jit.txt"
gzip -f "$out/app.log"
