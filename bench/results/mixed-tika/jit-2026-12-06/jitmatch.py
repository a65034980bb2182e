import gzip, json, re, sys, datetime
log = gzip.open(sys.argv[1], 'rt').read().splitlines()
r = json.load(open(sys.argv[2]))
# uptime -> epoch from the first gc line
m = re.search(r'\[(\d{4}-[^\]]+)\]\[([\d.]+)s\]', next(l for l in log if '[gc]' in l))
t = datetime.datetime.strptime(m.group(1), '%Y-%m-%dT%H:%M:%S.%f%z').timestamp() * 1000
base = t - float(m.group(2)) * 1000
comp = []
for l in log:
    l2 = l[5:] if l.startswith('out: ') else l
    f = l2.split()
    if len(f) > 3 and f[0].isdigit() and f[1].isdigit():
        comp.append((base + int(f[0]), l2))
print(len(comp), 'compile lines')
for v in r['versions'].values():
    for w in v['windows']:
        if w['state'] != 'on': continue
        tail = w['light']['slowest']
        ws, we = w.get('start_ms'), None
        for q in tail:
            s, e = q['start_ms'], q['start_ms'] + q['latency_ms']
            near = [c for c in comp if s - 200 <= c[0] <= e]
            print(f"{q['latency_ms']:.2f} ms at {s}: {len(near)} compiles in [start-200ms,end]", [c[1][:60] for c in near[:3]])
        # the rate of compiles in the window
        wins = [c for c in comp if tail and min(q['start_ms'] for q in tail) - 1000 <= c[0] <= max(q['start_ms'] for q in tail) + 1000]
        print('compiles between the first and last tail request:', len(wins))
