#!/bin/bash
# gen.sh OUTDIR SEED... : Ferrovia random games. GAME (default 1858) picks the game; players =
# seed % 5 + 2 for 1858 (2-6), seed % 4 + 3 for a game of 3-6 such as 1858_india or 1830; in the
# 1858 family quick start A when seed % 7 == 3 and B when seed % 7 == 5 (OUTDIR absolute or
# relative to the caller).
set -e
out=$(realpath -m "$1"); shift
mkdir -p "$out"
root=$(cd "$(dirname "$0")/../.." && pwd)
game=${GAME:-1858}
ferrovia=${FERROVIA:-"$root/.venv/bin/ferrovia"}  # e.g. "python -m ferrovia" on a frozen copy
for s in "$@"; do
  if [ "$game" = 1858 ]; then p=$(( (s % 5) + 2 )); else p=$(( (s % 4) + 3 )); fi
  opt=(); tag=""
  [[ "$game" == 1858* ]] && case $(( s % 7 )) in 3) opt=(--option quick_start_a); tag="-qa";; 5) opt=(--option quick_start_b); tag="-qb";; esac
  name="g-$s-$p$tag"; [ "$game" = 1858 ] || name="$game-$s-$p$tag"
  $ferrovia play --game "$game" --players "$p" --seed "$s" "${opt[@]}" --log "$out/$name.json" --json > "$out/$name.play" 2>&1 || true
done
