import re,sys,collections
R=re.compile(r'^\s*([\d.]+)\s+\[(\d+)\]\s+(.*?)\[(\d+)(?:/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)')
def parse(path):
    out=[]
    for line in open(path):
        m=R.match(line)
        if not m: continue
        t,cpu,name,tid,pid,wait,delay,run=m.groups()
        out.append(dict(t=float(t),cpu=int(cpu),name=name.strip(),tid=int(tid),pid=int(pid or 0),wait=float(wait),delay=float(delay),run=float(run)))
    return out
if __name__=='__main__':
    ev=parse(sys.argv[1]); pid=int(sys.argv[2])
    big=[e for e in ev if e['pid']==pid and e['delay']>1.0]
    big.sort(key=lambda e:-e['delay'])
    for e in big[:30]: print(e)
    print(len([e for e in ev if e['pid']==pid]), 'switch-ins of', pid, len(big), 'with sch delay > 1 ms')
