# The idle gaps of CPU 0 in a `perf sched timehist -w` text, by what ran before them: GC or VM
# threads on CPU 1 (a safepoint), a server thread (qtp) that slept, or something else.
import re, sys, collections
recs=[]
for l in open(sys.argv[1]).read().splitlines():
    m=re.match(r'\s*([\d.]+)\s+\[(\d+)\]\s+(.*)$', l)
    if m: recs.append((float(m.group(1)), int(m.group(2)), m.group(3).strip()))
# running intervals on cpu1 of GC/VM threads
gcint=[]
for t,c,rest in recs:
    if 'awakened' in rest: continue
    parts=rest.split()
    try: r=float(parts[-1])/1000
    except: continue
    if c==1 and ('GC Thread' in rest or 'VM Thread' in rest or 'G1 ' in rest):
        gcint.append((t-r,t))
cls=collections.Counter(); n=collections.Counter()
prevname=None
for i,(t,c,rest) in enumerate(recs):
    if c!=0 or 'awakened' in rest: continue
    if rest.startswith('<idle>'):
        r=float(rest.split()[-1])/1000; s=t-r
        gc=sum(max(0,min(t,e)-max(s,b)) for b,e in gcint)
        k='gc/vm on cpu1' if gc>0.3*r else ('after qtp' if prevname and prevname.startswith('qtp') else 'other: '+(prevname or '?').split('[')[0][:15])
        cls[k]+=r; n[k]+=1
    prevname=rest
tot=sum(cls.values())
print(f"total idle cpu0 {tot*1000:.1f} ms")
for k,v in cls.most_common(8): print(f"  {k:30s} {v*1000:7.1f} ms in {n[k]} gaps")
