#!/usr/bin/env bash
# Fact counts of an `eval-parser --json --per-case` file, split: all cases,
# the cases given after the file left out, and all with those cases taken
# as right (their misses found, their spurious facts gone).
# Usage: bash split-counts.sh FILE CASE...   (needs jq)
set -euo pipefail
file=$1; shift
cases=$(printf '%s\n' "$@" | jq -R . | jq -s .)
jq -r --argjson out "$cases" '
  def prf(tp; fp; fn): "P \(tp/(tp+fp)*1000|round/1000) R \(tp/(tp+fn)*1000|round/1000) F1 \(2*tp/(2*tp+fp+fn)*1000|round/1000)";
  [.per_case[] | {c: .case, tp: .true_positives, fp: .false_positives, fn: .false_negatives}] as $a
  | ($a | map(select(.c as $c | $out | index($c) | not))) as $rest
  | ($a | map(select(.c as $c | $out | index($c)))) as $those
  | def sum(xs; k): xs | map(.[k]) | add // 0;
  "all \($a|length) cases: tp \(sum($a; "tp")) fp \(sum($a; "fp")) fn \(sum($a; "fn")); \(prf(sum($a; "tp"); sum($a; "fp"); sum($a; "fn")))",
  "without the \($those|length) given: tp \(sum($rest; "tp")) fp \(sum($rest; "fp")) fn \(sum($rest; "fn")); \(prf(sum($rest; "tp"); sum($rest; "fp"); sum($rest; "fn")))",
  "the \($those|length) given as right: \(prf(sum($a; "tp") + sum($those; "fn"); sum($rest; "fp"); sum($rest; "fn")))",
  "largest errors (fp + fn) without the given:",
  ($rest | sort_by(-(.fp + .fn)) | .[:4][] | "  \(.c) \(.fp + .fn)")
' "$file"
