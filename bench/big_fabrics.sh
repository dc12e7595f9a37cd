#!/usr/bin/env bash
# big_fabrics.sh - issue 17's speed targets on large fabrics.
# usage: bench/big_fabrics.sh [BENCH_BIN] [ENGINE...]
#   BENCH_BIN defaults to build/gcc/bench/bench_route_verify (build it
#   Release for figures to record). Environment:
#     SPECS   fabrics, ';'-separated (default: the two dragonflies below)
#     THREADS thread counts for the scaling curve (default "1 2" and, where
#             the machine has more cores, every power of two up to nproc)
#     EBB     random bisections for the verifier's EBB (default 10)
#     PARTS   which parts to run (default "1 2")
#     RUNS    runs per point in part 2, the median kept (default 3)
#
# Part 1, routing targets: every engine on each fabric, one run, with the
# default threads (one per core): routing seconds, peak RSS, the verifier's
# verdict and its seconds. The targets: dragonfly a=20 p=10 h=10 (4,020
# switches, 40,200 endpoints) under 60 s and 8 GB on a 2-core machine for
# every engine; dragonfly a=26 p=13 h=13 (8,814 switches, 114,582 endpoints)
# under 60 s, lash and nue under 10 minutes.
#
# Part 2, thread scaling: the engines whose work is per destination (minhop,
# updn, dnup, ud-dfs) and the verifier, on the first fabric, at each thread
# count: wall seconds (the median of RUNS runs), and the speed-up over one
# thread. The targets: 1.8x
# from 1 to 2 threads; 8x from 1 to 16 where there are 16 cores.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/gcc/bench/bench_route_verify}; shift || true
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(minhop updn dnup ud-dfs sssp dfsssp lash nue)
IFS=';' read -r -a specs <<<"${SPECS:-dragonfly a=20 p=10 h=10;dragonfly a=26 p=13 h=13}"
ebb=${EBB:-10}
cores=$(nproc)
if [ -z "${THREADS:-}" ]; then
	THREADS="1 2"
	for t in 4 8 16 32 64; do [ "$t" -le "$cores" ] && THREADS="$THREADS $t"; done
fi

field() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

parts=${PARTS:-1 2}
runs=${RUNS:-3}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [[ " $parts " == *" 1 "* ]]; then
echo "# part 1: routing and verifying, default threads ($cores cores)"
printf '%-24s %-7s %9s %10s %9s %6s %5s\n' FABRIC ENGINE ROUTE-S PEAK-MB VERIFY-S DLFREE REACH
for spec in "${specs[@]}"; do
	read -r -a words <<<"$spec"
	for e in "${engines[@]}"; do
		out=$("$bin" "$e" "$ebb" "${words[@]}" 2>&1) || { printf '%-24s %-7s failed: %s\n' "$spec" "$e" "$(tail -1 <<<"$out")"; continue; }
		printf '%-24s %-7s %9s %10s %9s %6s %5s\n' "$spec" "$e" "$(field route "$out")" \
			"$(field peak_rss_mb "$out")" "$(field verify "$out")" \
			"$(field deadlock_free "$out")" "$(field reachable "$out")"
	done
done

fi

[[ " $parts " == *" 2 "* ]] || exit 0
echo
echo "# part 2: thread scaling on ${specs[0]} (wall seconds; speed-up over 1 thread)"
read -r -a words <<<"${specs[0]}"
printf '%-9s' WORK; for t in $THREADS; do printf ' %12s' "T=$t"; done; echo
# verify: the verifier on updn's routing (no credit loop); verify-loop: on
# minhop's, where a credit loop's witness takes a second, shorter pass.
for e in minhop updn dnup ud-dfs verify verify-loop; do
	eng=$e; [ "$e" = verify ] && eng=updn; [ "$e" = verify-loop ] && eng=minhop
	printf '%-9s' "$e"; base=
	for t in $THREADS; do
		s=$(for ((k = 0; k < runs; k++)); do
			case $e in
			verify*) out=$(THREADS=$t "$bin" "$eng" "$ebb" "${words[@]}" 2>&1); field verify "$out" ;;
			*) out=$(THREADS=$t "$bin" "$eng" none "${words[@]}" 2>&1); field route "$out" ;;
			esac
		done | median)
		[ -n "$base" ] || base=$s
		printf ' %12s' "$s ($(awk -v a="$base" -v b="$s" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'))"
	done
	echo
done
