#!/usr/bin/env bash
# Tallies the top beams' errors of an `eval-parser --json --per-case
# --errors N` file whose N lists every error (N at least the largest count):
# errors on facts of a yearly series (their event's id ends `_YYYY`) and on
# the others, fact F1 as it is and with every series error gone, the series
# errors by fact name, and the other errors by section.
# Usage: bash tally.sh FILE   (needs jq)
set -euo pipefail
jq -r '
  def series: test("^[a-z0-9_]+\\(\u0027?(<unmatched )?e[0-9]+_[0-9]{4}>?\u0027?[,)]");
  def name: capture("^(?<n>[a-z0-9_]+)\\(").n;
  def f1(tp; fp; fn): 2*tp/(2*tp+fp+fn)*1000|round/1000;
  [.per_case[] | .section as $s | .errors as $e
    | ($e.missing[] | {s: $s, k: "missing", f: .}), ($e.spurious[] | {s: $s, k: "spurious", f: .})] as $all
  | if ([.per_case[] | (.errors.missing|length) == .false_negatives and (.errors.spurious|length) == .false_positives] | all) | not
    then error("the file lists only some errors: rerun eval-parser with a larger --errors") else . end
  | ([.per_case[].true_positives] | add) as $tp
  | ([.per_case[].false_positives] | add) as $fp
  | ([.per_case[].false_negatives] | add) as $fn
  | ($all | map(select(.f | series))) as $ser
  | ($ser | map(select(.k == "missing")) | length) as $sm
  | ($ser | map(select(.k == "spurious")) | length) as $ss
  | "errors: \($fp + $fn) (\($fn) missed, \($fp) added); on facts of a yearly series \($sm + $ss) (\($sm) missed, \($ss) added)",
    "fact F1 \(f1($tp; $fp; $fn)); with every series error gone \(f1($tp + $sm; $fp - $ss; $fn - $sm))",
    "series errors by fact name:",
    ($ser | group_by([.k, (.f | name)]) | map({k: .[0].k, n: (.[0].f | name), c: length}) | sort_by(-.c) | .[:10][] | "  \(.k) \(.n) \(.c)"),
    "other errors by section (missed / added):",
    ($all | map(select(.f | series | not)) | group_by(.s)
      | map({s: .[0].s, m: map(select(.k == "missing")) | length, a: map(select(.k == "spurious")) | length}) | sort_by(-(.m + .a))[]
      | "  \(.s) \(.m) / \(.a)")
' "$1"
