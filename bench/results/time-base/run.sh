#!/usr/bin/env bash
# The profile's time base on the river monitor, the documented workflow: `qosweaver profile --request`
# times the 12 h chart on the app without the agent (5 charts after 10), profiles it (three recordings of
# 5 charts: thrown away, measuring the probe's cost beyond the agent's estimate, kept) and prints what it
# measured. Then: the chart thread's CPU per chart from the app's debug log (without the agent, and in the
# kept recording) and the kept profile's timelines in the profile's time, which should add up to the
# unprofiled charts' CPU. About 1 minute. Run from the project root's parent or anywhere; builds what
# ./qosweaver builds.
set -u
cd "$(dirname "$0")/../../.."
W="${TMPDIR:-/tmp}/qosweaver-time-base"; rm -rf "$W"; mkdir -p "$W"
./qosweaver profile --include org.jfree+org.rivermonitor.chart+org.rivermonitor.web+sun.java2d.marlin+com.sun.imageio.plugins.png \
  --out "$W/chart.qwp" --request 'curl -sf -o /dev/null "http://127.0.0.1:8555/chart?river=1&hours=12"' --requests 5 --warm-up 10 -- \
  java -Xshare:off -Dorg.slf4j.simpleLogger.log.org.rivermonitor.web.ChartServlet=debug \
  -jar examples/river-monitor/target/river-monitor.jar --port 8555 --generator-port 0 --no-collector --rivers 10 --history-hours 12 --period 15
cpu() { grep -o 'hours=12.*cpu_ms=[0-9]*' "$1" | grep -o 'cpu_ms=[0-9]*' | cut -d= -f2 | tail -"$2" | tr '\n' ' '; }
echo "chart thread cpu_ms without the agent (the 5 measured): $(cpu "$W/chart.qwp.reference.log" 5)"
echo "chart thread cpu_ms, the kept recording's 5 charts:    $(cpu "$W/chart.qwp.profiled.log" 5)"
grep "time base" "$W/chart.qwp.profiled.log" | sed 's/.*time base: //' | tail -1
java -cp pointcuts/target/classes:policy-model/target/classes bench/results/time-base/Span.java "$W/chart.qwp"
