#!/usr/bin/env bash
# Routing and fabric files of any size, gzip or zstd (issue 22 item 1):
# route --compress writes NAME.gz / NAME.zst, every reader takes compressed
# files by their first bytes, reading streams (memory: the tables, not the
# file), a cut compressed file is an error, and route says how large the
# files will be when that is over 1 GB.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=4x4 p=1)
check "route plain" 0 "$LANES" route -e dfsssp "${T[@]}" -o "$work/plain"
check "verify plain" 0 "$LANES" verify "${T[@]}" "$work/plain"
cp "$work/out" "$work/plain.txt"
check "route zstd" 0 "$LANES" route -e dfsssp "${T[@]}" -o "$work/z" --compress zstd
same "zstd names" "$(cd "$work/z" && ls | tr '\n' ' ')" \
  "lanes-path-sl.txt.zst opensm-lfts.dump.zst opensm-sl2vl.dump.zst report.json "
zstd -dc "$work/z/opensm-lfts.dump.zst" | cmp -s - "$work/plain/opensm-lfts.dump"
same "zstd -d gives the plain dump" $? 0
check "verify zstd" 0 "$LANES" verify "${T[@]}" "$work/z"
same "verify reads it the same" "$(cat "$work/out")" "$(cat "$work/plain.txt")"
check "route gzip over it" 0 "$LANES" route -e dfsssp "${T[@]}" -o "$work/z" --compress gzip
same "gzip names, the zstd ones gone" "$(cd "$work/z" && ls | tr '\n' ' ')" \
  "lanes-path-sl.txt.gz opensm-lfts.dump.gz opensm-sl2vl.dump.gz report.json "
gzip -dc "$work/z/opensm-sl2vl.dump.gz" | cmp -s - "$work/plain/opensm-sl2vl.dump"
same "gzip -d gives the plain dump" $? 0
check "verify gzip" 0 "$LANES" verify "${T[@]}" "$work/z"
same "verify reads gzip the same" "$(cat "$work/out")" "$(cat "$work/plain.txt")"
check "bad --compress" 2 "$LANES" route -e dfsssp "${T[@]}" -o "$work/z" --compress xz
expect "bad --compress named" "$work/err" "--compress is none, gzip or zstd, not 'xz'"

# whatever the name, the first bytes decide; cut or corrupt data is an error
gzip -c "$work/plain/opensm-lfts.dump" >"$work/lfts-named-plain"
check "gzip under a plain name" 0 "$LANES" verify "${T[@]}" --lfts "$work/lfts-named-plain" \
  --sl2vl "$work/plain/opensm-sl2vl.dump" --path-sl "$work/plain/lanes-path-sl.txt"
zstd -q -c "$work/plain/opensm-lfts.dump" >"$work/whole.zst"
head -c $(($(wc -c <"$work/whole.zst") / 2)) "$work/whole.zst" >"$work/cut.zst"
check "a cut zstd file" 2 "$LANES" verify "${T[@]}" --lfts "$work/cut.zst"
expect "cut said" "$work/err" 'cut.zst: read failed after line [0-9]+: corrupt or cut compressed data'
printf '\037\213garbage' >"$work/bad.gz"
check "a corrupt gzip file" 2 "$LANES" verify "${T[@]}" --lfts "$work/bad.gz"
expect "corrupt said" "$work/err" 'bad.gz: read failed after line 0: corrupt or cut compressed data'

# fabric files too, by extension when written and by content when read
check "topo gen .gz" 0 "$LANES" topo gen "${T[@]}" -o "$work/t.txt.gz"
gzip -t "$work/t.txt.gz"; same "a gzip file written" $? 0
check "topo info .gz" 0 "$LANES" topo info "$work/t.txt.gz"
expect "read back" "$work/out" '^switches +16$'
check "compressed fabric on stdin" 0 bash -c 'gzip -dc "$1" | zstd -q -c | "$0" topo info -' \
  "$LANES" "$work/t.txt.gz"
expect "stdin zstd read" "$work/out" '^switches +16$'

# an engine's own input files too: torus-2qos's torus-2QoS.conf, gzip'ed,
# read through the same stream; a wrong word is file:line
printf 'torus 4 4 1\nxp_link 0x0002c90300a00000 0x0002c90300a00001\nxm_link 0x0002c90300a00000 0x0002c90300a00003\nyp_link 0x0002c90300a00000 0x0002c90300a00004\nym_link 0x0002c90300a00000 0x0002c90300a0000c\n' | gzip >"$work/t2q.conf.gz"
check "torus-2QoS.conf.gz read" 0 "$LANES" route -e torus-2qos:config="$work/t2q.conf.gz" torus k=4x4 p=1 -o "$work/t2q"
printf 'torus 4 4 1\nyq_link 0x1 0x2\n' | gzip >"$work/t2q-bad.conf.gz"
check "a bad word in it" 2 "$LANES" route -e torus-2qos:config="$work/t2q-bad.conf.gz" torus k=4x4 p=1 -o "$work/t2q"
expect "file:line" "$work/err" "t2q-bad\.conf\.gz:2: cannot read 'yq_link' \(torus-2QoS\.conf syntax\)"

# over 1 GB: said before writing; read back streaming, in far less memory than the file
BIG=(torus k=16x16x10 p=2) # 2560 switches, 7680 LIDs: a 1.6 GB LFT dump
check "route big" 0 "$LANES" route -e minhop "${BIG[@]}" -o "$work/big" --compress zstd
expect "size said" "$work/err" '^lanes: writing about 1\.[0-9] GB to .*big/ \(opensm-lfts\.dump 1\.[0-9] GB\), before compression$'
if ! grep -qa -e __asan_init -e __tsan_init "$LANES"; then
  check "verify big, memory measured" 1 /usr/bin/time -f 'maxrss %M' "$LANES" verify "${BIG[@]}" "$work/big" --ebb-patterns 0
  kb=$(grep -o 'maxrss [0-9]*' "$work/err" | cut -d' ' -f2)
  [ "${kb:-0}" -gt 0 ] && [ "$kb" -lt 600000 ]; same "under 600 MB for a 1.6 GB dump ($kb kB)" $? 0
fi

finish
