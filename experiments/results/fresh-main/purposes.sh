#!/usr/bin/env bash
# Gold's payment purposes: how many (case, purpose) values the case files
# of $SARA_DIR hold, and those no other fact of their case names.
set -euo pipefail
SARA="${SARA_DIR:-$(dirname "$0")/../../../../shared/sara}"
n=0; alone=0
for f in "$SARA"/cases/*.pl; do
  body=$(grep -v '^%' "$f")
  for p in $(grep -oE 'purpose_\([^,]+, *[a-z][a-zA-Z0-9_]*\)' <<<"$body" | sed -E 's/.*, *([a-zA-Z0-9_]+)\)/\1/' | sort -u); do
    n=$((n + 1))
    all=$(grep -oE "\b$p\b" <<<"$body" | wc -l)
    as_purpose=$(grep -oE "purpose_\([^,]+, *$p\)" <<<"$body" | wc -l)
    [ "$all" -gt "$as_purpose" ] || { alone=$((alone + 1)); echo "$(basename "$f" .pl): $p"; }
  done
done
echo "$n purposes, $alone named only as a purpose"
