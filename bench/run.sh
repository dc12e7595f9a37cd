#!/usr/bin/env bash
# Run the benchmarks and print their medians as Markdown rows for
# bench/RESULTS.md. usage: bench/run.sh [LANES] (default build/gcc/lanes)
# RUNS (default 5) sets the number of repetitions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lanes=${1:-$here/../build/gcc/lanes}
bin=$(dirname "$lanes")/bench/bench_fabric
data=$here/../../shared/data
runs=${RUNS:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%d), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown), runs: $runs"
echo
spec=(dragonfly a=26 p=13 h=13)
for i in $(seq "$runs"); do
  "$bin" "${spec[@]}" -- "$tmp/df.txt" "$data/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" >"$tmp/run$i"
done
echo "| phase | median of $runs (s) |"
echo "|---|---|"
for phase in generate write read stats read_real peak_rss_mb; do
  m=$(cat "$tmp"/run* | awk -v p=$phase '$1 == p { print $2 }' | median)
  echo "| $phase | $m |"
done
total=$(for i in $(seq "$runs"); do awk '$1 == "generate" || $1 == "write" || $1 == "read" { s += $2 } END { print s }' "$tmp/run$i"; done | median)
echo "| generate + write + read | $total |"
grep -E '^(endpoints|switches|diameter)' "$tmp/run1" | sed 's/^/fabric: /'
echo
echo "CLI, end to end (hyperfine, $runs runs):"
if command -v hyperfine >/dev/null; then
  hyperfine -N --runs "$runs" --export-markdown "$tmp/h.md" \
    "$lanes topo gen ${spec[*]} -o $tmp/cli.txt" \
    "$lanes topo info $tmp/cli.txt" \
    "$lanes topo info $data/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" >/dev/null
  cat "$tmp/h.md"
fi
/usr/bin/time -f "peak memory of 'lanes topo info' on the 114,582-endpoint dragonfly: %M KB" \
  "$lanes" topo info "$tmp/cli.txt" >/dev/null

# Issue 3: minhop and the verifier (100 bisections for the EBB) on the same fabric
rv=$(dirname "$lanes")/bench/bench_route_verify
echo
echo "| phase (minhop + verify, ${spec[*]}) | median of $runs (s) |"
echo "|---|---|"
for i in $(seq "$runs"); do "$rv" minhop 100 "${spec[@]}" >"$tmp/rv$i"; done
for phase in route verify peak_rss_mb; do
  m=$(cat "$tmp"/rv* | awk -v p=$phase '$1 == p { print $2 }' | median)
  echo "| $phase | $m |"
done
grep -E '^(deadlock_free|reachable|rpc_max|ebb)' "$tmp/rv1" | sed 's/^/result: /'
