# Sourced by the test-read scripts: `one NAME` prints the one finished
# model of that name `bash .ci/main` trained and cached (its cache key:
# 12 hex digits), or stops the script naming what it found.
MODELS="${LEXLOG_CACHE:-$HOME/.cache/lexlog}/models"
one() {
  local found=("$MODELS"/$1-????????????)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}/complete" ] || { echo "expected one finished $MODELS/$1-<key>, found: ${found[*]}" >&2; exit 1; }
  echo "${found[0]}"
}
