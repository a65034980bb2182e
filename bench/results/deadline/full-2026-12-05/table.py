#!/usr/bin/env python3
"""Per version: each window of each round, and per round pooled; ratios against jetty-qos's round."""
import json, sys, statistics as st
from collections import defaultdict
r = json.load(open(sys.argv[1] if len(sys.argv) > 1 else 'results.json'))
def rnd(k): return int(k.split('#')[1]) if '#' in k else 1
rows = []
per_round = defaultdict(dict)
for n, v in r['versions'].items():
    byr = defaultdict(list)
    for k, w in v['by_hours'].items():
        d = w.get('detail')
        if not d: 
            print(f"{n:26s} {k:5s} no result: {w.get('error')}")
            continue
        tc = {g['name']: g['cores'] for g in d.get('thread_cpu', [])}
        cpc = tc.get('qtp', 0) * 1000 / d['chart_throughput_per_s'] if d['chart_throughput_per_s'] else None
        durs = [c['duration_ms'] for c in d['collections'] if c.get('duration_ms') is not None]
        behind = any(x.startswith('catch-up: the collector was still') for x in (d.get('notes') or []))
        print(f"{n:26s} {k:5s} miss {d['missed_count']:3d}/{d['collection_count']:3d} coll {st.mean(durs) if durs else float('nan'):7.0f} "
              f"charts {d['chart_throughput_per_s']:6.2f} p50 {d['chart_p50_ms'] or 0:6.0f} p99 {d['chart_p99_ms'] or 0:6.0f} "
              f"cpu/chart {cpc or 0:5.1f} refused {d.get('chart_errors',0)}{' BEHIND' if behind else ''}")
        byr[rnd(k)].append((d, durs))
    for ro, ws in sorted(byr.items()):
        durs = [x for _, ds in ws for x in ds]
        per_round[n][ro] = dict(
            miss=sum(d['missed_count'] for d, _ in ws), count=sum(d['collection_count'] for d, _ in ws),
            coll=st.mean(durs) if durs else None,
            charts=st.mean(d['chart_throughput_per_s'] for d, _ in ws),
            p50=st.mean(d['chart_p50_ms'] for d, _ in ws if d['chart_p50_ms']),
            p99=st.mean(d['chart_p99_ms'] for d, _ in ws if d['chart_p99_ms']))
print()
print("per round (pooled collections; charts, p50, p99: mean of the windows); x = ratio to jetty-qos's same round")
ref = per_round.get('jetty-qos', {})
for n, rs in per_round.items():
    for ro, a in sorted(rs.items()):
        j = ref.get(ro)
        def x(m, a=a, j=j):
            return f"({a[m]/j[m]:.2f}x)" if j and j.get(m) and a.get(m) else ""
        print(f"{n:26s} r{ro} miss {a['miss']:3d}/{a['count']:3d} coll {a['coll'] or 0:7.0f}{x('coll'):9s} charts {a['charts']:6.2f}{x('charts'):9s} "
              f"p50 {a['p50']:6.0f}{x('p50'):9s} p99 {a['p99']:6.0f}{x('p99'):9s}")
