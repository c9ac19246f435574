#!/usr/bin/env bash
# Test, read after the decision: the main job's five models (trained by
# `bash .ci/main` where none is cached: about 2 h 40 min on a fresh AMD
# 2-core machine), then the parser's test figures and the joint
# evaluation, each with and without --share-rests (`bash .ci/main` passes
# it since these figures came in; without it, its `lexlog eval` is run
# here by hand). Run from anywhere; writes beside this script.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE/../../.."
bash .ci/main > "$HERE/ci-main-rests.txt"
source .ci/env
LEXLOG=./target/release/lexlog
MODELS="${LEXLOG_CACHE:-$HOME/.cache/lexlog}/models"
# The one model of each name that .ci/main trained (its cache key: 12 hex digits).
one() {
  local found=("$MODELS"/$1-????????????)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}/complete" ] || { echo "expected one finished $MODELS/$1-<key>, found: ${found[*]}" >&2; exit 1; }
  echo "${found[0]}"
}
ENSEMBLE=()
for seed in 18 19 20; do ENSEMBLE+=(--ensemble "$(one refit_since-s$seed)"); done
ARGS=(--split test --model "$(one refit_since)" "${ENSEMBLE[@]}" --query-model "$(one main)")
"$LEXLOG" eval-parser "${ARGS[@]}" --k 8 --json --per-case --share-rests > "$HERE/test-ensemble4-rests.json"
"$LEXLOG" eval-parser "${ARGS[@]}" --k 8 --json --per-case > "$HERE/test-ensemble4.json"
{
  "$LEXLOG" eval "${ARGS[@]}" --bridge-model "$(one main)"
  echo
  echo "Solver on gold facts:"
  "$LEXLOG" solve
} > "$HERE/ci-main-before.txt"
