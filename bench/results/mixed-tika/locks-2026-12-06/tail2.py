# usage (from this directory): jfr print --json --events jdk.JavaMonitorEnter,jdk.ThreadPark,jdk.JavaMonitorWait probe/recording.jfr > ev.json; python3 tail2.py
import sys; sys.argv = ["x", "ev.json", "probe/results.json"]; exec(open("locks.py").read().split("print(len(evs), 'events')")[0])
IDLE = ('idleJobPoll', 'reservedWait', 'FinalizerThread', 'TimerThread', 'DelayedWorkQueue', 'CleanerImpl', 'ReferenceQueue', 'SelectorManager')
cont = [x for x in evs if not any(k in ' < '.join(x[7]) for k in IDLE) and 'qosweaver' not in ' < '.join(x[7])]
w = [w for v in r['versions'].values() for w in v['windows'] if w['state'] == 'on'][0]
p99 = w['light']['p99_ms']
print('on window light p99', p99, 'requests', w['light']['requests'])
for q in w['light']['slowest'][:14]:
    s, e = q['start_ms'], q['start_ms'] + q['latency_ms']
    hits = [x for x in cont if x[0] < e and x[1] > s]
    print(f"\n== light {q['latency_ms']:.2f} ms at {s:.0f}{'  (>= p99)' if q['latency_ms'] >= p99 else ''}")
    for x in hits:
        light = 'DetectorResource' in ' '.join(x[7]) or 'detect' in ' '.join(x[7])
        print(f"  {x[3].split('.')[-1]} {x[2]:.2f} ms [{x[0]-s:+.1f},{x[1]-s:+.1f}] {x[4]} on {x[5]} owner={x[6]} {'LIGHT' if light else ''}", ' < '.join(f.split('/')[-1] for f in x[7][:4]))
# the log4j waiters: light or heavy?
lg = [x for x in cont if 'OutputStreamManager' in str(x[5])]
kinds = collections.Counter('light' if any('DetectorResource' in f for f in x[7]) else 'heavy' if any('TikaResource' in f for f in x[7]) else 'other' for x in lg)
print('\nlog4j lock waits by request kind:', kinds, 'owners:', collections.Counter(x[6] is not None for x in lg))
ew = [x for x in cont if 'EatWhatYouKill' in str(x[5])]
print('EatWhatYouKill waits:', len(ew), 'example stack:', ' < '.join(f.split('/')[-1] for f in ew[0][7][:8]))
ws = {(w2['state'], w2['pair']): (w2['start_ms'], w2['end_ms']) for v in r['versions'].values() for w2 in v['windows']}
def where(t):
    for k, (a, b) in ws.items():
        if a <= t <= b: return k[0]
    return 'between'
print('log4j waits by window:', collections.Counter(where(x[0]) for x in lg))
print('log4j example:', lg[0][4], ' < '.join(f.split('/')[-1] for f in lg[0][7][:12]))
print('EWYK waits by window:', collections.Counter(where(x[0]) for x in ew), 'median on', sorted(x[2] for x in ew if where(x[0]) == 'on')[len([x for x in ew if where(x[0]) == 'on'])//2] if any(where(x[0]) == 'on' for x in ew) else None)
print('EWYK owners in on:', collections.Counter(x[6] for x in ew if where(x[0]) == 'on').most_common(5))
print('all contention in on window:', collections.Counter((x[3].split('.')[-1], str(x[5]).split('/')[-1]) for x in cont if where(x[0]) == 'on').most_common(8))
