#!/usr/bin/env bash
# Test, read after the decision: the main job's five models (as
# ../share-rests/test-read.sh finds them), the question asked by the main
# recipe's model alone (A, as main had it), by it with the refit's seed
# 17 (B), and by those with the refit's seed 18 (C). Parser figures and
# the joint evaluation for each; `bash test-read.sh C` reads C alone. Run
# from anywhere; writes beside this script.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cached-models.sh"
main_job_models
A=(--query-model "$(one main)")
B=(--query-model "$(one main)" --query-model "$(one refit_since)")
if [ "${1:-}" = C ]; then
  exec bash "$HERE/../main-job-test.sh" "$HERE" -askC
fi
"$LEXLOG" eval-parser --split test "${FACTS[@]}" "${A[@]}" --k 8 --json --per-case --share-rests > "$HERE/test-askA.json"
"$LEXLOG" eval-parser --split test "${FACTS[@]}" "${B[@]}" --k 8 --json --per-case --share-rests > "$HERE/test-askB.json"
"$LEXLOG" eval --split test "${FACTS[@]}" "${A[@]}" --bridge-model "$(one main)" --share-rests > "$HERE/joint-askA.txt"
"$LEXLOG" eval --split test "${FACTS[@]}" "${B[@]}" --bridge-model "$(one main)" --share-rests > "$HERE/joint-askB.txt"
