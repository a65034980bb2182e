# Light tail requests of each window against the JVM's safepoints: match-safepoints.py results.json safepoints.log
import json,re,sys,datetime,collections
R=re.compile(r'^\[([^\]]+)\]\[[^\]]+\] Safepoint "([^"]+)".*?Reaching safepoint: (\d+) ns.*?Total: (\d+) ns')
sps=[]
for l in open(sys.argv[2] if len(sys.argv) > 2 else 'safepoints.log'):
    m=R.match(l)
    if not m: continue
    t=datetime.datetime.strptime(m.group(1),'%Y-%m-%dT%H:%M:%S.%f%z').timestamp()*1000
    sps.append((t-int(m.group(4))/1e6,t,m.group(2),int(m.group(3))/1e6))
r=json.load(open(sys.argv[1]))
v=list(r['versions'].values())[0]
for w in v['windows']:
    a,b=w['start_ms'],w['end_ms']
    ins=[s for s in sps if a<=s[1]<=b]
    c=collections.Counter(s[2] for s in ins); dur=collections.defaultdict(float)
    for s in ins: dur[s[2]]+=s[1]-s[0]
    print(w['state'],'p99',w['light']['p99_ms'],'safepoints',len(ins),{k:(c[k],round(dur[k],1),round(max(s[1]-s[0] for s in ins if s[2]==k),2)) for k in c})
    p99=w['light']['p99_ms']
    for s in sorted(w['light']['slowest'],key=lambda s:s['start_ms']):
        if s['latency_ms']<p99: continue
        st,en=s['start_ms'],s['start_ms']+s['latency_ms']
        ov=[(x[2],round(x[1]-x[0],2)) for x in ins if x[1]>st and x[0]<en]
        print('   %.2f ms'%s['latency_ms'],ov)
