#!/usr/bin/env bash
# Fingerprints of behaviour that a refactoring must not change: seeded `play` logs and JSON
# (1858 at 2, 4 and 6 players, a greedy/random mix, 1830, India, Switzerland), the replay JSON
# of every 1858/1830 export and reference-random game in ../shared, and a seeded `simulate`.
# Timings are stripped.  Usage, from the repository root with the virtualenv active:
#   tools/fingerprint.sh OUTDIR      # writes OUTDIR/* and OUTDIR.sha (sha256 of each file)
#   diff before.sha after.sha        # identical = same behaviour
set -euo pipefail
out=${1:?usage: tools/fingerprint.sh OUTDIR}
mkdir -p "$out"
fixtures=../shared/fixtures
for game in "--players 4 --seed 1" "--players 2 --seed 20" "--players 6 --seed 20" \
  "--game 1830 --players 4 --seed 3" "--game 1858_india --players 5 --seed 2" \
  "--game 1858_switzerland --players 3 --seed 4" "--players 3 --seed 5 --bots greedy,random,greedy"; do
  name=$(echo "$game" | tr -c 'a-z0-9\n' '_')
  # shellcheck disable=SC2086  # the flags are meant to split
  ferrovia play $game --json --log "$out/play_$name.json" >"$out/play_$name.out" 2>&1 || true
  sed -i 's/"seconds": [^,}]*//; s/"timings": {[^}]*}//' "$out/play_$name.out"
done
if [ -d "$fixtures" ]; then
  for f in "$fixtures"/18xx.games/1858/*.json "$fixtures"/18xx.games/1858India/*.json \
    "$fixtures"/18xx.games/1858Switzerland/*.json "$fixtures"/18xx.games/1830/*.json \
    "$fixtures"/reference-random/*.json; do
    ferrovia replay --json "$f" 2>&1 | sed 's/"seconds": {[^}]*}//' \
      >"$out/replay_$(basename "$(dirname "$f")")_$(basename "$f").out" || true
  done
else
  echo "fingerprint: $fixtures is absent; replays not fingerprinted" >&2
fi
ferrovia simulate 1858 --games 3 --players 4 --seed 7 --json "$out/sim.json" >/dev/null 2>&1
python - "$out/sim.json" <<'PY'
import json
import sys

def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if "second" not in k and "time" not in k and k != "workers"}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o

data = json.load(open(sys.argv[1]))
json.dump(strip(data), open(sys.argv[1], "w"), sort_keys=True, indent=1)
PY
(cd "$out" && sha256sum -- * >"../$(basename "$out").sha")
echo "fingerprint: $(wc -l <"$out/../$(basename "$out").sha") files -> $out.sha"
