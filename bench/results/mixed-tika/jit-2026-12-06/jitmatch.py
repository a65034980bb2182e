"""For each of the on window's slowest light requests, the JIT compilations that began from 200 ms before it
to its end; then how many of the requests at or above the window's p99, and of the others listed, had one.

usage: python3 jitmatch.py probe/app-*.log.gz probe/results.json > probe/jitmatch.txt
(the app's log holds -XX:+PrintCompilation's lines, stamped in ms of JVM uptime, and the GC log's lines,
stamped in wall time and uptime, which map the one onto the other)
"""
import datetime, gzip, json, re, sys

log = gzip.open(sys.argv[1], 'rt').read().splitlines()
r = json.load(open(sys.argv[2]))
m = re.search(r'\[(\d{4}-[^\]]+)\]\[([\d.]+)s\]', next(l for l in log if '[gc]' in l))
base = datetime.datetime.strptime(m.group(1), '%Y-%m-%dT%H:%M:%S.%f%z').timestamp() * 1000 - float(m.group(2)) * 1000
comp = []
for l in log:
    l2 = l[5:] if l.startswith('out: ') else l
    f = l2.split()
    if len(f) > 3 and f[0].isdigit() and f[1].isdigit() and 'made not entrant' not in l2:  # a compilation begun
        comp.append((base + int(f[0]), l2))
print(len(comp), 'compilations')
for v in r['versions'].values():
    for w in v['windows']:
        if w['state'] != 'on':
            continue
        p99 = w['light']['p99_ms']
        met = {True: [0, 0], False: [0, 0]}
        for q in w['light']['slowest']:
            s, e = q['start_ms'], q['start_ms'] + q['latency_ms']
            near = [c for c in comp if s - 200 <= c[0] <= e]
            print(f"{q['latency_ms']:.2f} ms at {s}: {len(near)} compiles in [start-200ms,end]", [c[1][:60] for c in near[:3]])
            tail = q['latency_ms'] >= p99
            met[tail][0] += bool(near)
            met[tail][1] += 1
        print(f"at or above the p99 ({p99} ms): {met[True][0]} of {met[True][1]} with a compilation; "
              f"the other slowest listed: {met[False][0]} of {met[False][1]}")
        print('compilations begun in the measured window:', sum(w['start_ms'] <= c[0] <= w['end_ms'] for c in comp))
