#!/usr/bin/env bash
# Trains fold F's three models one after another, as the rule says: M_F
# (main.json, seed 17), F_F (refit_since.json, seed 17) and F_F-s18
# (refit_since.json, seed 18), each resumable (--resume; a finished one is
# skipped). LEXLOG: the binary (the rule's is commit d0e5588's).
# Usage: LEXLOG=BIN bash train-fold.sh F DIR
set -uo pipefail
F=$1; D="$(mkdir -p "$2" && cd "$2" && pwd)"; L="$(realpath "${LEXLOG:?the binary to train with}")"
cd "$(dirname "$0")/../../.." && source .ci/env
t() {
  [ -f "$2/complete" ] && return
  GOMP_SPINCOUNT=300000 "$L" train --config "$1" --fold "$F/4" --out "$2" ${3:+--seed "$3"} --resume 2>&1 | tr '\r' '\n' | grep -E '^training on|resuming|[Ee]rror'
  echo "$2 done at $(date +%T)"
}
t parser/configs/main.json "$D/M$F"
t parser/configs/refit_since.json "$D/F$F"
t parser/configs/refit_since.json "$D/F$F-s18" 18
