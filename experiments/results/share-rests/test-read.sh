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
source experiments/results/cached-models.sh
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
