#!/usr/bin/env bash
# Regenerates policies/generated.yaml (or the existing policy file given as $1) by the documented workflow (README.md
# of the project, "Choosing control points from a profile"): `qosweaver profile --request` times one
# aggregate on Fuseki without the agent, then profiles it with the probe's whole cost taken out,
# measured against that run; then `qosweaver pointcuts PROFILE --interval 10ms --max-occurrence
# 100000 --cover-all --into FILE`.
# Needs curl. Takes about three minutes; writes its scratch files to run/ (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-$here/policies/generated.yaml}"
jar="$("$here/fetch.sh")"
work="$here/run/profile"
rm -rf "$work" && mkdir -p "$work"
"$root/qosweaver" bench mixed --app fuseki --prepare "$work" >&2
port=3391
query='PREFIX ex: <http://example.org/> SELECT ?cat (COUNT(*) AS ?n) (AVG(?price) AS ?avg) WHERE { ?s ex:category ?cat ; ex:price ?price } GROUP BY ?cat ORDER BY DESC(?n)'
(cd "$work" && "$root/qosweaver" profile --include org.apache.jena.sparql,org.apache.jena.atlas,org.apache.jena.mem \
    --out "$work/aggregate.qwp" --requests 5 --warm-up 10 \
    --request "curl -sf -o /dev/null -G --data-urlencode 'query=$query' http://127.0.0.1:$port/ds/analytics" \
    -- java -Xmx2g -jar "$jar" --port=$port --config=config.ttl)
"$root/qosweaver" pointcuts "$work/aggregate.qwp" --interval 10ms --max-occurrence 100000 --cover-all --into "$out"
