"""Per on/off window: light p99, requests above 2x the run's idle p99, how many of them overlap a young
pause, the p99 of the requests that overlap none (nearest rank), and how many requests the pauses alone
are expected to put above 2x idle (a request arriving in a pause of P ms waits what is left of it, and
is above the line when that is more than 2x idle minus the window's median: rate x duration x pauses/s x
(P - that margin)); then, per version, the idle window's own requests above 2x the idle p99.

usage: python3 tail.py RESULTS_DIR (a bench mixed report: results.json and the app logs)"""
import datetime, gzip, json, math, os, re, sys
d = json.load(open(os.path.join(sys.argv[1], 'results.json')))
idle = d['idle_p99']; thr = 2 * idle
pat = re.compile(r'\[(\d{4}-\d\d-\d\dT[\d:.]+)\+0000\].*Pause (?:Young|Remark|Cleanup|Full)[^\n]* ([\d.]+)ms')
for name, v in d['versions'].items():
    log = os.path.join(sys.argv[1], v.get('app_log') or '')
    pauses = []
    if os.path.isfile(log):
        for line in gzip.open(log, 'rt', errors='replace'):
            m = pat.search(line)
            if m:
                end = datetime.datetime.fromisoformat(m.group(1)).replace(tzinfo=datetime.timezone.utc).timestamp() * 1000
                pauses.append((end - float(m.group(2)), end))
    for w in v['windows']:
        L = w['light']; n = L['requests']; s = L['slowest']
        rank = math.ceil(0.99 * n)  # nearest-rank p99: the (n-rank+1)-th largest
        def gc(r):
            a, b = r['start_ms'], r['start_ms'] + r['latency_ms']
            return any(p0 < b and p1 > a for p0, p1 in pauses)
        above = [r for r in s if r['latency_ms'] > thr]
        nogc = sorted((r['latency_ms'] for r in s if not gc(r)), reverse=True)
        ngc = sum(1 for r in s if gc(r))
        n2 = n - ngc; k = n2 - math.ceil(0.99 * n2)  # index in the descending list
        p99x = nogc[k] if k < len(nogc) else float('nan')
        g = w.get('light_tail_gc') or {}
        dur = (w['end_ms'] - w['start_ms']) / 1000
        expect = L['throughput_per_s'] * dur * g.get('window_gc_pauses_per_s', 0) \
            * max(0.0, g.get('window_gc_pause_mean_ms', 0) - (thr - L['p50_ms'])) / 1000
        print(f"{name:45s} {w['pair']} {w['state']:3s} p99 {L['p99_ms']:6.2f} ({L['p99_ms']/idle:4.2f}x)  >2x idle: {len(above):2d} (in GC {sum(1 for r in above if gc(r)):2d}, pauses alone ~{expect:4.1f} of {n - rank})  p99 w/o GC {p99x:5.2f} ({p99x/idle:4.2f}x)  p90 {L['p90_ms']:.2f}")
    I = v.get('idle_light')
    if I:
        k = sum(1 for r in I['slowest'] if r['latency_ms'] > thr)
        print(f"{name:45s} idle window: {k} of {I['requests']} above 2x idle ({100 * k / I['requests']:.2f} %)")
print('idle p99', idle)
