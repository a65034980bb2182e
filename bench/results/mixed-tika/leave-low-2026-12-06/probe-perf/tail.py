import json,sys
sys.path.insert(0,'/tmp/rt')
from th import parse
d=sys.argv[1]; version=sys.argv[2]; thresh=float(sys.argv[3]) if len(sys.argv)>3 else 0
c=[list(map(float,l.split())) for l in open(d+'/clocks.txt')]
off=sum(e-m for m,e in c)/len(c)   # epoch = mono + off
lo,hi=c[0][0],c[-1][0]
ev=parse(d+'/th.txt')
r=json.load(open(d+'/run/results.json'))
v=r['versions'][version]
w=[w for w in v['windows'] if w['state']=='on'][0]
p99=w['light']['p99_ms']; thr=thresh or p99
tail=[s for s in w['light']['slowest'] if s['latency_ms']>=thr]
print('p99',p99,'threshold',thr,'tail',len(tail))
for s in sorted(tail,key=lambda s:s['start_ms']):
    a=s['start_ms']/1000-off; b=a+s['latency_ms']/1000
    if not (lo<a<hi): continue
    print('\n=== request at mono %.6f, %.2f ms' % (a, s['latency_ms']))
    segs=[]
    for e in ev:
        end=e['t']; start=end-e['run']/1000
        if end>a-0.002 and start<b+0.001:
            segs.append((start,end,e))
    for cpu in (0,1):
        print(' cpu',cpu)
        for st,en,e in sorted([x for x in segs if x[2]['cpu']==cpu],key=lambda x:x[0]):
            print('   %+8.3f..%+8.3f ms  %-28s pid %-6d delay %.3f' % ((st-a)*1000,(en-a)*1000,e['name'][:28],e['pid'],e['delay']))
