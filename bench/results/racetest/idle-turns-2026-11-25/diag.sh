#!/usr/bin/env bash
# diag.sh LABEL SLOT HANDOFF [QUANTUM] [SAMPLE]: run.sh under a 2 s record of the kernel's
# sched_switch and sched_wakeup (a tracefs instance of its own, clock mono) from the 6th second.
# Needs root and tracefs mounted at $TRACEFS (e.g. mount -t tracefs nodev /tmp/tfs).
label=$1
I=${TRACEFS:-/tmp/tfs}/instances/diag
[ -d $I ] || mkdir $I
echo mono > $I/trace_clock; echo 8192 > $I/buffer_size_kb
echo 1 > $I/events/sched/sched_switch/enable; echo 1 > $I/events/sched/sched_wakeup/enable
echo 0 > $I/tracing_on; echo > $I/trace
( sleep 6; echo 1 > $I/tracing_on; sleep 2; echo 0 > $I/tracing_on; cat $I/trace > /tmp/rt/$label.sched ) &
"$(dirname "$0")/run.sh" "$@"
wait
