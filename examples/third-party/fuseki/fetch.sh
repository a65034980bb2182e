#!/usr/bin/env bash
# Fetches Apache Jena Fuseki's server jar from Maven Central into lib/ (git-ignored), through the
# project's Maven wrapper: nothing of Fuseki is committed. Prints the jar's path.
#   examples/third-party/fuseki/fetch.sh [VERSION]     (default 5.6.0)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
version="${1:-5.6.0}"
jar="$here/lib/jena-fuseki-server-$version.jar"
if [ ! -s "$jar" ]; then
  mkdir -p "$here/lib"
  if ! "$root/mvnw" -q -B -ntp dependency:copy \
      -Dartifact="org.apache.jena:jena-fuseki-server:$version:jar" \
      -DoutputDirectory="$here/lib" >&2; then
    echo "fetch.sh: could not fetch org.apache.jena:jena-fuseki-server:$version from Maven Central" >&2
    exit 1
  fi
fi
[ -s "$jar" ] || { echo "fetch.sh: $jar is missing after the download" >&2; exit 1; }
echo "$jar"
