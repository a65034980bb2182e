"""Per tail request of a critpath.py output: its latency, whether a young pause is on its path, and its waits for a
CPU of 0.5 ms or more with the thread that held the CPUs longest meanwhile."""
import re, sys
req = None
out = []
for line in open(sys.argv[1]):
    m = re.match(r'=== request at mono ([\d.]+), ([\d.]+) ms', line)
    if m:
        req = {'t': m.group(1), 'ms': float(m.group(2)), 'gc': False, 'waits': []}
        out.append(req)
        continue
    if req is None:
        continue
    if 'GC Thread' in line and ' ran ' in line:
        req['gc'] = True
    m = re.search(r'([\d.]+)\s+(\S+)\[(\d+)\]\s+waited for a CPU\s+(.*)$', line)
    if m and float(m.group(1)) >= 0.5:
        cpus = re.findall(r'(cpu\d): (.*?)(?=; cpu\d:|$)', m.group(4))
        top = []
        for cpu, rest in cpus:
            first = re.match(r'\s*(.+?)\[(\d+) (\S+)\]([\d.]+)', rest)
            if first:
                top.append(f"{cpu} {first.group(1).strip()} {first.group(3)} {first.group(4)}")
        req['waits'].append(f"{m.group(2)} {m.group(1)} ms [{' | '.join(top)}]")
for r in out:
    print(f"{r['ms']:6.2f} ms {'PAUSE' if r['gc'] else 'no pause'}: " + ('; '.join(r['waits']) or '-'))
