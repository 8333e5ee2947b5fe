#!/bin/sh
# cc_exported_symbols test: libtflite_cc.so's dynamic symbol table holds the
# C API (TfLite*) and, demangled, symbols of namespace tflite only.
#   check_exported_symbols.sh LIBRARY
set -eu
lib=$1
[ -f "$lib" ] || { echo "cc_exported_symbols: $lib not found"; exit 1; }
syms=$(nm -D --defined-only "$lib" | awk 'NF >= 3 && $2 != "A" {print $3}' | sed 's/@.*//' |
  sort -u)
demangled=$(printf '%s\n' "$syms" | c++filt)
bad=$(printf '%s\n' "$demangled" |
  grep -Ev '^(TfLite|TFL|tflite_plugin_)' |
  grep -Ev '^((typeinfo|typeinfo name|vtable) for )?tflite::' |
  grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' || true)
if [ -n "$bad" ]; then
  echo "cc_exported_symbols: FAIL: symbols outside the C API and namespace tflite:"
  printf '%s\n' "$bad" | head -n 50
  exit 1
fi
printf '%s\n' "$demangled" | grep -q '^tflite::Interpreter::Invoke()$' ||
  { echo "cc_exported_symbols: FAIL: tflite::Interpreter::Invoke() not exported"; exit 1; }
echo "cc_exported_symbols: OK: $(printf '%s\n' "$syms" | grep -c .) symbols"
