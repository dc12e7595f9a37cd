#!/usr/bin/env bash
# Run every libFuzzer target in a build directory for a few seconds each,
# starting from its corpus and the real fabric files. Findings go to
# build/fuzz-findings/; a crash fails the run.
# usage: fuzz-smoke.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1 seconds=$2
src=$(cd "$(dirname "$0")/.." && pwd)
out=$build/fuzz-findings
mkdir -p "$out"
for bin in "$build"/tests/fuzz_*; do
  [ -x "$bin" ] || continue
  case "$bin" in *_replay) continue;; esac
  name=$(basename "$bin")
  work=$(mktemp -d)
  cp "$src/tests/fuzz/corpus/$name"/* "$work"/ 2>/dev/null || true
  echo "fuzz: $name for ${seconds}s"
  "$bin" -max_total_time="$seconds" -max_len=65536 -artifact_prefix="$out/$name-" \
    "$work" "$src/../shared/data" >"$out/$name.log" 2>&1 || { tail -40 "$out/$name.log"; rm -rf "$work"; exit 1; }
  rm -rf "$work"
done
