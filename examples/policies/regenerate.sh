#!/usr/bin/env bash
# Regenerates examples/policies/river-monitor.yaml with the real tools: the river monitor
# profiled with the agent (`qosweaver profile`, the JDK's Marlin renderer and PNG writer included),
# several 12 h charts recorded one by one over the agent's HTTP control, then control points
# generated from those profiles (`qosweaver pointcuts`). The task classes and the policy are
# copied from examples/policies/handwritten/river-monitor.yaml (the same policy with control points
# chosen by hand, kept as the bench version `qosweaver-handwritten`); only the control points are
# generated. The versions under examples/policies/versions/ get the same control points, so that
# every version of the bench weaves the same join points.
#
#   examples/policies/regenerate.sh            # from anywhere; about 3 minutes
#
# Environment: CHARTS (charts profiled, one river each; default 3), INTERVAL (default 10ms),
# MAX_OCCURRENCE (default 3000 x CHARTS), SLOWDOWN (the generator's --profile-slowdown, default 1:
# profile time taken as real time, as for the committed policy; a recorded 12 h chart takes about 23
# times as long as on the app without the agent, so with 1 the control points come about 20 times
# more often than INTERVAL says; see pointcuts/README.md), INCLUDE (packages, '+'-separated), OUT (the policy
# written), GEN_HEAP (the generator's -Xmx, default 6g), KEEP=1 keeps the work directory (profiles
# of about 200 MB per chart, logs, the generator's report).
set -euo pipefail

ROOT="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

CHARTS="${CHARTS:-3}"
INTERVAL="${INTERVAL:-10ms}"
# The river monitor draws at most 3,000 points per chart: with m = 3000 per profiled chart the
# loops over the points and over the rows of the Marlin and PNG phases are eligible; with m = 1 only
# calls made once per chart (and, with several charts, in only one of them) are.
MAX_OCCURRENCE="${MAX_OCCURRENCE:-$((3000 * CHARTS))}"
SLOWDOWN="${SLOWDOWN:-1}"
# org.rivermonitor.db is not profiled as a caller: Database.window iterates its ResultSet holding a
# pooled JDBC connection, and a control point there would park a chart thread with the connection
# the collector needs (the generator only knows monitors, not pools). collector and generator are
# not the chart's code.
INCLUDE="${INCLUDE:-org.jfree+org.rivermonitor.chart+org.rivermonitor.web+sun.java2d.marlin+com.sun.imageio.plugins.png}"
OUT="${OUT:-examples/policies/river-monitor.yaml}"
HAND="examples/policies/handwritten/river-monitor.yaml"
AGENT_JAR="agent/target/qosweaver-agent.jar"
RM_JAR="examples/river-monitor/target/river-monitor.jar"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

