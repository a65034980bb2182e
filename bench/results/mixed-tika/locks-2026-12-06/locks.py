"""Reads a flight recording's waits (jfr print --json of jdk.JavaMonitorEnter, jdk.ThreadPark,
jdk.JavaMonitorWait) and lists the contended ones, whole recording, by the first frame outside the JDK.

usage (from this directory):
  jfr print --json --events jdk.JavaMonitorEnter,jdk.ThreadPark,jdk.JavaMonitorWait probe/recording.jfr > ev.json
  python3 locks.py ev.json > probe/contention.txt
"""
import collections, datetime, json, sys

# A pool thread's or a JDK service thread's idle wait: not contention.
IDLE = ('idleJobPoll', 'reservedWait', 'FinalizerThread', 'TimerThread', 'DelayedWorkQueue', 'CleanerImpl',
        'ReferenceQueue', 'SelectorManager')


def ts(s):  # ISO time with nanoseconds -> epoch ms
    d, frac = s.rstrip('Z').split('.')
    t = datetime.datetime.strptime(d, '%Y-%m-%dT%H:%M:%S').replace(tzinfo=datetime.timezone.utc).timestamp()
    return t * 1000 + float('0.' + frac) * 1000


def dur(s):  # PT0.001234S, PT1M2.5S -> ms
    s = s[2:]
    ms = 0.0
    if 'M' in s:
        m, s = s.split('M')
        ms += float(m) * 60000
    return ms + float(s.rstrip('S') or 0) * 1000


def frames(e, n=6):
    out = []
    for f in ((e['values'].get('stackTrace') or {}).get('frames') or [])[:n]:
        m = f['method']
        out.append(m['type']['name'].split('.')[-1] + '.' + m['name'] + ':' + str(f.get('lineNumber')))
    return out


def contended(path):
    """(start ms, end ms, duration ms, event type, thread, monitor or parked class, previous owner, frames),
    without idle waits and without the scheduler's own."""
    out = []
    for e in json.load(open(path))['recording']['events']:
        v = e['values']
        s, d = ts(v['startTime']), dur(v['duration'])
        what = v.get('monitorClass') or v.get('parkedClass') or {}
        owner = (v.get('previousOwner') or {}).get('javaName')
        x = (s, s + d, d, e['type'].split('.')[-1], (v.get('eventThread') or {}).get('javaName'),
             what.get('name') if isinstance(what, dict) else what, owner, frames(e))
        stack = ' < '.join(x[7])
        if not any(k in stack for k in IDLE) and 'qosweaver' not in stack:
            out.append(x)
    return out


def summary(evs, top=25):
    c = collections.defaultdict(list)
    for x in evs:
        site = next((f for f in x[7] if not f.startswith(('java/', 'jdk/'))), x[7][0] if x[7] else '?')
        c[f"{x[3]} {x[5]} @ {site}"].append(x[2])
    for k, d in sorted(c.items(), key=lambda kv: -len(kv[1]))[:top]:
        d.sort()
        print(f"{len(d):6d} median {d[len(d) // 2]:.1f} ms max {d[-1]:.1f}  {k}")


if __name__ == '__main__':
    print('contention (not idle waits, not the scheduler), whole recording, by the first non-JDK frame')
    summary(contended(sys.argv[1]))
