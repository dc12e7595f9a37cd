#!/usr/bin/env bash
# Seed 000's Figures 14 to 19 (Maglione-Mathey et al., JPDC 2021, Sec. 5.2):
# accepted throughput against offered load for every engine on the balanced
# dragonflies of its Table 2, under uniform, 6-point 3D stencil and hot-spot
# traffic, VOQ on, 16 packets per VL, 8 VLs, QDR 4x, 4 KB packets, 1 ms
# warm-up then 5 ms measured (hot-spot: 1 ms measured, as the paper says).
#
#   bash bench/seed000_curves.sh [BENCH_SIM] [SIZES] [PATTERNS] [ENGINES] [STENCIL_PLACEMENT]
#     SIZES    "72 342 1056 2550" (default "72 342"; 1056 and 2550 take minutes);
#              the oversubscribed a = 2h = p ones of Figures 17 to 19 are
#              "144 684 2112 5100"
#     PATTERNS "uniform stencil3d hotspot" (default)
#     ENGINES  "dla d3r lash updn dfsssp sssp-df minhop-df" (default)
#     STENCIL_PLACEMENT  random (default) or linear: where the stencil's ranks
#              run (docs/traffic-patterns.md); the paper calls its stencil
#              results stable across sizes, which the random placement
#              reproduces and the linear one does not (docs/sim-seed000.md)
# Prints one Markdown table per fabric and pattern: accepted per load.
set -euo pipefail
bin=${1:-build/rel/bench/bench_sim}
sizes=${2:-72 342}
patterns=${3:-uniform stencil3d hotspot}
engines=${4:-dla d3r lash updn dfsssp sssp-df minhop-df}
stencil_placement=${5:-random}
declare -A spec=([72]="dragonfly a=4 p=2 h=2" [342]="dragonfly a=6 p=3 h=3"
                 [1056]="dragonfly a=8 p=4 h=4" [2550]="dragonfly a=10 p=5 h=5"
                 [144]="dragonfly a=4 p=4 h=2" [684]="dragonfly a=6 p=6 h=3"
                 [2112]="dragonfly a=8 p=8 h=4" [5100]="dragonfly a=10 p=10 h=5")
for n in $sizes; do
  for pat in $patterns; do
    window=5000000 placement=linear title=$pat
    [ "$pat" = hotspot ] && window=1000000
    [ "$pat" = stencil3d ] && placement=$stencil_placement title="$pat, $placement placement"
    echo "### ${spec[$n]} ($n endpoints), $title"
    echo
    echo "| engine | 0.1 | 0.2 | 0.3 | 0.4 | 0.5 | 0.6 | 0.7 | 0.8 | 0.9 | 1.0 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for e in $engines; do
      row=$("$bin" "${spec[$n]}" "$e" 10 0 "$window" "$pat" "$placement" |
            awk '$1 ~ /^[01]\.[0-9]+$/ { printf " %s |", ($8 == 1 ? $2 "*" : $2) }')
      echo "| $e |$row"
    done
    echo
  done
done
echo "Accepted throughput as a fraction of link bandwidth; * marks a point where the watchdog saw a deadlock."
