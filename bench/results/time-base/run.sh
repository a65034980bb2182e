#!/usr/bin/env bash
# The agent's time base on the river monitor: the same 12 h chart timed on the app without the agent
# (its request thread's CPU, from the app's debug log; 25 charts, the last 10 kept) and recorded three
# times by the profiling agent (its defaults: slot summaries, the probe's cost and the time off the CPU
# taken out); prints the CPU times, the agent's account of what it took out, and the recorded timelines'
# spans in the profile's time. About 2 minutes. Run from anywhere; needs the agent and river-monitor jars.
set -u
cd "$(dirname "$0")/../../.."
W="${TMPDIR:-/tmp}/qosweaver-time-base"; mkdir -p "$W"
D="-Dorg.slf4j.simpleLogger.log.org.rivermonitor.web.ChartServlet=debug"
APP=(-jar examples/river-monitor/target/river-monitor.jar --port 8555 --generator-port 0 --no-collector --rivers 10 --history-hours 12 --period 15)
wait_up() { for i in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:8555/chart?river=1&hours=3" && return; sleep 1; done; }
# unprofiled
java -Xshare:off $D "${APP[@]}" > $W/plain.log 2>&1 & pid=$!
wait_up
for i in $(seq 1 25); do curl -s -o /dev/null "http://127.0.0.1:8555/chart?river=1&hours=12"; done
kill $pid; wait $pid 2>/dev/null
echo "unprofiled cpu_ms (last 10): $(grep -o 'hours=12.*cpu_ms=[0-9]*' $W/plain.log | grep -o 'cpu_ms=[0-9]*' | tail -10 | cut -d= -f2 | tr '\n' ' ')"
rm -rf $W/p && mkdir -p $W/p
java -Xshare:off $D "-javaagent:agent/target/qosweaver-agent.jar=profile=$W/p/chart.qwp,include=org.jfree+org.rivermonitor.chart+org.rivermonitor.web+sun.java2d.marlin+com.sun.imageio.plugins.png,start=paused,metricsPort=9555" "${APP[@]}" > $W/app.log 2>&1 & pid=$!
wait_up
for i in 1 2 3; do curl -s -o /dev/null "http://127.0.0.1:8555/chart?river=1&hours=12"; done
for i in 1 2 3; do
  curl -sf -X POST http://127.0.0.1:9555/profile/start >/dev/null
  curl -s -o /dev/null "http://127.0.0.1:8555/chart?river=1&hours=12"
  curl -sf -X POST http://127.0.0.1:9555/profile/stop >/dev/null
done
kill $pid; wait $pid 2>/dev/null
echo "recorded cpu_ms: $(grep -o 'hours=12.*cpu_ms=[0-9]* wall_ms=[0-9]*' $W/app.log | tail -3 | grep -o 'cpu_ms=[0-9]* wall_ms=[0-9]*' | tr '\n' ' ')"
grep "time base" $W/app.log | sed 's/.*time base: //' | tail -3
for f in $W/p/chart-2.qwp $W/p/chart-3.qwp; do java -cp pointcuts/target/classes:policy-model/target/classes bench/results/time-base/Span.java "$f"; done
