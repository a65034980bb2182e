"""The contended waits that overlap each of the on window's slowest light requests, and the waits by window.

usage (from this directory, ev.json as for locks.py): python3 tail2.py ev.json probe/results.json > probe/tail.txt
"""
import collections, json, sys
from locks import contended, summary

evs = contended(sys.argv[1])
r = json.load(open(sys.argv[2]))
windows = [w for v in r['versions'].values() for w in v['windows']]
on = next(w for w in windows if w['state'] == 'on')
p99 = on['light']['p99_ms']
print('on window light p99', p99, 'requests', on['light']['requests'])
for q in on['light']['slowest'][:14]:
    s, e = q['start_ms'], q['start_ms'] + q['latency_ms']
    print(f"\n== light {q['latency_ms']:.2f} ms at {s:.0f}{'  (>= p99)' if q['latency_ms'] >= p99 else ''}")
    for x in evs:
        if x[0] < e and x[1] > s:
            print(f"  {x[3]} {x[2]:.2f} ms [{x[0] - s:+.1f},{x[1] - s:+.1f}] {x[4]} on {x[5]} owner={x[6]}",
                  ' < '.join(f.split('/')[-1] for f in x[7][:4]))


def where(t):
    return next((w['state'] for w in windows if w['start_ms'] <= t <= w['end_ms']), 'between')


for name in ('OutputStreamManager', 'EatWhatYouKill', 'EPollSelectorImpl.clearInterrupt'):
    hit = [x for x in evs if name in str(x[5]) or any(name in f for f in x[7][:2])]
    print(f'\n{name} waits by window:', dict(collections.Counter(where(x[0]) for x in hit)))
print('\nthe on window, by the first non-JDK frame:')
summary([x for x in evs if where(x[0]) == 'on'])
