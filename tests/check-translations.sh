#!/usr/bin/env bash
# Fails when resources/translations/*.ts misses or keeps strings that the sources no longer
# have: lupdate runs on a copy of each file and the copy must come out unchanged.
# `make translations` (or `cmake --build build --target translations`) brings them up to date.
# Usage: check-translations.sh LUPDATE SOURCE_DIR
set -euo pipefail
lupdate=$1
src=$2
if [[ ! -x $lupdate ]]; then
  echo "SKIPPED: lupdate is not installed (qt6-l10n-tools, see packaging/install-deps.sh)"
  exit 125
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for ts in "$src"/resources/translations/*.ts; do
  copy="$work/$(basename "$ts")"
  cp "$ts" "$copy"
  (cd "$src" && "$lupdate" -silent -locations none -no-obsolete -extensions cpp,h -I . \
    app widgets models client -ts "$copy") 2>/dev/null
  if ! diff -u "$ts" "$copy"; then
    echo "$(basename "$ts") is out of date with the sources: run make translations" >&2
    status=1
  fi
done
exit $status
