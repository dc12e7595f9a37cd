#!/usr/bin/env bash
# The progress line (issue 22 item 4): on a terminal (a pseudo-terminal from
# script(1)), after LANES_PROGRESS_AFTER seconds (2 by default), the phase,
# its share done and the time; erased before the report and before any
# message; never with --quiet, never on a pipe, never on stdout. Redrawn
# every 20 ms here (LANES_PROGRESS_EVERY), so that short phases are seen.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

BIG="torus k=16x16x12 p=2" # about 2 s: several redraws
pty() { LANES_PROGRESS_AFTER=0 LANES_PROGRESS_EVERY=0.02 script -qfec "$1" /dev/null >"$work/pty" 2>&1; }
lines() { tr '\r' '\n' <"$work/pty" | sed 's/\x1b\[K//g'; }

pty "$LANES verify -e updn $BIG --ebb-patterns 200"
same "verify under a terminal" $? 0
lines | grep -Eq '^lanes verify: (reading the fabric|routing|paths|credit loops|bisections)'
same "a progress line drawn" $? 0
lines | grep -Eq '^lanes verify: (paths|bisections) [0-9]+% \([0-9]+ s(, about [0-9]+ s left)?\)$'
same "a phase with its share and time" $? 0
lines | grep -q '^reachability  *ok'; same "the report follows" $? 0
[ "$(lines | grep -c '^lanes verify: .*reachability')" = 0 ]; same "the report on a line of its own" $? 0

pty "$LANES verify -e updn $BIG --ebb-patterns 200 --quiet"
! lines | grep -q '^lanes verify:'; same "--quiet: no progress" $? 0

pty "$LANES verify -e dfsssp torus k=12x12x6 p=1 --ebb-patterns 0"
lines | grep -q '^lanes: dfsssp: needs more than 16 VLs'; same "a message erases the line first" $? 0

check "on a pipe" 0 env LANES_PROGRESS_AFTER=0 "$LANES" verify -e updn $BIG --ebb-patterns 20
! grep -q 'lanes verify:' "$work/err"; same "no progress on a pipe" $? 0

# an engine that counts its own phases (flexible: switch pairs over its
# trials, about 1 s here): the phase with its share, from route
pty "$LANES route -e flexible:trials=32 torus k=8x8x4 p=1 -o $work/fx"
same "route under a terminal" $? 0
lines | grep -Eq '^lanes route: paths [0-9]+% \([0-9]+ s(, about [0-9]+ s left)?\)$'
same "flexible's paths with their share" $? 0

pty "$LANES compare $BIG -e minhop,updn --ebb-patterns 0"
lines | grep -Eq '^lanes compare: \[[12]/2 (minhop|updn)\] '; same "compare says which engine" $? 0
lines | grep -q '^updn  *yes'; same "compare rows" $? 0

# topo info --exact: all-pairs distances, counted by sources swept
pty "$LANES topo info torus k=100x100 p=1 --exact"
same "topo info under a terminal" $? 0
lines | grep -Eq '^lanes topo info: distances [0-9]+% \([0-9]+ s(, about [0-9]+ s left)?\)$'
same "topo info's distances with their share" $? 0

# verify DIR: the dumps' bytes as they are read (compressed: the bytes
# stored), so a huge dump shows its share and ETA
"$LANES" route -e minhop torus k=10x10x8 p=2 -o "$work/rd" --compress zstd >/dev/null 2>&1
pty "$LANES verify torus k=10x10x8 p=2 $work/rd --ebb-patterns 0"
lines | grep -Eq '^lanes verify: reading [0-9]+% \([0-9]+ s(, about [0-9]+ s left)?\)$'
same "verify's reading with its share" $? 0

# route: the dumps' bytes as they are written, against route's estimate
pty "$LANES route -e minhop torus k=10x10x8 p=2 -o $work/wr --compress zstd"
lines | grep -Eq '^lanes route: writing the files [0-9]+% \([0-9]+ s(, about [0-9]+ s left)?\)$'
same "route's writing with its share" $? 0

# a narrow terminal: the line is cut to its width less one, so that it
# never wraps (\r and erase-line clear one row only)
pty "stty cols 30; $LANES topo info torus k=100x100 p=1 --exact"
[ "$(lines | grep '^lanes topo info' | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 29 ]
same "cut to 29 columns" $? 0

# topo gen and trace draw it too (anything that may run past 2 s)
pty "$LANES topo gen $BIG -o $work/big.topo"
same "topo gen under a terminal" $? 0
lines | grep -Eq '^lanes topo gen: (generating|writing)'; same "topo gen's phases" $? 0
pty "$LANES trace -e minhop $BIG 1 2"
same "trace under a terminal" $? 0
lines | grep -Eq '^lanes trace: (reading the fabric|routing)'; same "trace's phases" $? 0

finish
