#!/bin/bash
LOG=$1; OUT=$2
while ! grep -q "switched on (in" $LOG; do sleep 0.5; done
sleep 50
PID=$(pgrep -f tika-server-1.28.5.jar | head -1)
echo "pid $PID" > $OUT/pid
for i in 1 2 3 4 5 6; do
  for t in /proc/$PID/task/*; do tid=${t##*/}; s=$(cat $t/stat 2>/dev/null); echo "$tid $(cat $t/comm) $(echo "$s" | sed 's/.*) //' | awk '{print $1, $39}')"; done > $OUT/pol-$i.txt
  jcmd $PID Thread.print -e > $OUT/dump-$i.txt 2>&1
  for t in /proc/$PID/task/*; do tid=${t##*/}; s=$(cat $t/stat 2>/dev/null); echo "$tid $(cat $t/comm) $(echo "$s" | sed 's/.*) //' | awk '{print $1, $39}')"; done > $OUT/polb-$i.txt
  sleep 2
done
echo done >> $OUT/pid
