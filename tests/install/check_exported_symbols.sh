#!/usr/bin/env bash
# exported_symbols test: the shared library's dynamic symbol table may hold
# only the public C API (TfLite*, TFL*, tflite_plugin_*), never C++ internals
# (mangled _Z...) or symbols of statically linked dependencies.
#
#   check_exported_symbols.sh LIBRARY
set -euo pipefail
lib=$1
[ -f "$lib" ] || { echo "exported_symbols: $lib not found"; exit 1; }
# Absolute symbols named like "VERS_1.0" are version-script nodes, not code.
syms="$(nm -D --defined-only "$lib" |
  awk 'NF >= 3 && !($2 == "A" && $3 ~ /^[A-Za-z_][A-Za-z0-9_]*_[0-9][0-9.]*$/) {print $3}' |
  sed 's/@.*//' | sort -u)"
count=$(printf '%s\n' "$syms" | grep -c . || true)
# Names the linker itself may add to any shared object.
linker='^(_init|_fini|_edata|_end|__bss_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_)$'
bad="$(printf '%s\n' "$syms" | grep -Ev '^(TfLite|TFL|tflite_plugin_)' | grep -Ev "$linker" || true)"
if [ -n "$bad" ]; then
  echo "exported_symbols: FAIL: $(printf '%s\n' "$bad" | grep -c .) non-public symbols exported by $lib:"
  printf '%s\n' "$bad" | head -n 50
  exit 1
fi
[ "$count" -gt 0 ] || { echo "exported_symbols: FAIL: no symbols exported at all"; exit 1; }
echo "exported_symbols: OK: $count public symbols, nothing else"
