#!/usr/bin/env bash
# Regenerate the whole schema corpus under tests/schemas (see tests/schemas/README.md), then cross-check
# every file with the Python jsonschema package.
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python scripts/corpus/pydantic_gen.py
node scripts/corpus/zod_gen.mjs
bash scripts/corpus/schemars_gen.sh
bash scripts/corpus/real.sh
.venv/bin/python scripts/corpus/hand_gen.py
.venv/bin/python scripts/corpus/check_corpus.py
