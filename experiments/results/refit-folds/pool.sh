#!/usr/bin/env bash
# Pools `eval-parser --held-out --json --per-case` files (one per fold):
# cases, fact P / R / F1 from the summed per-case counts, the mean per-case
# F1 (a case with no gold and no predicted fact counts 1, as `fact_f1_macro`
# does), exact matches and right queries summed.
# Usage: bash pool.sh FILE...   (needs jq)
set -euo pipefail
jq -s -r '
  [.[].per_case[]] as $a
  | ($a | map(.true_positives) | add) as $tp
  | ($a | map(.false_positives) | add) as $fp
  | ($a | map(.false_negatives) | add) as $fn
  | ($a | map((2 * .true_positives + .false_positives + .false_negatives) as $d
      | if $d == 0 then 1 else 2 * .true_positives / $d end) | add / length) as $macro
  | def r: . * 10000 | round / 10000;
  "cases \($a | length)  fact P \($tp / ($tp + $fp) | r)  R \($tp / ($tp + $fn) | r)  F1 \(2 * $tp / (2 * $tp + $fp + $fn) | r)  per-case F1 \($macro | r)  exact \($a | map(select(.exact)) | length)  queries \($a | map(select(.query_correct)) | length)"
' "$@"
