"""Probe aid, not the product: puts the JIT compiler threads of ONE Tika process (its command line holds MARKER)
in SCHED_IDLE while its version is switched on and the agent's 30 s compiler boost after the switch is over,
and back in SCHED_OTHER when it is switched off. Logs every change with the time."""
import os, re, subprocess, sys, time
log, marker, out = sys.argv[1], sys.argv[2], open(sys.argv[3], 'a')
state, since, seen, demoted = 'off', 0.0, 0, set()

def pid():
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                c = open(f'/proc/{p}/cmdline', 'rb').read().decode(errors='replace')
            except OSError:
                continue
            if 'tika-server' in c and marker in c and '-javaagent' in c:
                return p
    return None

def compilers(p):
    out_ = []
    for t in os.listdir(f'/proc/{p}/task'):
        try:
            n = open(f'/proc/{p}/task/{t}/comm').read().strip()
        except OSError:
            continue
        if n.startswith(('C1 CompilerThre', 'C2 CompilerThre')):
            out_.append(t)
    return out_

while True:
    try:
        lines = open(log).read().splitlines()
    except OSError:
        lines = []
    for l in lines[seen:]:
        if marker in l:
            if 'switched on (in' in l or 'switched on: the full load' in l:
                state, since = 'on', time.time()
            elif 'switched off (in' in l or 'idle window' in l:
                state, since = 'off', time.time()
    seen = len(lines)
    if lines and lines[-1].strip() == 'done':
        break
    p = pid()
    if p:
        try:
            if state == 'on' and time.time() - since >= 33:
                for t in compilers(p):
                    if t not in demoted:
                        subprocess.run(['chrt', '-i', '-p', '0', t], stderr=subprocess.DEVNULL)
                        demoted.add(t); print(f'{time.time():.1f} idle {t}', file=out, flush=True)
            elif state == 'off' and demoted:
                for t in list(demoted):
                    subprocess.run(['chrt', '-o', '-p', '0', t], stderr=subprocess.DEVNULL)
                    demoted.discard(t); print(f'{time.time():.1f} other {t}', file=out, flush=True)
        except OSError:
            pass
    else:
        demoted.clear()
    time.sleep(0.25)
