#!/usr/bin/env bash
# Seed 000's Table 2 (Maglione-Mathey, Escudero-Sahuquillo, Garcia, Quiles,
# Zahavi, "Leveraging InfiniBand controller to configure deadlock-free routing
# engines for Dragonflies", JPDC 2021): the SLs and VLs each engine needs on
# the balanced, fully connected dragonflies a = 2h = 2p with 72, 342, 1056 and
# 2550 endpoints, ours beside the paper's. Ours are what `lanes compare
# --json` reports: needed (what the engine's scheme needs) and used (what the
# routing spreads over, with the default budget of 8 VLs and 16 SLs).
#
#   bash bench/table2.sh [LANES]      prints a Markdown table
set -euo pipefail
LANES=${1:-build/rel/lanes}
ENGINES=(dla d3r lash updn dfsssp sssp-df minhop-df)
# the paper's Table 2: "SLs/VLs" for 72, 342, 1056, 2550 nodes
declare -A PAPER=(
  [dla]="1/2 1/2 1/2 1/2" [d3r]="2/2 2/2 2/2 2/2" [lash]="2/2 2/2 3/3 3/3"
  [updn]="1/1 1/1 1/1 1/1" [dfsssp]="8/8 8/8 8/8 8/8"
  [sssp-df]="3/3 4/3 5/3 6/3" [minhop-df]="4/3 5/3 6/3 6/3")
SIZES=("4 2 2" "6 3 3" "8 4 4" "10 5 5")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!SIZES[@]}"; do
  read -r a p h <<<"${SIZES[$i]}"
  "$LANES" compare dragonfly a="$a" p="$p" h="$h" -e "$(IFS=,; echo "${ENGINES[*]}")" \
    --ebb-patterns 0 --json >"$tmp/$i.json" || true
done

# "SLs/VLs needed (used)" of one engine on one fabric, from compare's JSON
ours() {
  python3 - "$1" "$2" <<'PY'
import json, sys
rows = {r["engine"]: r for r in json.load(open(sys.argv[1]))}
r = rows.get(sys.argv[2])
if r is None or r["error"]:
    print("refused")
else:
    need = "%d/%d" % (r["sls_needed"], r["vls_needed"])
    used = "%d/%d" % (r["sls"], r["vls"])
    print(need if need == used else "%s (uses %s)" % (need, used))
PY
}

echo "| engine | 72: paper | 72: ours | 342: paper | 342: ours | 1056: paper | 1056: ours | 2550: paper | 2550: ours |"
echo "|---|---|---|---|---|---|---|---|---|"
for e in "${ENGINES[@]}"; do
  read -r -a paper <<<"${PAPER[$e]}"
  line="| $e"
  for i in "${!SIZES[@]}"; do
    line+=" | ${paper[$i]} | $(ours "$tmp/$i.json" "$e")"
  done
  echo "$line |"
done
echo
echo "Cells are SLs/VLs needed; \"(uses ...)\" where the routing spreads over more."
