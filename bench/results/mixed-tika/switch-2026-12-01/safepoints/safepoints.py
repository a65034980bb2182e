#!/usr/bin/env python3
"""Matches each window's light requests at or above its p99 to the app's safepoints (-Xlog:safepoint lines with
wall-clock times): which kind of safepoint each tail request ran through. Usage: safepoints.py RUN_DIR"""
import json,gzip,re,sys,collections
from datetime import datetime
d=sys.argv[1]
r=json.load(open(d+'/results.json'))
sp=re.compile(r'\[(\d{4}-\d\d-\d\dT[\d:.]+)\+0000\].*\[safepoint\s*\] Safepoint "([^"]+)".*Reaching safepoint: (\d+) ns.*Total: (\d+) ns')
gc=re.compile(r'\[(\d{4}-\d\d-\d\dT[\d:.]+)\+0000\].*\bPause\b.*?([\d.]+)ms\s*$')
for name,v in r['versions'].items():
    f=f"{d}/app-{name.replace(':','+')}.log.gz"
    sps=[];gcs=[]
    for line in gzip.open(f,'rt',errors='replace'):
        m=sp.search(line)
        if m:
            end=datetime.fromisoformat(m.group(1)+'+00:00').timestamp()*1000
            sps.append((end-int(m.group(4))/1e6,end,m.group(2),int(m.group(3))/1e6))
        m=gc.search(line)
        if m:
            end=datetime.fromisoformat(m.group(1)+'+00:00').timestamp()*1000; gcs.append((end-float(m.group(2)),end))
    for w in v['windows']:
        st,en=w['start_ms'],w['end_ms']
        inw=[s for s in sps if st<=s[0]<=en]
        kinds=collections.Counter(s[2] for s in inw)
        tot=collections.defaultdict(float)
        for s in inw: tot[s[2]]+=s[1]-s[0]
        print(w['state'], 'p99',round(w['light']['p99_ms'],1), 'safepoints', len(inw), {k:(c,round(tot[k]/c,2)) for k,c in kinds.most_common(6)}, 'reach max', round(max([s[3] for s in inw] or [0]),2))
        p99=w['light']['p99_ms']
        for s in w['light']['slowest']:
            if s['latency_ms']<p99: continue
            a=s['start_ms'];b=a+s['latency_ms']
            hit=[(x[2],round(min(b,x[1])-max(a,x[0]),1)) for x in sps if min(b,x[1])>max(a,x[0])]
            print('   ',round(s['latency_ms'],1), hit)
