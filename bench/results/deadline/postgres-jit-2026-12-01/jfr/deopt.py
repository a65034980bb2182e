#!/usr/bin/env python3
"""Deoptimizations (JFR jdk.Deoptimization) inside a deadline window: by reason, and the methods
most deoptimized. Usage: deopt.py RECORDING.jfr RESULTS.json VERSION"""
import collections, datetime, json, subprocess, sys
jfr, results, version = sys.argv[1:4]
r = json.load(open(results))
d = r['versions'][version]['by_hours']['6']['detail']
ws = d['window_start_ms']; we = ws + d['window_seconds'] * 1000
out = subprocess.run(['/usr/lib/jvm/java-17-openjdk-amd64/bin/jfr', 'print', '--json', '--events',
                      'jdk.Deoptimization', jfr], capture_output=True, text=True, check=True).stdout
events = json.loads(out)['recording']['events']
def ms(e):
    return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp() * 1000
inw = [e for e in events if ws <= ms(e) < we]
print('%s: %d deoptimizations in the run, %d in the %.0f s window' % (version, len(events), len(inw), d['window_seconds']))
print('  by reason:', collections.Counter(e['values']['reason'] for e in inw).most_common(8))
print('  by action:', collections.Counter(e['values']['action'] for e in inw).most_common(4))
def meth(e):
    m = e['values']['method']
    return m['type']['name'] + '.' + m['name']
print('  methods:', collections.Counter(meth(e) for e in inw).most_common(12))
print('  by package:', collections.Counter('.'.join(meth(e).split('.')[:3]) for e in inw).most_common(8))
