#!/usr/bin/env bash
# Test, read after the decision: `bash .ci/main`'s arrangement (the
# refit's four seeds state the facts, the main recipe's seed 17 and the
# refit's seeds 17 and 18 ask) with decoder version 40. Parser figures
# and the joint evaluation; writes beside this script.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cached-models.sh"
main_job_models
"$LEXLOG" eval-parser --split test "${FACTS[@]}" "${ASKERS[@]}" --k 8 --json --per-case --share-rests > "$HERE/test.json"
"$LEXLOG" eval --split test "${FACTS[@]}" "${ASKERS[@]}" --bridge-model "$(one main)" --share-rests > "$HERE/joint.txt"
