"""The critical path of each slow light request, from a system-wide scheduler trace.

perf record -k mono -a -e sched:sched_switch -e sched:sched_waking \
    -e syscalls:sys_enter_sched_setscheduler  (perf script's text is read)

For each light request at or above a threshold (results.json of `bench mixed`, the on window), the
request's end is the light client's thread woken by a server thread; from there the path is walked
back in time: the thread that ran, waited runnable for a CPU (and what ran instead, with each
thread's policy from the agent's own sched_setscheduler calls), or slept until another thread woke
it, whose path is then followed; until the request's start.

usage: critpath.py script.txt clocks.txt results.json VERSION [threshold_ms]
"""
import json, re, sys, bisect, collections

LINE = re.compile(r'^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)$')
SWITCH = re.compile(r'prev_comm=(.*?) prev_pid=(\d+) prev_prio=(\d+) prev_state=(\S+) ==> '
                    r'next_comm=(.*?) next_pid=(\d+) next_prio=(\d+)')
WAKING = re.compile(r'comm=(.*?) pid=(\d+) prio=(\d+) target_cpu=(\d+)')
SETSCHED = re.compile(r'pid: (0x[0-9a-f]+|\d+), policy: (0x[0-9a-f]+|\d+)')
POLICY = {0: 'OTHER', 1: 'FIFO', 2: 'RR', 3: 'BATCH', 5: 'IDLE'}


def load(path):
    names = {}
    states = collections.defaultdict(list)   # tid -> [(t, state, waker)] state in RUN, RQ, SLEEP
    oncpu = collections.defaultdict(list)    # cpu -> [(t, tid)] switch-ins
    policy = collections.defaultdict(list)   # tid -> [(t, name)]
    prio = {}
    for line in open(path, errors='replace'):
        m = LINE.match(line)
        if not m:
            continue
        comm, cur, cpu, t, ev, rest = m.groups()
        cur, cpu, t = int(cur), int(cpu), float(t)
        if ev == 'sched:sched_switch':
            s = SWITCH.search(rest)
            if not s:
                continue
            pc, pp, ppr, pst, nc, np_, npr = s.groups()
            pp, np_ = int(pp), int(np_)
            names[pp], names[np_] = pc, nc
            prio[pp], prio[np_] = int(ppr), int(npr)
            if pp:
                states[pp].append((t, 'RQ' if pst.startswith('R') else 'SLEEP', None))
            if np_:
                states[np_].append((t, 'RUN', None))
            oncpu[cpu].append((t, np_))
        elif ev == 'sched:sched_waking':
            s = WAKING.search(rest)
            if not s:
                continue
            c, pid = s.group(1), int(s.group(2))
            names[pid] = c
            states[pid].append((t, 'RQ', cur if cur else ('irq/idle on cpu %d' % cpu)))
        elif ev.endswith('sys_enter_sched_setscheduler'):
            s = SETSCHED.search(rest)
            if not s:
                continue
            target = int(s.group(1), 0) or cur
            policy[target].append((t, POLICY.get(int(s.group(2), 0), s.group(2))))
    return names, states, oncpu, policy, prio


def policy_at(policy, tid, t):
    lst = policy.get(tid)
    if not lst:
        return 'OTHER?'
    i = bisect.bisect_right([x[0] for x in lst], t) - 1
    return lst[i][1] if i >= 0 else 'OTHER?'


def interval_before(states, tid, t):
    """The state tid was in just before t: (start, state, waker)."""
    lst = states.get(tid, [])
    ts = [x[0] for x in lst]
    i = bisect.bisect_left(ts, t) - 1
    # a waking of a thread that is not asleep changes nothing: skip back over it
    while i > 0 and lst[i][1] == 'RQ' and lst[i][2] is not None and lst[i - 1][1] in ('RUN', 'RQ'):
        i -= 1
    return (lst[i] if i >= 0 else None), i


