#!/usr/bin/env bash
# Three rounds of every configuration, in this order; output in runs.txt.
here="$(cd "$(dirname "$0")" && pwd)"
{
echo "start $(date -u +%H:%M:%S)"
for k in 1 2 3; do
  "$here/run.sh" plain-$k plain x x
  "$here/run.sh" s20-$k managed false false 20ms
  "$here/run.sh" s20-ho-place-$k managed true true 20ms
  "$here/run.sh" s5-$k managed false false 5ms
  "$here/run.sh" s5-ho-$k managed true false 5ms
  "$here/run.sh" s5-ho-place-$k managed true true 5ms
done
echo "end $(date -u +%H:%M:%S)"
} | tee "$here/runs.txt"
