#!/usr/bin/env bash
# Regenerates policies/generated.yaml (or the existing policy file given as $1) by the documented workflow (README.md
# of the project, "Choosing control points from a profile"): `qosweaver profile --request` times one
# heavy request (a PUT of the generated 100-page PDF to /tika) on Tika server without the agent, then
# profiles it with the probe's whole cost taken out, measured against that run; then `qosweaver
# pointcuts PROFILE --interval 10ms --max-occurrence 1000 --cover-all --into FILE`. 10 ms, not the
# river monitor's 25 ms: the light requests here wait for the heavy threads' next control point.
# Needs curl. Takes about three minutes; writes its scratch files to run/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-$here/policies/generated.yaml}"
jar="$("$here/fetch.sh")"
work="$here/run/profile"
rm -rf "$work" && mkdir -p "$work"
"$root/qosweaver" bench mixed --app tika --prepare "$work" >&2
port=3392
(cd "$work" && "$root/qosweaver" profile --include org.apache.tika,org.apache.pdfbox,org.apache.fontbox \
    --out "$work/extract.qwp" --requests 5 --warm-up 20 \
    --request "curl -sf -o /dev/null -X PUT -H 'Content-Type: application/pdf' --data-binary @$work/heavy.pdf http://127.0.0.1:$port/tika" \
    -- java -Xmx2g -jar "$jar" -h 127.0.0.1 -p $port)
"$root/qosweaver" pointcuts "$work/extract.qwp" --interval 10ms --max-occurrence 1000 --cover-all --into "$out"
