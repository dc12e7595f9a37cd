#!/usr/bin/env bash
# --roots, updn's root GUID file, through `lanes route`, `lanes verify -e` and
# `lanes compare`. The exit contract (README, lanes route --help): 0 routed,
# 1 the engine refused or could not fit the budgets, 2 bad input. A roots
# file that cannot be read, is malformed or names no switch is bad input (2,
# "file:line: ..." for a malformed line), never a refusal; --roots with an
# engine that does not read it is a usage error naming --roots and the engine.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

# a 3-level fat tree of 2-ary switches; its top level is the natural root set
"$LANES" topo gen fattree k=2 n=3 -o "$work/ft.txt" >/dev/null || { echo "FAIL: topo gen"; exit 1; }
FT="$work/ft.txt"
# its switches are named fattree-l1 (the leaves, with the hosts) to fattree-l3 (the top)
top=$(awk '/^Switch/ && /fattree-l3-/ { g = $3; gsub(/"|S-/, "", g); print "0x" g }' "$FT")
ntop=$(echo "$top" | wc -l)
[ "$ntop" = 4 ] &&   # k^(n-1) switches a level pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: top switches: '$top'"; }

# good: comments, blank lines and trailing words are allowed (updn_roots.c).
# Two of the four top switches (every top switch reaches every leaf in a
# k-ary n-tree), so the roots differ from the auto-detected ones.
mine=$(echo "$top" | sed -n '2p;4p')
{ echo "# the spines"; echo; for g in $mine; do echo "$g   # spine"; done; } >"$work/good.txt"
check "route good roots" 0 "$LANES" route -e updn "$FT" --roots "$work/good.txt" -o "$work/g"
want=$(echo "$mine" | tr 'A-F' 'a-f' | sort | paste -sd, -)
got=$(grep -o 'roots=[0-9a-fx,]*' "$work/g/report.json" | cut -d= -f2 | tr ',' '\n' | sort | paste -sd, -)
same "routed from the file's roots" "$got" "$want"
expect "notes name the file" "$work/g/report.json" "roots of $work/good.txt"
check "verify routing from good roots" 0 "$LANES" verify "$FT" "$work/g"

# garbage on one line: exit 2 and file:line of that line
{ echo "# the spines"; echo "$top" | head -1; echo; echo "not-a-guid"; echo "$top" | tail -1; } >"$work/bad.txt"
bad_line=$(grep -n '^not-a-guid$' "$work/bad.txt" | cut -d: -f1)
check "route garbage roots" 2 "$LANES" route -e updn "$FT" --roots "$work/bad.txt" -o "$work/b"
expect "garbage file:line" "$work/err" "$work/bad.txt:$bad_line: "
[ ! -e "$work/b" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: wrote output for a bad roots file"; }
printf '0x12345678901234567\n' >"$work/long.txt"   # 17 hex digits: no 64-bit GUID
check "route overlong guid" 2 "$LANES" route -e updn "$FT" --roots "$work/long.txt" -o "$work/b"
expect "overlong file:line" "$work/err" "$work/long.txt:1: "
check "verify -e garbage roots" 2 "$LANES" verify -e updn "$FT" --roots "$work/bad.txt"
expect "verify garbage file:line" "$work/err" "$work/bad.txt:$bad_line: "

# missing, a directory, and a file that names no switch of the fabric
check "route missing roots" 2 "$LANES" route -e updn "$FT" --roots "$work/nonexistent" -o "$work/b"
expect "missing named" "$work/err" "$work/nonexistent: No such file"
check "route directory roots" 2 "$LANES" route -e updn "$FT" --roots "$work" -o "$work/b"
expect "directory named" "$work/err" "$work: Is a directory"
printf '0x00000000deadbeef\n' >"$work/none.txt"
check "route roots not in fabric" 2 "$LANES" route -e updn "$FT" --roots "$work/none.txt" -o "$work/b"
expect "no switch named" "$work/err" "no GUID in $work/none.txt names a switch"

# a budget refusal stays exit 1 (dfsssp on a 6x6 torus needs more than one VL)
check "budget refusal" 1 "$LANES" route -e dfsssp torus k=6x6 p=1 --vls 1 -o "$work/b"
expect "needs VLs" "$work/err" 'needs [0-9]+ VLs, the budget is 1'

# --roots with an engine that does not read it: usage error naming both
for e in $("$LANES" engines | awk 'NR > 1 && $1 != "updn" { print $1 }'); do
  check "route $e --roots" 2 "$LANES" route -e "$e" "$FT" --roots "$work/good.txt" -o "$work/b"
  expect "route $e --roots named" "$work/err" "--roots is read by updn only; $e does not use"
done
check "verify -e lash --roots" 2 "$LANES" verify -e lash "$FT" --roots "$work/good.txt"
expect "verify lash --roots named" "$work/err" "--roots is read by updn only; lash"
check "verify tables --roots" 2 "$LANES" verify "$FT" "$work/g" --roots "$work/good.txt"
expect "verify tables --roots named" "$work/err" "--roots is for routing with -e updn"
check "route help says updn" 0 "$LANES" route --help
expect "route help roots" "$work/out" '--roots FILE +root switch GUIDs for updn'

# compare: a bad roots file is the command's error (exit 2, nothing on
# stdout), not a refused updn row; good roots reach updn only
check "compare garbage roots" 2 "$LANES" compare "$FT" -e minhop,updn --roots "$work/bad.txt" --ebb-patterns 0
expect "compare garbage file:line" "$work/err" "$work/bad.txt:$bad_line: "
same "compare prints no table" "$(wc -c <"$work/out")" 0
check "compare missing roots" 2 "$LANES" compare "$FT" --roots "$work/nonexistent" --ebb-patterns 0
expect "compare missing named" "$work/err" "$work/nonexistent: No such file"
check "compare json garbage roots" 2 "$LANES" compare "$FT" -e updn --roots "$work/bad.txt" --json
same "compare json prints nothing" "$(wc -c <"$work/out")" 0
check "compare good roots" 0 "$LANES" compare "$FT" -e minhop,updn,lash --roots "$work/good.txt" --ebb-patterns 0
expect "updn routed from roots" "$work/out" '^updn +yes '
expect "lash routed too" "$work/out" '^lash +yes '
check "compare roots without updn" 2 "$LANES" compare "$FT" -e minhop,lash --roots "$work/good.txt"
expect "compare roots named" "$work/err" '--roots is read by updn only'
check "compare help says updn only" 0 "$LANES" compare --help
expect "compare help roots" "$work/out" '--roots FILE +root switch GUIDs for updn only'

finish
