#!/usr/bin/env bash
# Test, read after a decision: `bash .ci/main`'s arrangement (the refit's
# four seeds state the facts; the main recipe's seed 17 and the refit's
# seeds 17 and 18 ask) with the decoder as built. Writes the parser's
# figures to DIR/testSUFFIX.json and the joint evaluation to
# DIR/jointSUFFIX.txt (SUFFIX empty unless given). FACT_SEEDS="18 19"
# leaves the refit's seed 20 out of the facts' ensemble.
# Usage: bash main-job-test.sh DIR [SUFFIX]
set -euo pipefail
OUT="$(cd "$1" && pwd)"
SUFFIX="${2:-}"
source "$(dirname "$0")/cached-models.sh"
main_job_models
"$LEXLOG" eval-parser --split test "${FACTS[@]}" "${ASKERS[@]}" --k 8 --json --per-case --share-rests > "$OUT/test$SUFFIX.json"
"$LEXLOG" eval --split test "${FACTS[@]}" "${ASKERS[@]}" --bridge-model "$(one main)" --share-rests > "$OUT/joint$SUFFIX.txt"
