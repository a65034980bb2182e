#!/bin/bash
cd /work/main
LOG=/tmp/rt/prof/progress.log
(./qosweaver bench mixed --app fuseki --paired 1 --warmup 15 --duration 45 --versions qosweaver-at-entry --report /tmp/rt/prof/report > $LOG 2>&1; echo "exit $?" >> $LOG) &
for state in off on; do
  until grep -q "pair 1/1, switched $state" $LOG 2>/dev/null; do sleep 1; done
  PID=$(pgrep -f "fuseki-server" | head -1)
  sleep 16
  jcmd $PID JFR.start name=$state duration=40s filename=/tmp/rt/prof/$state.jfr settings=profile > /tmp/rt/prof/jcmd-$state.txt 2>&1
done
wait
