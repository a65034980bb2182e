#!/usr/bin/env bash
# Fetches Apache Tika server's runnable jar from Maven Central into lib/ (git-ignored), through the
# project's Maven wrapper: nothing of Tika is committed. Prints the jar's path.
#   examples/third-party/tika/fetch.sh [VERSION]     (default 1.28.5)
# 1.28.5 is the last release of tika-server as one runnable jar; the 2.x and 3.x servers
# (tika-server-standard) did not resolve through this project's Maven route (README.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
version="${1:-1.28.5}"
jar="$here/lib/tika-server-$version.jar"
if [ ! -s "$jar" ]; then
  mkdir -p "$here/lib"
  if ! "$root/mvnw" -q -B -ntp dependency:copy \
      -Dartifact="org.apache.tika:tika-server:$version:jar" \
      -DoutputDirectory="$here/lib" >&2; then
    echo "fetch.sh: could not fetch org.apache.tika:tika-server:$version from Maven Central" >&2
    exit 1
  fi
fi
[ -s "$jar" ] || { echo "fetch.sh: $jar is missing after the download" >&2; exit 1; }
echo "$jar"
