#!/usr/bin/env bash
# Test, read after the decision, with decoder version 41: `bash
# ../main-job-test.sh` here (`test.json`, `joint.txt`).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
bash "$HERE/../main-job-test.sh" "$HERE"
