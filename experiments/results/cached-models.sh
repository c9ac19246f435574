# Sourced by the test-read scripts: goes to the repository root, with
# .ci/env's settings and LEXLOG the release binary; `one NAME` prints the
# one finished model of that name `bash .ci/main` trained and cached (its
# cache key: 12 hex digits), or stops the script naming what it found.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source .ci/env
LEXLOG=./target/release/lexlog
MODELS="${LEXLOG_CACHE:-$HOME/.cache/lexlog}/models"
one() {
  local found=("$MODELS"/$1-????????????)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}/complete" ] || { echo "expected one finished $MODELS/$1-<key>, found: ${found[*]}" >&2; exit 1; }
  echo "${found[0]}"
}

# `bash .ci/main`'s arrangement: FACTS, the refit's four seeds stating the
# facts (seed 17 and $FACT_SEEDS, default 18 19 20), and ASKERS, the main
# recipe's seed 17 and the refit's seeds 17 and 18 asking the question.
main_job_models() {
  FACTS=(--model "$(one refit_since)")
  for seed in ${FACT_SEEDS:-18 19 20}; do FACTS+=(--ensemble "$(one refit_since-s$seed)"); done
  ASKERS=(--query-model "$(one main)" --query-model "$(one refit_since)" --query-model "$(one refit_since-s18)")
}
