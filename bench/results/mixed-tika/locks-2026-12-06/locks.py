import json, sys, datetime, collections
# usage: locks.py events.json results.json
ev = json.load(open(sys.argv[1]))['recording']['events']
r = json.load(open(sys.argv[2]))
def ts(s):  # ISO with nanoseconds
    d, frac = s.rstrip('Z').split('.')
    t = datetime.datetime.strptime(d, '%Y-%m-%dT%H:%M:%S').replace(tzinfo=datetime.timezone.utc).timestamp()
    return t * 1000 + float('0.' + frac) * 1000
def dur(s):  # PT0.001234S
    s = s[2:]
    ms = 0.0
    if 'M' in s and not s.endswith('MS'):
        m, s = s.split('M'); ms += float(m) * 60000
    return ms + float(s.rstrip('S') or 0) * 1000
def frames(e, n=6):
    st = e['values'].get('stackTrace') or {}
    out = []
    for f in (st.get('frames') or [])[:n]:
        m = f['method']
        out.append(m['type']['name'].split('.')[-1] + '.' + m['name'] + ':' + str(f.get('lineNumber')))
    return out
evs = []
for e in ev:
    v = e['values']
    s = ts(v['startTime']); d = dur(v['duration'])
    th = (v.get('eventThread') or {}).get('javaName')
    what = (v.get('monitorClass') or v.get('parkedClass') or {})
    what = what.get('name') if isinstance(what, dict) else what
    owner = (v.get('previousOwner') or {}).get('javaName') if v.get('previousOwner') else None
    evs.append((s, s + d, d, e['type'], th, what, owner, frames(e)))
print(len(evs), 'events')
for v in r['versions'].values():
    for w in v['windows']:
        if w['state'] != 'on': continue
        for q in w['light']['slowest'][:12]:
            s, e = q['start_ms'], q['start_ms'] + q['latency_ms']
            print(f"\n== light {q['latency_ms']:.2f} ms at {s:.0f}")
            for x in evs:
                if x[0] < e and x[1] > s and 'qosweaver' not in ' '.join(x[7][:3]) and not any('ImportancePolicy' in f or 'Controller' in f for f in x[7]):
                    if x[2] > 30000: continue  # idle pool parks
                    print(f"  {x[3].split('.')[-1]} {x[2]:.2f} ms thread={x[4]} on={x[5]} owner={x[6]} at {x[0]-s:+.1f} ms", ' < '.join(x[7][:5]))

IDLE = ('idleJobPoll', 'reservedWait', 'FinalizerThread', 'TimerThread', 'DelayedWorkQueue', 'CleanerImpl', 'ReferenceQueue', 'SelectorManager', 'select')
print('\n=== contention (not idle waits, not the scheduler), whole recording, by the first non-JDK frame')
c = collections.Counter(); ex = {}
for x in evs:
    st = ' < '.join(x[7])
    if any(k in st for k in IDLE) or 'qosweaver' in st:
        continue
    key = x[3].split('.')[-1] + ' ' + str(x[5]) + ' @ ' + next((f for f in x[7] if not f.startswith(('java/', 'jdk/'))), x[7][0] if x[7] else '?')
    c[key] += 1; ex.setdefault(key, []).append(x[2])
for k, n in c.most_common(25):
    d = sorted(ex[k]); print(f"{n:6d} median {d[len(d)//2]:.1f} ms max {d[-1]:.1f}  {k}")
