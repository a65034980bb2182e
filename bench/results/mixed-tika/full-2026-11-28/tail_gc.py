#!/usr/bin/env python3
"""Matches each on window's light requests at or above its p99 to the server's stop-the-world GC
pauses (from the app log's -Xlog:gc lines with wall-clock times). Usage: tail_gc.py RUN_DIR"""
import gzip, json, re, sys
from datetime import datetime

run = sys.argv[1]
d = json.load(open(run + '/results.json'))
pat = re.compile(r'\[(\d{4}-\d\d-\d\dT[\d:.]+)\+0000\].*Pause (Young|Remark|Cleanup|Full)[^\n]* ([\d.]+)ms')
print('| version | pair | state | light p99 ms | requests >= p99 | of them overlapping a pause | pause ms inside each (mean) | pauses in the window | mean pause ms |')
print('|---|---|---|---|---|---|---|---|---|')
for name, v in d['versions'].items():
    pauses = []  # (start ms, end ms)
    with gzip.open(f'{run}/app-{name.replace(":", "+")}.log.gz', 'rt', errors='replace') as f:
        for line in f:
            m = pat.search(line)
            if m:
                end = datetime.fromisoformat(m.group(1) + '+00:00').timestamp() * 1000
                dur = float(m.group(3))
                pauses.append((end - dur, end))
    for w in v['windows']:
        light = w['light']
        p99 = light['p99_ms']
        tail = [s for s in light['slowest'] if s['latency_ms'] >= p99]
        lo = min(s['start_ms'] for s in light['slowest'])
        hi = max(s['start_ms'] + s['latency_ms'] for s in light['slowest'])
        inwin = [p for p in pauses if lo - 1000 <= p[0] <= hi + 1000]
        hits, inside = 0, []
        for s in tail:
            a, b = s['start_ms'], s['start_ms'] + s['latency_ms']
            o = sum(max(0.0, min(b, pe) - max(a, ps)) for ps, pe in pauses)
            if o > 0:
                hits += 1
                inside.append(o)
        mean_in = sum(inside) / len(inside) if inside else 0
        mp = sum(pe - ps for ps, pe in inwin) / len(inwin) if inwin else 0
        print(f"| {name} | {w['pair']} | {w['state']} | {p99:.1f} | {len(tail)} | {hits} | {mean_in:.1f} | {len(inwin)} | {mp:.1f} |")
