#!/usr/bin/env bash
# Fact F1 of an eval-parser --per-case JSON summed over its cases but the
# ones named: bash f1-without.sh FILE CASE...
set -euo pipefail
f="$1"; shift
jq --argjson skip "$(printf '%s\n' "$@" | jq -R . | jq -s .)" '
  [.per_case[] | select(.case as $c | $skip | index($c) | not)]
  | {tp: (map(.true_positives) | add), fp: (map(.false_positives) | add), fn: (map(.false_negatives) | add)}
  | . + {f1: (2 * .tp / (2 * .tp + .fp + .fn))}' "$f"
