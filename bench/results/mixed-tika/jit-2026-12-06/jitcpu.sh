#!/bin/bash
# Samples the CPU time (ticks) of each JIT compiler thread and of the whole app every 5 s, with the harness's last progress line.
LOG=$1; OUT=$2
while true; do
  PID=$(pgrep -f 'Xmn12g.*tika-server' | head -1)
  if [ -n "$PID" ]; then
    c=0
    for t in /proc/$PID/task/*; do
      n=$(cat $t/comm 2>/dev/null)
      case "$n" in C1\ Comp*|C2\ Comp*) set -- $(sed 's/.*) //' $t/stat 2>/dev/null); c=$((c + ${12} + ${13}));; esac
    done
    set -- $(sed 's/.*) //' /proc/$PID/stat 2>/dev/null)
    echo "$(date +%s.%N | cut -c1-14) pid=$PID compilers=$c app=$((${12} + ${13})) | $(tail -1 $LOG | cut -c1-90)" >> $OUT/jitcpu.txt
  fi
  grep -q "^report:" $LOG && break
  sleep 5
done