def who_ran(oncpu, names, policy, prio, a, b):
    out = []
    for cpu in sorted(oncpu):
        lst = oncpu[cpu]
        ts = [x[0] for x in lst]
        i = max(bisect.bisect_right(ts, a) - 1, 0)
        acc = collections.Counter()
        while i < len(lst) and lst[i][0] < b:
            s = max(lst[i][0], a)
            e = min(lst[i + 1][0] if i + 1 < len(lst) else b, b)
            if e > s:
                tid = lst[i][1]
                acc[(names.get(tid, '?') if tid else 'idle', tid, policy_at(policy, tid, s) if tid else '')] += e - s
            i += 1
        out.append('cpu%d: ' % cpu + ', '.join('%s[%d %s]%.2f' % (n, tid, p, d * 1e3)
                                               for (n, tid, p), d in acc.most_common(4)))
    return '; '.join(out)


def path(names, states, oncpu, policy, prio, client_tid, start, end):
    # the client's waking at the end: the waker is the last server thread
    lst = states.get(client_tid, [])
    cand = [x for x in lst if x[1] == 'RQ' and x[2] is not None and abs(x[0] - end) < 0.002]
    if not cand:
        return None, 'no waking of the client near the end'
    t, _, waker = min(cand, key=lambda x: abs(x[0] - end))
    segs = []
    tid = waker
    guard = 0
    while t > start and guard < 500 and isinstance(tid, int):
        guard += 1
        iv, i = interval_before(states, tid, t)
        if iv is None:
            segs.append((start, t, tid, 'UNKNOWN', ''))
            break
        a, st, w = iv
        a = max(a, start)
        if st == 'RUN':
            segs.append((a, t, tid, 'ran', policy_at(policy, tid, a)))
        elif st == 'RQ':
            segs.append((a, t, tid, 'waited for a CPU', who_ran(oncpu, names, policy, prio, a, t)))
            if w is not None and a > start:
                segs.append((a, a, tid, 'woken by', str(w) + ' ' + names.get(w, '') if isinstance(w, int) else w))
                tid = w
        else:
            segs.append((a, t, tid, 'slept', ''))
        t = a
    return list(reversed(segs)), None


def main():
    script, clocks, results, version = sys.argv[1:5]
    thresh = float(sys.argv[5]) if len(sys.argv) > 5 else 0
    c = [list(map(float, l.split())) for l in open(clocks)]
    off = sum(e - m for m, e in c) / len(c)
    lo, hi = c[0][0], c[-1][0]
    names, states, oncpu, policy, prio = load(script)
    r = json.load(open(results))
    w = [w for w in r['versions'][version]['windows'] if w['state'] == 'on'][0]
    thr = thresh or w['light']['p99_ms']
    tail = sorted([s for s in w['light']['slowest'] if s['latency_ms'] >= thr], key=lambda s: s['start_ms'])
    clients = [tid for tid, n in names.items() if n.startswith('load-light')]
    print('light p99 %.2f ms, threshold %.2f ms, %d tail requests, light client threads %s'
          % (w['light']['p99_ms'], thr, len(tail), clients))
    for s in tail:
        a = s['start_ms'] / 1000 - off
        b = a + s['latency_ms'] / 1000
        if not (lo < a < hi):
            continue
        # start_ms has a millisecond's resolution: the client thread woken within 2 ms of the end
        best = None
        for ct in clients:
            for x in states.get(ct, []):
                if x[1] == 'RQ' and x[2] is not None and abs(x[0] - b) < 0.0015:
                    if best is None or abs(x[0] - b) < abs(best[1] - b):
                        best = (ct, x[0])
        print('\n=== request at mono %.4f, %.2f ms' % (a, s['latency_ms']))
        if best is None:
            print('   no light client waking found near its end')
            continue
        ct, end = best
        start = end - s['latency_ms'] / 1000
        gc = who_ran(oncpu, names, policy, prio, start, end)
        print('   on the CPUs meanwhile: ' + gc)
        segs, err = path(names, states, oncpu, policy, prio, ct, start, end)
        if err:
            print('   ' + err)
            continue
        for (x, y, tid, what, info) in segs:
            print('   %+7.3f..%+7.3f ms %-6.3f %-22s %-17s %s' % ((x - start) * 1e3, (y - start) * 1e3, (y - x) * 1e3,
                  '%s[%s]' % (names.get(tid, '?')[:15], tid), what, info))


if __name__ == '__main__':
    main()
