#!/usr/bin/env bash
# The rule's read of fold F's held-out cases with decoder 41 (V41: commit
# d0e5588's binary) and 42 (V42: the purpose-named branch's), the models
# of `train-fold.sh F DIR`; writes DIR/heldout-foldF-v4{1,2}.json.
# Usage: V41=BIN V42=BIN bash read-fold.sh F DIR
set -euo pipefail
F=$1; D="$(cd "$2" && pwd)"
declare -A bin=([v41]="$(realpath "${V41:?}")" [v42]="$(realpath "${V42:?}")")
cd "$(dirname "$0")/../../.." && source .ci/env
for v in v41 v42; do
  "${bin[$v]}" eval-parser --held-out --model "$D/F$F" --query-model "$D/M$F" --query-model "$D/F$F" --query-model "$D/F$F-s18" --k 8 --json --per-case --share-rests > "$D/heldout-fold$F-$v.json"
done