log() { echo "[regenerate] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

command -v curl >/dev/null || die "curl is needed"
if [ ! -f "$AGENT_JAR" ] || [ ! -f "$RM_JAR" ]; then
  log "building the agent and the river monitor (./mvnw -q -B -DskipTests -pl agent,examples/river-monitor -am package)"
  ./mvnw -q -B -DskipTests -pl agent,examples/river-monitor -am package >&2
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/qosweaver-regenerate.XXXXXX")"
CLI_PID=""
cleanup() {
  if [ -n "$CLI_PID" ] && kill -0 "$CLI_PID" 2>/dev/null; then
    pkill -TERM -P "$CLI_PID" 2>/dev/null || true
    kill -TERM "$CLI_PID" 2>/dev/null || true
    wait "$CLI_PID" 2>/dev/null || true
  fi
  if [ "${KEEP:-0}" = 1 ]; then
    log "work directory kept: $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

# 1. The river monitor under the profiling agent, paused: start-up is not in the profile. Ports 0:
#    the app and the agent's control endpoint say which ports they bound.
INCLUDE_CLI="${INCLUDE//+/,}"
PROFILE_CMD=(./qosweaver profile --include "$INCLUDE_CLI" --out "$WORK/chart.qwp" --start-paused --metrics-port 0
  -- "$JAVA" -Xshare:off -Xmx1g -jar "$RM_JAR" --port 0 --generator-port 0 --rivers "$CHARTS" --history-hours 12)
log "${PROFILE_CMD[*]}"
"${PROFILE_CMD[@]}" >"$WORK/app.out" 2>"$WORK/app.err" &
CLI_PID=$!

port_of() { # FILE REGEX: the first port the regex captures in FILE
  sed -n -E "s#.*$2.*#\\1#p" "$1" 2>/dev/null | head -n 1
}
APP_PORT=""
CONTROL_PORT=""
for _ in $(seq 1 600); do
  APP_PORT="$(port_of "$WORK/app.out" 'river-monitor listening on http://127\.0\.0\.1:([0-9]+)')"
  CONTROL_PORT="$(port_of "$WORK/app.err" 'profile control on http://127\.0\.0\.1:([0-9]+)/')"
  [ -n "$APP_PORT" ] && [ -n "$CONTROL_PORT" ] && break
  kill -0 "$CLI_PID" 2>/dev/null || { cat "$WORK/app.err" >&2; die "the river monitor exited"; }
  sleep 0.2
done
[ -n "$APP_PORT" ] && [ -n "$CONTROL_PORT" ] || { cat "$WORK/app.err" >&2; die "the river monitor did not start"; }
log "river monitor on port $APP_PORT, profile control on port $CONTROL_PORT"

APP="http://127.0.0.1:$APP_PORT"
CONTROL="http://127.0.0.1:$CONTROL_PORT"
chart() { # RIVER
  curl -fsS --max-time 300 -o /dev/null -w '%{time_total}' "$APP/chart?river=$1&hours=12"
}
collections() {
  curl -fsS --max-time 10 "$APP/status/collections" | grep -o '"count":[0-9]*' | head -n 1 | cut -d: -f2
}
# A collection runs every 15 s on other threads. It competes for the CPU, which stretches the
# chart's time stamps, and with its code included (INCLUDE=...+org.rivermonitor) it is a timeline of
# its own: each chart is recorded right after a collection has ended, and a profile with more than
# one thread is recorded again.
await_collection() {
  local c0 c
  c0="$(collections)"
  for _ in $(seq 1 400); do
    sleep 0.1
    c="$(collections)"
    [ "$c" -gt "$c0" ] && return 0
  done
  die "no collection ended within 40 s"
}
profile_chart() { # RIVER -> prints the profile file on stdout if it holds exactly one thread
  local river="$1" started stopped file threads seconds
  await_collection
  started="$(curl -fsS -X POST "$CONTROL/profile/start")"
  case "$started" in recording*) ;; *) die "profile start: $started" ;; esac
  seconds="$(chart "$river")"
  stopped="$(curl -fsS -X POST "$CONTROL/profile/stop")"
  log "chart river=$river ${seconds}s while recording: $stopped"
  file="$(sed -n -E 's#^profile (.*): [0-9]+ join points, .*#\1#p' <<<"$stopped")"
  threads="$(sed -n -E 's#.* join points, ([0-9]+) threads, .*#\1#p' <<<"$stopped")"
  [ -n "$file" ] && [ -f "$file" ] || die "profile stop: $stopped"
  case "$stopped" in *PARTIAL*|*DROPPED*|*FAILED*) die "incomplete profile: $stopped" ;; esac
  if [ "$threads" = 1 ]; then
    echo "$file"
  else
    log "a collection fell into the recording ($threads threads): recording river=$river again"
    rm -f "$file"
  fi
}

# 2. Warm-up, not recorded: class loading, weaving and the JIT.
for river in 1 1; do log "warm-up chart river=$river: $(chart "$river")s"; done
# One recorded chart, not used: the first recording deoptimizes the woven code it runs.
profile_chart 1 >/dev/null || true

# 3. CHARTS charts, river 1..CHARTS, one profile file each (each file is its own timeline).
PROFILES=()
for river in $(seq 1 "$CHARTS"); do
  file=""
  for _ in 1 2 3; do
    file="$(profile_chart "$river")"
    [ -n "$file" ] && break
  done
  [ -n "$file" ] || die "could not record river=$river without a collection"
  PROFILES+=("$file")
done

# 4. Stop the application (the profiles are complete already) and let `qosweaver profile` finish.
pkill -TERM -P "$CLI_PID" 2>/dev/null || true
wait "$CLI_PID" 2>/dev/null || true
CLI_PID=""
grep '^qosweaver profile:' "$WORK/app.err" >&2 || true

