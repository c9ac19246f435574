#!/usr/bin/env bash
# Test, read with the models a fresh `bash .ci/main` had trained when its
# session ended: `.ci/main`'s arrangement but for the refit's seed 20
# (the refit's seeds 17, 18 and 19 state the facts; the main recipe and
# the refit's seeds 17 and 18 ask; the bridge fitted on the main
# recipe's model). Writes DIR/test-3seeds.json and DIR/joint-3seeds.txt.
# Usage: bash three-seeds.sh DIR
set -euo pipefail
OUT="$(cd "$1" && pwd)"
source "$(dirname "$0")/../cached-models.sh"
FACTS=(--model "$(one refit_since)" --ensemble "$(one refit_since-s18)" --ensemble "$(one refit_since-s19)")
ASKERS=(--query-model "$(one main)" --query-model "$(one refit_since)" --query-model "$(one refit_since-s18)")
"$LEXLOG" eval-parser --split test "${FACTS[@]}" "${ASKERS[@]}" --k 8 --json --per-case --share-rests > "$OUT/test-3seeds.json"
"$LEXLOG" eval --split test "${FACTS[@]}" "${ASKERS[@]}" --bridge-model "$(one main)" --share-rests > "$OUT/joint-3seeds.txt"
