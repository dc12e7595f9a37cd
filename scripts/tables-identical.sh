#!/usr/bin/env bash
# tables-identical.sh OLD_LANES NEW_LANES [OUTDIR]
#
# Routes every engine on every case below with two builds of `lanes` and
# compares what they write byte for byte: the LFTs (opensm-lfts.dump), the
# SL2VL maps (opensm-sl2vl.dump), the path SLs (lanes-path-sl.txt), and, when
# an engine refuses, the exit status and the message. This is how a change
# that must not alter any table (a refactoring, a speed-up) is checked: build
# the commit you start from beside your work tree and run
#
#   bash scripts/tables-identical.sh ../base/build/lanes build/gcc/lanes
#
# The cases: every real fabric of ../shared/data, the small generated fabrics
# of tests/unit/testutil.h, a few medium ones (where the engines' large-fabric
# paths start), each also with 5% of its switch links failed (seeds 1 and 2)
# and at LMC 1; the option sets: the defaults, --vls 4 --sls 4, --vls 1, and
# --ca-lids-only. Prints one line per differing case and a total; exits 1 if
# any case differs. ENGINES="updn dnup" limits the engines, JOBS the
# parallel cases (default 2).
set -u
old=$1 new=$2
out=${3:-$(mktemp -d /tmp/tables-identical.XXXXXX)}
here=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA:-$here/../shared/data}
jobs=${JOBS:-2}
mkdir -p "$out/fabrics"

engines=${ENGINES:-$("$new" engines | awk 'NR > 1 { print $1 }')}

small=(
	"dragonfly a=2 p=1 h=1" "dragonfly a=4 p=2 h=2" "dragonfly a=3 p=1 h=2 g=5 wiring=palmtree"
	"slimfly q=3" "slimfly q=5 p=1" "hyperx K=3x3 p=1" "hyperx K=2x3x2 L=2,1,1 p=1"
	"torus k=3x3 p=1" "torus k=4x2x3 p=1" "mesh k=3x3 p=1" "mesh k=2x4 p=2" "hypercube n=3 p=1"
	"fattree k=2 n=3" "fattree k=4 n=2" "xgft h=2 m=2,2 w=1,2" "xgft h=3 m=2,2,2 w=1,2,2"
	"sfxff q=3 K=2 p=1" "jellyfish switches=10 degree=3 p=1"
	"jellyfish switches=16 degree=4 p=2 seed=7"
	"torus k=10x10 p=4" "dragonfly a=8 p=4 h=4" "fattree k=8 n=3" "hyperx K=6x6 p=3 L=2"
	"slimfly q=7 p=4" "jellyfish switches=120 degree=8 p=4 seed=3"
)

# Write every fabric once as an ibsim file (so both builds read the same
# input, faults applied), plus an LMC 1 copy of the generated ones.
n=0
fabric() { # NAME ARGS...: write $out/fabrics/NAME.net
	local name=$1; shift
	"$new" topo convert "$@" --to ibsim -o "$out/fabrics/$name.net" 2>/dev/null
}
lmc1() { # NAME: an LMC 1 copy (CA port LIDs cleared, so lanes assigns aligned ranges)
	awk '/^caguid=/ { ca = 1 } /^switchguid=/ { ca = 0 }
	     ca && /^\[/ { sub(/ lid [0-9]+ lmc 0/, " lid 0 lmc 1") } { print }' \
		"$out/fabrics/$1.net" >"$out/fabrics/$1-lmc1.net"
}
for f in "$data"/*; do
	case $f in *README*) continue ;; esac
	n=$((n + 1)); b=real$n
	fabric "$b" "$f" || continue
	for s in 1 2; do fabric "$b-fail$s" "$f" --fail-links 0.05 --fault-seed $s; done
done
for spec in "${small[@]}"; do
	n=$((n + 1)); b=gen$n
	read -r -a words <<<"$spec"
	fabric "$b" "${words[@]}" || { echo "cannot generate: $spec"; continue; }
	lmc1 "$b"
	for s in 1 2; do fabric "$b-fail$s" "${words[@]}" --fail-links 0.05 --fault-seed $s; done
done

# --ca-lids-only: the old spelling of --ca-only, which the baseline build
# also reads (the new one warns and takes it)
optsets=("" "--vls 4 --sls 4" "--vls 1" "--ca-lids-only")

# One case: route with both builds, compare.
run_case() { # FABRIC ENGINE OPTSET-INDEX
	local fab=$1 eng=$2 oi=$3 o d rc_old rc_new
	local -a opts
	case $oi in 0) opts=() ;; 1) opts=(--vls 4 --sls 4) ;; 2) opts=(--vls 1) ;; 3) opts=(--ca-lids-only) ;; esac
	d=$out/cases/$(basename "$fab" .net)-$eng-$oi
	mkdir -p "$d/old" "$d/new"
	"$old" route -e "$eng" "$fab" -o "$d/old" "${opts[@]}" >"$d/old.out" 2>"$d/old.err"; rc_old=$?
	"$new" route -e "$eng" "$fab" -o "$d/new" "${opts[@]}" >"$d/new.out" 2>"$d/new.err"; rc_new=$?
	if [ "$rc_old" != "$rc_new" ] || ! cmp -s "$d/old.err" "$d/new.err"; then
		echo "DIFF $(basename "$d"): exit $rc_old vs $rc_new: $(head -c 200 "$d/new.err")"
		return
	fi
	for o in opensm-lfts.dump opensm-sl2vl.dump lanes-path-sl.txt; do
		if [ -e "$d/old/$o" ] || [ -e "$d/new/$o" ]; then
			cmp -s "$d/old/$o" "$d/new/$o" || { echo "DIFF $(basename "$d"): $o"; return; }
		fi
	done
	echo "SAME $(basename "$d") exit $rc_old"
	rm -rf "$d"
}
export -f run_case
export old new out

for fab in "$out"/fabrics/*.net; do
	for eng in $engines; do
		for oi in 0 1 2 3; do echo "$fab $eng $oi"; done
	done
done | xargs -P "$jobs" -n 3 bash -c 'run_case "$@"' _ >"$out/results.txt"

same=$(grep -c '^SAME' "$out/results.txt")
diff=$(grep -c '^DIFF' "$out/results.txt")
refused=$(grep -c '^SAME .* exit [^0]' "$out/results.txt")
grep '^DIFF' "$out/results.txt" | sort
echo "tables-identical: $same identical ($refused of them the same refusal), $diff differ ($out)"
[ "$diff" = 0 ]
