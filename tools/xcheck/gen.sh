#!/bin/bash
# gen.sh OUTDIR SEED... : Ferrovia random games, players = seed % 5 + 2, quick start A when
# seed % 7 == 3 and B when seed % 7 == 5 (OUTDIR absolute or relative to the caller).
set -e
out=$(realpath -m "$1"); shift
mkdir -p "$out"
root=$(cd "$(dirname "$0")/../.." && pwd)
for s in "$@"; do
  p=$(( (s % 5) + 2 ))
  opt=(); tag=""
  case $(( s % 7 )) in 3) opt=(--option quick_start_a); tag="-qa";; 5) opt=(--option quick_start_b); tag="-qb";; esac
  "$root/.venv/bin/ferrovia" play --players "$p" --seed "$s" "${opt[@]}" --log "$out/g-$s-$p$tag.json" --json > "$out/g-$s-$p$tag.play" 2>&1 || true
done
