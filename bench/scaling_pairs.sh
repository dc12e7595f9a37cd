#!/usr/bin/env bash
# scaling_pairs.sh - thread scaling on a noisy machine: pairs of runs, one
# thread then two, in turns, and the median of the pairs' ratios.
# usage: bench/scaling_pairs.sh [BENCH_BIN] [RUNS] [KIND k=v...]
#   defaults: build/rel/bench/bench_route_verify, 7 pairs, dragonfly a=20 p=10 h=10.
# Prints per work (minhop, updn, dnup, ud-dfs, and the verifier on updn's
# routing with 10 EBB patterns) the median wall seconds at 1 and 2 threads,
# the median of the pair ratios and their range. bench/big_fabrics.sh part 2
# takes medians of each side instead.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/rel/bench/bench_route_verify}
runs=${2:-7}
shift 2 2>/dev/null || shift $#
spec=("$@")
[ ${#spec[@]} -gt 0 ] || spec=(dragonfly a=20 p=10 h=10)
works=(minhop updn dnup ud-dfs verify)

one() { # WORK THREADS: wall seconds of the routing, or of the verifier
	if [ "$1" = verify ]; then
		THREADS=$2 "$bin" updn 10 "${spec[@]}" 2>&1 | awk '$1 == "verify" { print $2 }'
	else
		THREADS=$2 "$bin" "$1" none "${spec[@]}" 2>&1 | awk '$1 == "route" { print $2 }'
	fi
}

declare -A one_t two_t
for ((i = 0; i < runs; i++)); do
	for w in "${works[@]}"; do
		one_t[$w]+="$(one "$w" 1) "
		two_t[$w]+="$(one "$w" 2) "
	done
done
echo "# ${spec[*]}: $runs pairs, one thread then two"
for w in "${works[@]}"; do
	awk -v w="$w" -v a="${one_t[$w]}" -v b="${two_t[$w]}" '
	function median(x, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	BEGIN {
		n = split(a, x); split(b, y)
		lo = 1e9; hi = 0
		for (i = 1; i <= n; i++) { r[i] = y[i] > 0 ? x[i] / y[i] : 0; if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
		printf "%-7s T1 %.3f T2 %.3f speed-up %.2fx (pairs %.2f-%.2fx)\n", w, median(x, n), median(y, n), median(r, n), lo, hi
	}'
done