# 5. Generate. The class path lets the generator leave out calls made inside synchronized code
#    (the JDK's own classes are searched after it).
#    About 30 M join points per chart: the generator needs about 4 GB of heap for 3 charts.
GEN_HEAP="${GEN_HEAP:-6g}"
POINTCUTS_CMD=(./qosweaver pointcuts "${PROFILES[@]}" --interval "$INTERVAL" --max-occurrence "$MAX_OCCURRENCE"
  --profile-slowdown "$SLOWDOWN" --class-path "$RM_JAR" --out "$WORK/control-points.yaml")
log "JDK_JAVA_OPTIONS=-Xmx$GEN_HEAP ${POINTCUTS_CMD[*]}"
JDK_JAVA_OPTIONS="-Xmx$GEN_HEAP" "${POINTCUTS_CMD[@]}" | tee "$WORK/report.txt" >&2

# 6. The policy file: the hand-written one's failOpen, task classes and policy, the generated
#    control points, and a header saying how it was made.
section() { # FROM-KEY UNTIL-KEY: top-level lines from FROM-KEY up to UNTIL-KEY, trailing comments dropped
  awk -v from="^$1:" -v until="^$2:" '
    $0 ~ from { on = 1 }
    on && until != "^:" && $0 ~ until { exit }
    on { buf[n++] = $0 }
    END { while (n > 0 && (buf[n-1] ~ /^#/ || buf[n-1] ~ /^[[:space:]]*$/)) n--; for (i = 0; i < n; i++) print buf[i] }
  ' "$HAND"
}
{
  echo "# QoSWeaver policy for the river monitor with GENERATED control points (issue 5). Do not edit by hand:"
  echo "# rerun examples/policies/regenerate.sh. Task classes and policy: copied from"
  echo "# $HAND. Control points: the profile-based generator (paper section 3.3, Fig. 3) at"
  echo "# t = $INTERVAL, m = $MAX_OCCURRENCE ($CHARTS charts x 3000, the river monitor's cap on points per chart)."
  echo "#"
  echo "# Made on $(date -u +%Y-%m-%d) with $("$JAVA" -version 2>&1 | head -n 1) by these commands (repository root):"
  echo "#   ${PROFILE_CMD[*]}"
  echo "#   curl $APP/chart?river=1&hours=12    (twice, warm-up, not recorded; then once recorded, not used)"
  for river in $(seq 1 "$CHARTS"); do
    echo "#   curl -X POST $CONTROL/profile/start; curl $APP/chart?river=$river&hours=12; curl -X POST $CONTROL/profile/stop"
  done
  echo "#     (each right after a collection ended, so that the recording holds the chart's thread only)"
  echo "#   JDK_JAVA_OPTIONS=-Xmx$GEN_HEAP ${POINTCUTS_CMD[*]}"
  echo "# ($WORK was a temporary directory.) Profiles:"
  for f in "${PROFILES[@]}"; do
    # shellcheck disable=SC2001
    echo "#   $(grep -F "[qosweaver] profile $f:" "$WORK/app.err" | head -n 1 | sed 's#^\[qosweaver\] profile ##')"
  done
  echo "# Generator report:"
  sed -n '1,/^generation time/p' "$WORK/report.txt" | sed 's/^/#   /'
  echo
  section failOpen taskClasses
  echo
  section taskClasses controlPoints
  echo
  cat "$WORK/control-points.yaml"
  echo
  section policy ""
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"

# 7. The agent loads it (a broken policy stops the JVM with the file and line).
"$JAVA" -Xshare:off -cp "$RM_JAR" -javaagent:"$AGENT_JAR"=policy="$OUT" -version 2>&1 | grep '^\[qosweaver\]' >&2
log "wrote $OUT: $(grep -c '^  - "call(' "$OUT") generated control points"

# 8. The bench versions weave the same control points (only their policy section differs; a bench
#    test checks it). Only when the default policy was regenerated.
if [ "$OUT" = "examples/policies/river-monitor.yaml" ]; then
  for v in examples/policies/versions/*.yaml; do
    awk -v gen="$OUT" '
      function block(   line, on) {  # the controlPoints: section of the generated policy
        on = 0
        while ((getline line < gen) > 0) {
          if (line ~ /^controlPoints:/) on = 1
          else if (on && line ~ /^[A-Za-z#]/) break
          if (on && line !~ /^[[:space:]]*$/) print line
        }
        close(gen)
      }
      /^controlPoints:/ { block(); skip = 1; next }
      skip && /^[A-Za-z]/ { skip = 0; print "" }
      !skip { print }
    ' "$v" >"$v.tmp"
    mv "$v.tmp" "$v"
    log "control points of $v updated"
  done
fi
