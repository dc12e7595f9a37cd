#!/usr/bin/env bash
# Seed 000's Figures 14 to 19 (Maglione-Mathey et al., JPDC 2021, Sec. 5.2)
# on a machine with many cores: the same runs as bench/seed000_curves.sh, but
# one `lanes sim` process per load point, run JOBS at a time, the most
# expensive first (highest load), each point's CSV kept as soon as it is
# done, so an interrupted run keeps what it finished.
#
#   bash bench/seed000_points.sh run LANES OUTDIR [SIZES] [PATTERNS] [ENGINES] [JOBS]
#   bash bench/seed000_points.sh tables OUTDIR [SIZES] [PATTERNS] [ENGINES]
#     SIZES, PATTERNS, ENGINES as in seed000_curves.sh (default "5100", all
#     three patterns, every engine); JOBS default: the number of cores.
#     The stencil runs with the random placement, as seed000_curves.sh's
#     default. DEADLINE (environment, seconds since the epoch) stops every
#     run at that time; a rerun into the same OUTDIR does only what is
#     missing.
#
# A point run alone is point 0 of its own sweep, so its traffic and
# injection draws differ from the same load inside a 10-point sweep
# (docs/sim.md, "Sweeps and threads"): the same statistics, not the same
# numbers as seed000_curves.sh. `tables` prints the Markdown tables of
# seed000_curves.sh from OUTDIR; a point not run is "-".
set -euo pipefail
mode=${1:?run or tables}
declare -A spec=([72]="dragonfly a=4 p=2 h=2" [342]="dragonfly a=6 p=3 h=3"
                 [1056]="dragonfly a=8 p=4 h=4" [2550]="dragonfly a=10 p=5 h=5"
                 [144]="dragonfly a=4 p=4 h=2" [684]="dragonfly a=6 p=6 h=3"
                 [2112]="dragonfly a=8 p=8 h=4" [5100]="dragonfly a=10 p=10 h=5")
loads="1.0 0.9 0.8 0.7 0.6 0.5 0.4 0.3 0.2 0.1"

if [ "$mode" = run ]; then
  lanes=$(realpath "${2:?LANES}") out=${3:?OUTDIR}
  sizes=${4:-5100} patterns=${5:-uniform stencil3d hotspot}
  engines=${6:-dla d3r lash updn dfsssp sssp-df minhop-df} jobs=${7:-$(nproc)}
  mkdir -p "$out"
  # shellcheck disable=SC2016 # the job's own variables, expanded by its bash
  for n in $sizes; do
    for l in $loads; do
      for pat in $patterns; do
        for e in $engines; do
          echo "$n $pat $e $l"
        done
      done
    done
  done | LANES=$lanes OUT=$out DEADLINE=${DEADLINE:-0} xargs -P "$jobs" -L 1 bash -c '
    n=$0 pat=$1 e=$2 l=$3 f="$OUT/$n-$1-$2-$3.csv"
    [ -s "$f" ] && exit 0
    case $pat in hotspot) extra="--time 1000000" ;; stencil3d) extra="--placement random" ;; *) extra= ;; esac
    case $n in
      72) s="a=4 p=2 h=2" ;; 342) s="a=6 p=3 h=3" ;; 1056) s="a=8 p=4 h=4" ;; 2550) s="a=10 p=5 h=5" ;;
      144) s="a=4 p=4 h=2" ;; 684) s="a=6 p=6 h=3" ;; 2112) s="a=8 p=8 h=4" ;; 5100) s="a=10 p=10 h=5" ;;
    esac
    limit=$(( DEADLINE > 0 ? DEADLINE - $(date +%s) : 864000 ))
    [ "$limit" -gt 0 ] || exit 0
    # shellcheck disable=SC2086
    timeout "$limit" "$LANES" sim -e "$e" dragonfly $s --pattern "$pat" --load "$l" --threads 1 --csv $extra \
      >"$f.part" 2>"$f.err" && mv "$f.part" "$f" || rm -f "$f.part"'
  exit 0
fi

out=${2:?OUTDIR}
sizes=${3:-5100} patterns=${4:-uniform stencil3d hotspot}
engines=${5:-dla d3r lash updn dfsssp sssp-df minhop-df}
for n in $sizes; do
  for pat in $patterns; do
    title=$pat
    [ "$pat" = stencil3d ] && title="$pat, random placement"
    echo "### ${spec[$n]} ($n endpoints), $title"
    echo
    echo "| engine | 0.1 | 0.2 | 0.3 | 0.4 | 0.5 | 0.6 | 0.7 | 0.8 | 0.9 | 1.0 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for e in $engines; do
      row=
      for l in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0; do
        f="$out/$n-$pat-$e-$l.csv"
        # CSV: engine,load,accepted,...,deadlock (field 6)
        cell=$( [ -s "$f" ] && awk -F, 'NR == 2 { printf "%.4f%s", $3, ($6 == "no" ? "" : "*") }' "$f" || echo -)
        row="$row ${cell:--} |"
      done
      echo "| $e |$row"
    done
    echo
  done
done
echo "Accepted throughput as a fraction of link bandwidth; * marks a point where the watchdog saw a deadlock; - a point not run."
