#!/usr/bin/env python3
"""Counts the JIT's work inside each version's loaded window, from the app logs of a
`bench deadline --jvm-arg=-XX:+PrintCompilation` run: compilations by tier, methods made not
entrant and made zombie. PrintCompilation stamps JVM uptime (ms), the window is in epoch ms:
each app's offset is the median of (wall time of a log line - uptime of the compilation line just
before it). Usage: jit.py RESULTS_DIR (with results.json and the app-*.log or app-*.log.gz files)."""
import datetime, gzip, json, os, re, statistics, sys

def lines_of(path):
    if os.path.exists(path):
        return open(path, errors='replace').read().splitlines()
    return gzip.open(path + '.gz', 'rt', errors='replace').read().splitlines()

def main(d):
    r = json.load(open(os.path.join(d, 'results.json')))
    for v, x in r['versions'].items():
        for h, w in x['by_hours'].items():
            det = w['detail']
            ws = det['window_start_ms']; we = ws + det['window_seconds'] * 1000
            suffix = '' if '#' not in h else '-' + h.split('#')[1]
            lines = lines_of(os.path.join(d, 'app-%s-%sh%s.log' % (v, h.split('#')[0], suffix)))
            up = None; offs = []
            for l in lines:
                m = re.match(r'out:\s+(\d+)\s', l)
                if m:
                    up = int(m.group(1)); continue
                m = re.match(r'err: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+)', l)
                if m and up is not None:
                    offs.append(datetime.datetime.fromisoformat(m.group(1) + '+00:00').timestamp() * 1000 - up)
            off = statistics.median(offs)
            comp = tier4 = nent = zomb = 0
            for l in lines:
                m = re.match(r'out:\s+(\d+)\s', l)
                if not m or not ws <= int(m.group(1)) + off < we:
                    continue
                if 'made zombie' in l:
                    zomb += 1
                elif 'made not entrant' in l:
                    nent += 1
                else:
                    comp += 1
                    tier4 += '4' in l.split()[3:6]
            jit = [g['cores'] for g in det['thread_cpu'] if g['name'] == 'jit']
            print('%-24s %-5s compilations %5d (tier 4: %4d)  made not entrant %4d  made zombie %4d  jit cores %s'
                  '  charts/s %.2f  chart p99 %.0f ms' % (v, h, comp, tier4, nent, zomb, jit[0] if jit else '-',
                                                          det['chart_throughput_per_s'], det['chart_p99_ms']))

if __name__ == '__main__':
    main(sys.argv[1])
