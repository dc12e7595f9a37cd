#!/usr/bin/env bash
# engine_scaling.sh - routing time and peak memory of each engine against
# fabric size (issue 4). usage: bench/engine_scaling.sh [BENCH_BIN] [ENGINE...]
#   BENCH_BIN defaults to build/gcc/bench/bench_route_verify; RUNS (default 3)
#   runs per point, the median recorded; LIMIT (default 60) seconds: an engine
#   stops growing after the first size it routes slower than that.
#
# The targets: updn, sssp and dfsssp under 60 s and 8 GB on a dragonfly of
# at least 100,000 endpoints on a 2-core machine; for lash and nue, the
# largest fabric routed within 60 s and how the time grows. The time is the
# engine's alone (lanes_route in-process, no file writing), the memory the
# peak resident set of the process (fabric + routing: the LFTs of the
# largest dragonfly are 1.09 GB by themselves).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gcc/bench/bench_route_verify}; shift || true
runs=${RUNS:-3}
limit=${LIMIT:-60}
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(minhop updn dnup ud-dfs sssp dfsssp lash nue)

# Dragonflies of seed 000's shape (a = 2p = 2h, every group joined to every
# other): 1,056 to 114,582 endpoints; tori with 4 hosts per switch (100 to
# 4,096 switches; OpenSM's nue took 6.5 s on 1,000 switches here).
DRAGONFLIES=("a=8 p=4 h=4" "a=10 p=5 h=5" "a=12 p=6 h=6" "a=14 p=7 h=7" "a=16 p=8 h=8"
             "a=20 p=10 h=10" "a=26 p=13 h=13")
TORI=("k=10x10 p=4" "k=12x12 p=4" "k=20x20 p=4" "k=32x32 p=4" "k=45x45 p=4" "k=64x64 p=4")

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

point() { # point ENGINE KIND PARAMS -> one Markdown row; exit 1 if over the limit or failed
  local eng=$1 kind=$2 params=$3 tmp times=() mems=() sw ep vls rc=0
  tmp=$(mktemp)
  local errf=$tmp.err
  for i in $(seq "$runs"); do
    # shellcheck disable=SC2086
    timeout $((limit * 3)) "$bin" "$eng" none "$kind" $params >"$tmp" 2>"$errf"; rc=$?
    if [ $rc = 124 ]; then
      echo "| $eng | $kind $params | | | over $((limit * 3)) s (stopped) | | |"; rm -f "$tmp" "$errf"; return 1
    elif [ $rc != 0 ]; then
      echo "| $eng | $kind $params | | | failed: $(tail -1 "$errf" | sed 's/^bench_route_verify: route: //') | | |"
      rm -f "$tmp" "$errf"; return 1
    fi
    times+=("$(awk '$1 == "route" { print $2 }' "$tmp")")
    mems+=("$(awk '$1 == "peak_rss_mb" { print $2 }' "$tmp")")
    # one slow run is enough to know the point is over the limit
    awk -v t="${times[-1]}" -v l="$limit" 'BEGIN { exit !(t > l) }' && break
  done
  sw=$(awk '$1 == "switches" { print $2 }' "$tmp"); ep=$(awk '$1 == "endpoints" { print $2 }' "$tmp")
  vls=$(awk '$1 == "vls" { print $2 }' "$tmp")
  local t m
  t=$(printf '%s\n' "${times[@]}" | median); m=$(printf '%s\n' "${mems[@]}" | median)
  echo "| $eng | $kind $params | $sw | $ep | $t (${#times[@]} runs: ${times[*]}) | $m | $vls |"
  rm -f "$tmp" "$errf"
  awk -v t="$t" -v l="$limit" 'BEGIN { exit !(t <= l) }' || rc=1
  return $rc
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown), runs: $runs, limit: $limit s"
echo
echo "| engine | fabric | switches | endpoints | route (s), median | peak RSS (MB) | VLs |"
echo "|---|---|---|---|---|---|---|"
for eng in "${engines[@]}"; do
  for p in "${DRAGONFLIES[@]}"; do point "$eng" dragonfly "$p" || break; done
  case $eng in
    lash|nue) for p in "${TORI[@]}"; do point "$eng" torus "$p" || break; done ;;
  esac
done
