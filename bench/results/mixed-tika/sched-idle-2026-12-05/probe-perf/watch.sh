#!/bin/bash
LOG=$1; OUT=$2
while ! grep -q "switched on (in" $LOG; do sleep 1; done
sleep 48
cd $OUT && perf sched record -a -o $OUT/sched.data -- sleep 12 > $OUT/perf.out 2>&1
echo recorded >> $OUT/perf.out
