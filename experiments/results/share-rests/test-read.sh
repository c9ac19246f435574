#!/usr/bin/env bash
# Test, read after the decision: the main job's five models (trained by
# `bash .ci/main` where none is cached: about 2 h on 2 cores), the joint
# evaluation and the parser's test figures, each without and with
# --share-rests. Run from anywhere; writes beside this script.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE/../../.."
bash .ci/main > "$HERE/ci-main-before.txt"
bash .ci/main --share-rests > "$HERE/ci-main-rests.txt"
source .ci/env
MODELS="${LEXLOG_CACHE:-$HOME/.cache/lexlog}/models"
# The one model of each name that .ci/main trained (its cache key: 12 hex digits).
one() {
  local found=("$MODELS"/$1-????????????)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}/complete" ] || { echo "expected one finished $MODELS/$1-<key>, found: ${found[*]}" >&2; exit 1; }
  echo "${found[0]}"
}
ARGS=(--split test --model "$(one refit_since)" --query-model "$(one main)" --k 8 --json --per-case)
for seed in 18 19 20; do ARGS+=(--ensemble "$(one refit_since-s$seed)"); done
./target/release/lexlog eval-parser "${ARGS[@]}" > "$HERE/test-ensemble4.json"
./target/release/lexlog eval-parser "${ARGS[@]}" --share-rests > "$HERE/test-ensemble4-rests.json"
