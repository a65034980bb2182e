#!/usr/bin/env bash
# usage: run.sh LABEL MODE(plain|managed) HANDOFF(true|false) PLACEMENT(true|false) [SAMPLE] [QUANTUM]
# 10 RaceTest runners at 1.5 % each through the Java API, MTR-LS with P = 2, reserved 5 %
# (work-conserving slot), 3 s warm-up, 8 s measured; prints the runners' CPU and the machine's busy time.
cd "$(dirname "$0")/../../../.."; mkdir -p /tmp/rt
label=$1; mode=$2; ho=$3; pl=$4; s=${5:-20ms}; q=${6:-100ms}
runners=""; for i in $(seq 0 9); do runners="$runners runner:r$i:0.015:5:-"; done
cp="bench/target/qosweaver-bench-0.1.0-SNAPSHOT.jar:api/target/qosweaver-api-0.1.0-SNAPSHOT.jar"
if [ "$mode" = plain ]; then
  out=$(java -cp $cp io.qosweaver.bench.racetest.RaceTestApp plain 8 3 $runners 2>/tmp/rt/$label.err)
else
  cat > /tmp/rt/$label.yaml <<YAML
taskClasses:
  - name: unused
    entry: execution(void io.qosweaver.bench.racetest.RaceTestApp.never())
    idle: true
policy:
  name: mtr-ls
  cores: 2
  reserved: 5%
  quantum: $q
  sample: $s
YAML
  out=$(java -Dqosweaver.handOff=$ho -Dqosweaver.placement=$pl -javaagent:agent/target/qosweaver-agent.jar=policy=/tmp/rt/$label.yaml -cp $cp io.qosweaver.bench.racetest.RaceTestApp api 8 3 $runners 2>/tmp/rt/$label.err)
fi
echo "$out" | awk -v l=$label '/^CPU/{c=0; for(i=2;i<=NF;i++) c+=$i} /^SAMPLE/{for(i=3;i<=NF;i++) t+=$i; n++} /^MACHINE/{m=$2} END{printf "%s: runners CPU %.2f cores, loops/s %.0f, machine %.2f\n", l, c/8000, t/n, m}'
