#!/usr/bin/env bash
# Generation from a profile of real size, bounded heap: synthesizes a profile of N join points through
# the agent's profile writer (SyntheticProfile), then runs `qosweaver pointcuts` on it in a JVM with
# -Xmx1g for several target intervals and maximum occurrences, timing each run and reading its peak
# resident memory. Writes results.json beside this script.
#   pointcuts/results/real-size/run.sh [JOIN_POINTS] [VERSION]     (default 1000000000, 2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
n="${1:-1000000000}"
version="${2:-2}"
work="${TMPDIR:-/tmp}/qosweaver-real-size"
mkdir -p "$work"
profile="$work/synthetic-$n-v$version.qwp"

cd "$root"
./mvnw -q -B -DskipTests package -pl cli -am >&2
./mvnw -q -B test-compile -pl pointcuts >&2
cp="pointcuts/target/classes:pointcuts/target/test-classes:policy-model/target/classes"
written="$(java -cp "$cp" io.qosweaver.pointcuts.SyntheticProfile --join-points "$n" --version "$version" \
    --out "$profile")"
echo "written: $written" >&2

runs=()
for interval in 1ms 10ms 100ms; do
  for m in 1 100 10000; do
    out="$work/run.json"
    # %e wall seconds, %M peak resident kilobytes
    /usr/bin/time -o "$work/time" -f '%e %M' java -Xmx1g -jar cli/target/qosweaver-cli.jar pointcuts "$profile" \
        --interval "$interval" --max-occurrence "$m" --out "$work/controlPoints.yaml" --json >"$out" 2>"$work/stderr" \
      || { echo "FAILED: interval $interval, m $m:" >&2; cat "$work/stderr" >&2; exit 1; }
    read -r seconds rss_kb <"$work/time"
    echo "interval $interval, m $m: $seconds s, peak RSS $((rss_kb / 1024)) MB" >&2
    runs+=("{\"interval\": \"$interval\", \"max_occurrence\": $m, \"wall_seconds\": $seconds, \"peak_rss_kb\": $rss_kb, \"report\": $(jq -c 'del(.pointcuts)' "$out")}")
  done
done

{
  echo "{"
  echo "  \"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
  echo "  \"commit\": \"$(git rev-parse --short HEAD)\","
  echo "  \"machine\": \"$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(java -version 2>&1 | head -n 1 | tr -d '\"')\","
  echo "  \"heap\": \"-Xmx1g\","
  echo "  \"profile\": {\"file_bytes\": $(stat -c %s "$profile"), \"written\": $written},"
  echo "  \"runs\": ["
  for i in "${!runs[@]}"; do
    sep=","; [ "$i" -eq $((${#runs[@]} - 1)) ] && sep=""
    echo "    ${runs[$i]}$sep"
  done
  echo "  ]"
  echo "}"
} >"$here/results-v$version.json"
echo "wrote $here/results-v$version.json" >&2
