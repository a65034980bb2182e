#!/usr/bin/env bash
# usage: run.sh LABEL SAMPLE PLACEMENT HANDOFF  -> per-runner CPU over 30 s, deviation per 10 s window
cd /work/main
label=$1; s=$2; pl=$3; ho=${4:-true}
runners=""; for i in $(seq 0 9); do runners="$runners runner:r$i:0.09:5:-"; done
cp="bench/target/qosweaver-bench-0.1.0-SNAPSHOT.jar:api/target/qosweaver-api-0.1.0-SNAPSHOT.jar"
cat > /tmp/rt/fair/$label.yaml <<YAML
taskClasses:
  - name: unused
    entry: execution(void io.qosweaver.bench.racetest.RaceTestApp.never())
    idle: true
policy:
  name: mtr-ls
  cores: 2
  reserved: 5%
  sample: $s
YAML
java -XX:CompileCommand=quiet "-XX:CompileCommand=dontinline,io.qosweaver.bench.racetest.RaceTestApp::*Slice" -Dqosweaver.handOff=$ho -Dqosweaver.placement=$pl -javaagent:agent/target/qosweaver-agent.jar=policy=/tmp/rt/fair/$label.yaml -cp $cp io.qosweaver.bench.racetest.RaceTestApp api 30 3 $runners > /tmp/rt/fair/$label.out 2>/tmp/rt/fair/$label.err
python3 - "$label" <<'PY'
import sys
lab=sys.argv[1]
rows=[list(map(float,l.split()[2:])) for l in open('/tmp/rt/fair/%s.out'%lab) if l.startswith('CPUSAMPLE')]
def dev(rs):
    tot=[sum(c) for c in zip(*rs)]; m=sum(tot)/len(tot); return max(abs(t-m)/m*100 for t in tot), sum(tot)/1000
w=[dev(rows[i:i+10]) for i in range(0,len(rows),10)]
print(lab, 'windows max dev %:', ' '.join('%.2f'%d for d,_ in w), '| whole run %.2f %%'%dev(rows)[0], '| runners cores %.3f'%(sum(map(sum,rows))/1000/len(rows)))
PY
