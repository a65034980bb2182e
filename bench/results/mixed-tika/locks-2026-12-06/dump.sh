#!/bin/bash
# Dumps the app's flight recording once the on window is over: dump.sh PROGRESS_LOG OUT.jfr
while ! grep -q "idle window" $1; do sleep 1; done
PID=$(pgrep -f 'Xmn12g.*tika-server' | head -1)
jcmd $PID JFR.dump filename=$2
