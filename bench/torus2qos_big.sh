#!/usr/bin/env bash
# torus2qos_big.sh - issue 21 item 9: torus-2qos on a 3D torus of at least
# 10,000 switches under 30 s on a 2-core machine.
# usage: bench/torus2qos_big.sh [BENCH_BIN]
#   BENCH_BIN defaults to build/rel/bench/bench_route_verify (Release).
#   RUNS runs per fabric (default 3); SPECS ';'-separated fabrics (default
#   torus k=22x22x22 p=1, 10,648 switches, and k=24x24x24 p=2, 13,824
#   switches and 27,648 endpoints).
# Times the routing alone (bench_route_verify ENGINE none: no verifier, no
# dump files; `lanes route -o` spends minutes writing dumps on such fabrics,
# issue 22): wall seconds of lanes_route() per run, and the peak RSS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/rel/bench/bench_route_verify}
IFS=';' read -r -a specs <<<"${SPECS:-torus k=22x22x22 p=1;torus k=24x24x24 p=2}"
for spec in "${specs[@]}"; do
	for run in $(seq "${RUNS:-3}"); do
		# shellcheck disable=SC2086
		out=$("$bin" torus-2qos none $spec) || { echo "$spec: failed"; exit 1; }
		echo "$spec run $run: $(awk '$1 == "switches" || $1 == "route" || $1 == "peak_rss_mb" { printf "%s %s  ", $1, $2 }' <<<"$out")"
	done
done
