import re,sys,collections
pat=re.compile(r'\[(\d+)\]\s+\S+\s+([\d.]+): (sched_switch|sched_wakeup): (.*)')
idle_start={}; prev_before={}; tot=collections.Counter(); cnt=collections.Counter(); first=None; last=None
hist=collections.Counter()
wake={}  # pid -> wake time
lat=[]
for line in open(sys.argv[1]):
    m=pat.search(line)
    if not m: continue
    cpu=int(m.group(1)); t=float(m.group(2)); ev=m.group(3); rest=m.group(4)
    first=first or t; last=t
    if ev=='sched_wakeup':
        pid=re.search(r' pid=(\d+)',rest).group(1); wake[pid]=t; continue
    d=dict(re.findall(r'(\w+)=(\S+)',rest.replace(' ==> ',' ')))
    # prev_comm may contain spaces; ok for our names
    nxt=re.search(r'next_comm=(.*?) next_pid=(\d+)',rest); prv=re.search(r'prev_comm=(.*?) prev_pid=(\d+)',rest)
    ncomm,npid=nxt.group(1),nxt.group(2); pcomm,ppid=prv.group(1),prv.group(2)
    pstate=re.search(r'prev_state=(\S+)',rest).group(1)
    def cat(c):
        if re.fullmatch(r'r\d+',c): return 'runner'
        if c.startswith('qosweaver-tick'): return 'tick'
        if c.startswith('swapper'): return 'idle'
        return 'other'
    if npid=='0':
        idle_start[cpu]=t; prev_before[cpu]=(cat(pcomm),pstate)
    elif ppid=='0' and cpu in idle_start:
        dur=t-idle_start.pop(cpu); key=(prev_before[cpu][0],prev_before[cpu][1],cat(ncomm))
        tot[key]+=dur; cnt[key]+=1
        b='<20us' if dur<20e-6 else '<100us' if dur<100e-6 else '<1ms' if dur<1e-3 else '>=1ms'
        hist[b]+=dur
    if npid in wake and cat(ncomm)=='runner':
        lat.append(t-wake.pop(npid))
span=last-first
print(f"span {span:.3f}s, idle total {sum(tot.values()):.3f} cpu-s = {sum(tot.values())/span:.3f} cores")
for k,v in tot.most_common(12): print(f"  {k}: {v*1000:.1f} ms over {cnt[k]} idles, mean {v/cnt[k]*1e6:.0f} us")
print("by length:",{k:round(v*1000,1) for k,v in hist.items()})
lat.sort()
if lat: print(f"runner wake->run latency n={len(lat)} p50 {lat[len(lat)//2]*1e6:.0f}us p90 {lat[int(len(lat)*.9)]*1e6:.0f}us max {lat[-1]*1e6:.0f}us")
