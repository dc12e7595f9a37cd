#!/usr/bin/env bash
# ftree_big.sh - the ftree engine on large k-ary 3-trees (issue 21 item 9).
# usage: bench/ftree_big.sh [BENCH_BIN]
#   BENCH_BIN defaults to build/rel/bench/bench_route_verify (a Release
#   build). Environment: RUNS (default 3) runs per fabric, the median kept;
#   SPECS the fabrics, ';'-separated (default the four k-ary 3-trees below).
#
# The target: ftree on a fat tree of at least 100,000 endpoints under 30 s
# on a 2-core machine. fattree k=48 n=3 is 110,592 hosts and 6,912 switches
# of 96 ports. The time is the routing alone (lanes_route in-process: the
# engine's build, routing and completion; no verifier, no file writing);
# the memory the peak resident set of the process (fabric + routing: the
# LFTs of k=48 are 117,504 LIDs x 6,912 switches, 812 MB by themselves).
# Each run also prints the process's CPU seconds (user + system), which a
# loaded machine disturbs less than the wall time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/rel/bench/bench_route_verify}
runs=${RUNS:-3}
IFS=';' read -r -a specs <<<"${SPECS:-fattree k=16 n=3;fattree k=24 n=3;fattree k=32 n=3;fattree k=48 n=3}"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-20s %9s %9s %9s %9s %10s\n' FABRIC SWITCHES HOSTS ROUTE-S CPU-S PEAK-MB
for spec in "${specs[@]}"; do
	read -r -a words <<<"$spec"
	route=() cpu=() rss=() sw=- hosts=-
	for ((i = 0; i < runs; i++)); do
		out=$(/usr/bin/time -f 'cpu %U %S' "$bin" ftree none "${words[@]}" 2>&1) || {
			printf '%-20s failed: %s\n' "$spec" "$(tail -1 <<<"$out")"; continue 2; }
		route+=("$(awk '$1 == "route" { print $2 }' <<<"$out")")
		cpu+=("$(awk '$1 == "cpu" { print $2 + $3 }' <<<"$out")")
		rss+=("$(awk '$1 == "peak_rss_mb" { print $2 }' <<<"$out")")
		sw=$(awk '$1 == "switches" { print $2 }' <<<"$out")
		hosts=$(awk '$1 == "endpoints" { print $2 }' <<<"$out")
	done
	printf '%-20s %9s %9s %9s %9s %10s\n' "$spec" "$sw" "$hosts" \
		"$(printf '%s\n' "${route[@]}" | median)" "$(printf '%s\n' "${cpu[@]}" | median)" \
		"$(printf '%s\n' "${rss[@]}" | median)"
done
