#!/usr/bin/env bash
# Seed 004's Table 2 (Sancho, Robles, Lopez, Flich, Duato, "Routing in
# InfiniBand Torus Network Topologies", ICPP 2003, Sec. 5): average
# distance, crossing path (most routes on a channel) and deviation crossing
# (their standard deviation) of UD_DFS, FX (Flexible) and e-cube on the
# 4x4, 6x6, 8x8, 3x3x3 and 4x4x4 tori, ours beside the paper's. Ours are
# what `lanes verify --traffic switch-pairs` reports (one route per ordered
# pair of switches, hops in switch-to-switch links, as the paper counts):
# hops_avg, routes_per_channel max and stddev. docs/table2-seed004.md
# explains each difference.
#
#   bash bench/table2_seed004.sh [LANES]      prints a Markdown table
set -euo pipefail
LANES=${1:-build/rel/lanes}
TORI=(4x4 6x6 8x8 3x3x3 4x4x4)
# label | engine and parameters
ROWS=(
  "UD_DFS (paper)|"
  "ud-dfs|ud-dfs"
  "ud-dfs balance=4|ud-dfs:balance=4"
  "ud-dfs order=frontier|ud-dfs:order=frontier"
  "ud-dfs order=frontier balance=4|ud-dfs:order=frontier,balance=4"
  "FX (paper)|"
  "flexible|flexible"
  "flexible trials=1|flexible:trials=1"
  "e-cube (paper)|"
  "ecube|ecube:rings4=1"
  "ecube balance=1|ecube:rings4=1,balance=1"
  "ecube balance=4|ecube:rings4=1,balance=4"
)
# the paper's Table 2: "distance/crossing/deviation" per torus
declare -A PAPER=(
  ["UD_DFS (paper)"]="2.13/12/2.77 3.31/56/13.60 4.57/209/43.30 2.07/15/2.81 3.04/75/14.53"
  ["FX (paper)"]="2.13/8/0.00 3.31/43/10.55 4.57/106/28.50 2.07/9/0 3.04/32/0"
  ["e-cube (paper)"]="2.13/10/0.75 3.08/30/1.35 4.06/70/2.19 2.07/9/0 3.04/48/8.89"
)

# "distance/crossing/deviation" of one engine on one torus (distance truncated
# to two decimals as the paper prints it), or the refusal
ours() {
  "$LANES" verify -e "$1" torus k="$2" p=1 --traffic switch-pairs --ebb-patterns 0 --json \
    2>&1 | python3 -c '
import json, math, sys
text = sys.stdin.read()
try:
    d = json.loads(text)
except ValueError:
    print("error: " + text.strip().splitlines()[-1]); sys.exit()
r = d["routes_per_channel"]
flag = "" if d["deadlock_free"] and d["reachable"] else " (NOT deadlock-free/reachable)"
print("%.2f/%d/%.2f%s" % (math.floor(d["hops_avg"] * 100 + 1e-9) / 100, r["max"], r["stddev"], flag))'
}

echo "| routing |$(for t in "${TORI[@]}"; do printf ' %s |' "$t"; done)"
echo "|---|---|---|---|---|---|"
for row in "${ROWS[@]}"; do
  label=${row%%|*} engine=${row#*|}
  line="| $label"
  if [ -z "$engine" ]; then
    for cell in ${PAPER[$label]}; do line+=" | $cell"; done
  else
    for t in "${TORI[@]}"; do line+=" | $(ours "$engine" "$t")"; done
  fi
  echo "$line |"
done
echo
echo "Cells: average distance / crossing path / deviation crossing (switch pairs)."
