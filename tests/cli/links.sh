#!/usr/bin/env bash
# topo info's link widths and speeds (issue 22 item 6): the count per rate,
# and the cables that run slower than both their ends can (the ports of one
# switch, and the CAs of one device ID, are of one kind).
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

"$LANES" topo gen torus k=3x3 p=1 -o "$work/t.txt"
check "all 4xQDR" 0 "$LANES" topo info "$work/t.txt"
expect "one rate" "$work/out" '^link rates +4xQDR 27$'
expect "none slower" "$work/out" '^slower than ports +0 cables$'

# the cable x0-y0 port 2 - x1-y0 port 3 trained at 1x, on both ends
sed '/^\[2\]\t"S-0002c90300a00001"\[3\]/s/4xQDR/1xQDR/; /^\[3\]\t"S-0002c90300a00000"\[2\]/s/4xQDR/1xQDR/' \
  "$work/t.txt" >"$work/slow.txt"
check "one cable at 1x" 0 "$LANES" topo info "$work/slow.txt"
expect "rates counted" "$work/out" '^link rates +4xQDR 26, 1xQDR 1$'
expect "one slower" "$work/out" '^slower than ports +1 cable$'
expect "named, with why" "$work/out" \
  "^  0x0002c90300a00000/2 'MF0;torus-x0-y0:MQM8700/U1' - 0x0002c90300a00001/3 'MF0;torus-x1-y0:MQM8700/U1': runs 1xQDR \(8 Gb/s\); both ends can run 32 Gb/s"
check "json" 0 "$LANES" topo info "$work/slow.txt" --json
expect "json rates" "$work/out" '"1xQDR":1'
expect "json cable" "$work/out" '"cable":"0x0002c90300a00000/2'

# the two lines of one cable disagree: the reader warns, naming both
sed '/^\[2\]\t"S-0002c90300a00001"\[3\]/s/4xQDR/4xDDR/' "$work/t.txt" >"$work/odd.txt"
check "ends disagree" 0 "$LANES" topo info "$work/odd.txt"
expect "disagreement said" "$work/err" 'odd.txt:24: .*4xQDR.*4xDDR on line 12'

finish
