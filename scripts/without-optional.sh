#!/usr/bin/env bash
# Runs a command as on a machine with only Node: Chromium, zsh, fish, faketime and jq (the
# programs from outside npm that some tests drive; see test/helpers/requires.ts) are left
# off the PATH, everything else on it stays. For example:
#   scripts/without-optional.sh npm test
#   CI=true scripts/without-optional.sh npx vitest run test/commands/completion/completion.test.ts
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: scripts/without-optional.sh COMMAND [ARGS...]" >&2; exit 2; }
bin=$(mktemp -d "${TMPDIR:-/tmp}/voicectl-path-XXXXXX")
trap 'rm -rf "$bin"' EXIT
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for f in "$dir"/*; do
    name=${f##*/}
    case "$name" in chromium|chromium-browser|zsh|zsh-*|fish|fish_*|faketime|jq) continue ;; esac
    [ -x "$f" ] && [ ! -e "$bin/$name" ] && ln -s "$f" "$bin/$name"
  done
done
PATH="$bin" "$@"
