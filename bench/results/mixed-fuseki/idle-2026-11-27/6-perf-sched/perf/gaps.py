# The idle gaps of one CPU in a `perf sched timehist` text (perf sched timehist -i FILE > FILE.txt):
# their total, and how much of it something else waited for the other CPU (a failed balance), by task.
import sys, re, collections
gaps=[]; waits=[]
for line in open(sys.argv[1]):
    m=re.match(r'\s*([\d.]+)\s+\[(\d+)\]\s+(.*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', line)
    if not m: continue
    t=float(m.group(1)); cpu=int(m.group(2)); name=m.group(3); wait=float(m.group(4)); d=float(m.group(5))/1000; r=float(m.group(6))/1000
    if '<idle>' in name:
        gaps.append((cpu,t-r,t))
    elif d>0:
        waits.append((cpu,t-r-d,t-r,name))
waits.sort(key=lambda w:w[1])
tot=collections.Counter(); idle=collections.Counter(); covered=0; alltime=0
for cpu,s,e in gaps:
    alltime+=e-s
    # any waiting interval on another cpu overlapping
    ov=[]
    for wc,ws,we,n in waits:
        if wc!=cpu and ws<e and we>s:
            o=min(e,we)-max(s,ws); ov.append((o,n))
    if ov:
        best=max(o for o,n in ov)
        covered+=best
        for o,n in ov:
            k=re.sub(r'[\[\d/\]]+$','',n); k=re.sub(r'-\d+$','',k)
            tot[k]+=o
print(f"idle {alltime*1000:.1f} ms, of which something waited on the other CPU {covered*1000:.1f} ms")
for k,v in tot.most_common(10): print(f"  {k:30s} {v*1000:.1f} ms")
