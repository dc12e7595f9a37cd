#!/usr/bin/env bash
# `lanes topo gen|convert -o FILE` (issue 22): FILE is written through a
# temporary FILE.tmp.XXXXXX renamed into place, and nothing else is ever left:
# SIGINT, SIGTERM or SIGHUP while writing removes the temporary file and the
# process still dies of the signal; a file-size limit (ulimit -f, SIGXFSZ) is
# a failed write, named, exit 2. A new file gets 0666 & ~umask, a replaced
# one keeps its mode. Names lanes cannot honour (.xz, .bz2, .lz4, an empty
# one) are refused before anything is made.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=3x3 p=1)
BIG=(torus k=300x300 p=1) # 90,000 switches: about 70 MB, written in most of a second
temps() { find "$work" -maxdepth 1 -name '*.tmp.*' | wc -l; }
written_temp() { find "$work" -maxdepth 1 -name 'big.net.tmp.*' -size +0 | wc -l; }
mode_of() { stat -c %a "$1"; }
in_umask() { local m=$1; shift; bash -c 'umask "$1"; shift; exec "$@"' _ "$m" "$@"; }

# Start a big gen into big.net, stop it once its temporary file has data,
# send SIG, let it go on; rc is how it ended, seen the temporaries meanwhile.
interrupt() {
  local sig=$1 pid; shift
  "$@" "$LANES" topo gen "${BIG[@]}" -o "$work/big.net" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 2000); do [ "$(written_temp)" = 1 ] && break; sleep 0.005; done
  kill -STOP "$pid"
  seen=$(temps)
  kill "-$sig" "$pid"; kill -CONT "$pid"
  wait "$pid" 2>/dev/null; rc=$?
}

echo old >"$work/big.net"
for sig in TERM HUP INT; do
  # a background job of a script starts with SIGINT ignored: give it back
  interrupt "$sig" env --default-signal=INT
  same "$sig: the temporary file seen while writing" "$seen" 1
  same "$sig: died of the signal" "$rc" "$((128 + $(kill -l "$sig")))"
  same "$sig: no temporary file left" "$(temps)" 0
  same "$sig: the old file as it was" "$(cat "$work/big.net")" old
done

# a file-size limit is a failed write: the file named, exit 2, nothing left
for out in big.net big.net.zst; do
  [ "$out" = big.net.zst ] && echo old >"$work/$out"
  check "ulimit -f: $out" 2 bash -c 'ulimit -f 20; exec "$@"' _ \
    "$LANES" topo gen "${BIG[@]}" -o "$work/$out"
  expect "ulimit -f: $out named" "$work/err" "^lanes: $work/$out: write failed: File too large$"
  same "ulimit -f: $out as it was" "$(cat "$work/$out")" old
  same "ulimit -f: no temporary file left ($out)" "$(temps)" 0
done
check "ulimit -f, SIGXFSZ ignored too" 2 bash -c 'ulimit -f 20; trap "" XFSZ; exec "$@"' _ \
  "$LANES" topo gen "${BIG[@]}" -o "$work/big.net"
expect "SIGXFSZ ignored: named" "$work/err" "big.net: write failed: File too large"
same "SIGXFSZ ignored: nothing left" "$(temps)" 0
rm -f "$work"/big.net*

# a new file's mode is 0666 & ~umask; a replaced file keeps its own
for m in 077 027 022 002; do
  check "umask $m" 0 in_umask "$m" "$LANES" topo gen "${T[@]}" -o "$work/u$m.net"
  same "umask $m: mode" "$(mode_of "$work/u$m.net")" "$(printf '%o' $((0666 & ~0$m)))"
done
check "convert, umask 077" 0 in_umask 077 "$LANES" topo convert "$work/u022.net" --to ibsim \
  -o "$work/c.ibsim.gz"
same "convert, umask 077: mode" "$(mode_of "$work/c.ibsim.gz")" 600
chmod 640 "$work/u002.net"
check "replace under umask 077" 0 in_umask 077 "$LANES" topo gen "${T[@]}" -o "$work/u002.net"
same "a replaced file keeps its mode" "$(mode_of "$work/u002.net")" 640
chmod 604 "$work/u077.net"
check "replace under umask 000" 0 in_umask 000 "$LANES" topo gen "${T[@]}" -o "$work/u077.net"
same "a replaced file keeps its mode (umask 0)" "$(mode_of "$work/u077.net")" 604
same "no temporary file after the umask cases" "$(temps)" 0

# compressions lanes does not write are refused, not written as plain text
for c in xz:xz bz2:bzip2 lz4:lz4; do
  ext=${c%%:*} name=${c#*:}
  check "gen -o .$ext" 2 "$LANES" topo gen "${T[@]}" -o "$work/x.net.$ext"
  expect "gen -o .$ext: named" "$work/err" \
    "^lanes: $work/x.net.$ext: lanes does not write $name; it writes gzip \(\.gz\) and zstd \(\.zst\)"
  check "convert -o .$ext" 2 "$LANES" topo convert "$work/u022.net" -o "$work/y.$ext" --to ibsim
  expect "convert -o .$ext: named" "$work/err" "lanes does not write $name;"
done
same "no file for a refused compression" "$(find "$work" -name 'x.net*' -o -name 'y.*' | wc -l)" 0
check "a big gen refused before it is made" 2 timeout 5 "$LANES" topo gen torus k=2000x2000 p=1 \
  -o "$work/x.net.xz"
expect "refused up front" "$work/err" "lanes does not write xz"
check ".gz still written" 0 "$LANES" topo gen "${T[@]}" -o "$work/z.net.gz"
same ".gz is gzip" "$(od -An -tx1 -N2 "$work/z.net.gz" | tr -d ' ')" 1f8b

# -o '' names the option, before anything is made
check "gen -o ''" 2 "$LANES" topo gen "${T[@]}" -o ''
expect "gen -o '': the option named" "$work/err" "^lanes: topo gen: -o: an empty file name"
check "convert -o ''" 2 "$LANES" topo convert "$work/u022.net" -o ''
expect "convert -o '': the option named" "$work/err" "^lanes: topo convert: -o: an empty file name"
check "gen --output=''" 2 "$LANES" topo gen "${T[@]}" --output=
expect "--output='' named as -o" "$work/err" "-o: an empty file name"
same "nothing left at all" "$(temps)" 0

finish
