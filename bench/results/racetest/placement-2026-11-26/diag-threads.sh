#!/usr/bin/env bash
# per-thread CPU (utime+stime ticks) of the RaceTest JVM over seconds 4..11
cd /work/main
runners=""; for i in $(seq 0 9); do runners="$runners runner:r$i:0.015:5:-"; done
cp="bench/target/qosweaver-bench-0.1.0-SNAPSHOT.jar:api/target/qosweaver-api-0.1.0-SNAPSHOT.jar"
java -Dqosweaver.handOff=true -Dqosweaver.placement=true -javaagent:agent/target/qosweaver-agent.jar=policy=/tmp/rt/s20-ho-place-1.yaml -cp $cp io.qosweaver.bench.racetest.RaceTestApp api 8 3 $runners > /tmp/rt/diag.out 2>/tmp/rt/diag.err &
pid=$!
sleep 4
snap() { for t in /proc/$pid/task/*; do n=$(cat $t/comm); s=($(sed 's/.*) //' $t/stat)); echo "$(basename $t) $((${s[11]}+${s[12]})) $n"; done | sort; }
snap > /tmp/rt/s1.txt; sleep 7; snap > /tmp/rt/s2.txt
wait $pid
join <(sort /tmp/rt/s1.txt) <(sort /tmp/rt/s2.txt) | awk '{d=$4-$2; if (d>0) print d, $3}' | sort -rn | head -25
