#!/usr/bin/env python3
"""Where each deadline window's chart tail is: per version and window, the chart p50 and p99, when
the slowest 1 % of the charts started (seconds into the window), the JIT's cores in the window
(thread CPU sampler) and the catch-up note. Usage: tail.py RESULTS_DIR [...]"""
import json, os, sys

def main(dirs):
    for d in dirs:
        r = json.load(open(os.path.join(d, 'results.json')))
        print(d)
        for v, x in r['versions'].items():
            for h, w in x['by_hours'].items():
                det = w.get('detail')
                if not det:
                    continue
                ws = det['window_start_ms']
                load = [l for l in det['load'] if l['name'] == 'chart'][0]
                slow = sorted(load['slowest'], key=lambda s: -s['latency_ms'])
                top = slow[:max(1, load['requests'] // 100)]
                starts = sorted(round((s['start_ms'] - ws) / 1000) for s in top)
                jit = [g['cores'] for g in (det.get('thread_cpu') or []) if g['name'] == 'jit']
                notes = [n for n in det.get('notes', []) if 'schedule' in n]
                print('  %-24s %-4s charts/s %5.2f  p50 %5.0f  p99 %5.0f  slowest 1%% started at %s s  jit %s cores  %s'
                      % (v, h, det['chart_throughput_per_s'], det['chart_p50_ms'], det['chart_p99_ms'], starts,
                         jit[0] if jit else '-', notes[0][:90] if notes else ''))

if __name__ == '__main__':
    main(sys.argv[1:])
