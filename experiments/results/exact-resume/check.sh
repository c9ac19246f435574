#!/usr/bin/env bash
# A run of the main recipe cut to 3 epochs, trained unbroken, then trained
# again, killed (SIGKILL) in its second epoch and resumed: the two must end
# with the same bytes. With BEFORE=<a lexlog binary built before d2d1345>,
# the unbroken run is also compared with that binary's (tch's own AdamW).
# Usage: bash experiments/results/exact-resume/check.sh WORKDIR
set -euo pipefail
source "$(dirname "$0")/../../../.ci/env"
cargo build --release -p lexlog-experiments
L=./target/release/lexlog
W="$1"; rm -rf "$W"; mkdir -p "$W"
jq '.epochs = 3' parser/configs/main.json > "$W/main3.json"
same() {
  for f in model.safetensors query.safetensors last.safetensors; do cmp "$1/$f" "$2/$f" && echo "$f: the same bytes"; done
  diff <(jq -S 'del(.seconds,.seconds_to_best,.examples_per_second,.history[].seconds,.history[].eval_seconds)' "$1/metrics.json") \
       <(jq -S 'del(.seconds,.seconds_to_best,.examples_per_second,.history[].seconds,.history[].eval_seconds)' "$2/metrics.json") &&
    echo "metrics.json: the same but for timings"
}
"$L" train --config "$W/main3.json" --out "$W/whole" > "$W/whole.log" 2>&1
first=$(jq '.history[0].seconds' "$W/whole/metrics.json")
kill_at=$(python3 -c "print(int($first * 1.5) + 20)")
echo "unbroken: epoch 1 done at ${first} s; the second run is killed at ${kill_at} s"
timeout -s KILL "$kill_at" "$L" train --config "$W/main3.json" --out "$W/killed" > "$W/killed.log" 2>&1 || echo "killed (exit $?) after epoch $(jq .epoch "$W/killed/metrics.json")"
"$L" train --config "$W/main3.json" --out "$W/killed" --resume > "$W/resumed.log" 2>&1
head -2 "$W/resumed.log" | tail -1
echo "== unbroken against killed and resumed"
same "$W/whole" "$W/killed"
if [ -n "${BEFORE:-}" ]; then
  # An older binary's default SARA path is its own checkout's.
  SARA_DIR="${SARA_DIR:-$PWD/../shared/sara}" "$BEFORE" train --config "$W/main3.json" --out "$W/before" > "$W/before.log" 2>&1
  echo "== unbroken against the unbroken run of $BEFORE"
  same "$W/whole" "$W/before"
fi
