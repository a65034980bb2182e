#!/bin/bash
# Records the scheduler's events of the whole host over 40 s of the first on window of a bench mixed run.
LOG=$1; OUT=$2
while ! grep -q "switched on (in" $LOG; do sleep 0.5; done
sleep 42
cd $OUT
python3 -c "import time;print(time.clock_gettime(time.CLOCK_MONOTONIC), time.time())" > clocks.txt
perf record -k mono -a -e sched:sched_switch -e sched:sched_waking -e syscalls:sys_enter_sched_setscheduler \
    -o $OUT/sched.data -- sleep 40 > $OUT/perf.out 2>&1
python3 -c "import time;print(time.clock_gettime(time.CLOCK_MONOTONIC), time.time())" >> clocks.txt
echo recorded >> $OUT/perf.out
