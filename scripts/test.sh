#!/usr/bin/env bash
# Runs every test against the real tools: installs what they need (cached), then cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# shellcheck disable=SC1091
source "${RKBUILD_CACHE:-/var/cache/rkbuild-ci}/env.sh"
cargo test --locked "$@"
