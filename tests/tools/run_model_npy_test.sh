#!/bin/sh
# run_model with .npy inputs and outputs on java_add (one float32 input and
# output, [1,8,8,3]):
#   - a .npy input gives the same outputs as the same bytes given raw;
#   - --output_dir writes output_0.npy with the right header, and its data
#     matches upstream's golden output within the manifest tolerance;
#   - a .npy of the wrong dtype, the wrong element count, or truncated, is
#     refused with exit status 1 and a message.
# Usage: run_model_npy_test.sh RUN_MODEL SHARED_MODELS_DIR
set -u
RUN="$1"
MODELS="$2"
MODEL="$MODELS/files/java_add.tflite"
GOLDEN="$MODELS/golden/java_add"
[ -f "$MODEL" ] && [ -f "$GOLDEN/input_0.bin" ] || { echo "skip: $MODEL or its golden not found"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 not found"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TFLITE_C_DISABLE_XNNPACK=1  # compare the builtin kernels with tolerance_builtin

python3 - "$GOLDEN/input_0.bin" "$TMP" <<'PY' || exit 1
import struct, sys
data = open(sys.argv[1], 'rb').read()
def npy(path, descr, shape, payload):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ''.join('%d, ' % d for d in shape))
    pad = 64 - (10 + len(hdr) + 1) % 64
    hdr = hdr + ' ' * (pad % 64) + '\n'
    open(path, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + payload)
npy(sys.argv[2] + '/in.npy', '<f4', (1, 8, 8, 3), data)
npy(sys.argv[2] + '/in_flat.npy', '<f4', (192,), data)       # same count, other shape
npy(sys.argv[2] + '/in_i32.npy', '<i4', (1, 8, 8, 3), data)  # wrong dtype
npy(sys.argv[2] + '/in_short.npy', '<f4', (1, 8, 8, 2), data[:512])
full = open(sys.argv[2] + '/in.npy', 'rb').read()
open(sys.argv[2] + '/in_trunc.npy', 'wb').write(full[:200])  # data cut short
open(sys.argv[2] + '/in_hdr.npy', 'wb').write(full[:30])     # header cut short
PY

fail() { echo "FAIL: $*"; exit 1; }

mkdir "$TMP/raw" "$TMP/npy" "$TMP/flat"
"$RUN" "$MODEL" --input "0=$GOLDEN/input_0.bin" --output_dir "$TMP/raw" > "$TMP/raw.log" 2>&1 || { cat "$TMP/raw.log"; fail "raw input run"; }
"$RUN" "$MODEL" --input "0=$TMP/in.npy" --output_dir "$TMP/npy" > "$TMP/npy.log" 2>&1 || { cat "$TMP/npy.log"; fail ".npy input run"; }
grep -q "wrote $TMP/npy/output_0.npy" "$TMP/npy.log" || fail "no 'wrote' line"
cmp -s "$TMP/raw/output_0.npy" "$TMP/npy/output_0.npy" || fail ".npy and raw inputs gave different outputs"
"$RUN" "$MODEL" --input "0=$TMP/in_flat.npy" --output_dir "$TMP/flat" > "$TMP/flat.log" 2>&1 || { cat "$TMP/flat.log"; fail "same-count .npy"; }
grep -q "note: .* another shape" "$TMP/flat.log" || fail "no note about the other shape"
cmp -s "$TMP/raw/output_0.npy" "$TMP/flat/output_0.npy" || fail "flat .npy gave other outputs"

python3 - "$TMP/npy/output_0.npy" "$GOLDEN/output_0.bin" <<'PY' || fail "output .npy check"
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'\x93NUMPY\x01\x00', b[:8]
n = struct.unpack('<H', b[8:10])[0]
hdr = b[10:10 + n].decode()
assert (10 + n) % 64 == 0 and hdr.endswith('\n'), hdr
d = eval(hdr)
assert d == {'descr': '<f4', 'fortran_order': False, 'shape': (1, 8, 8, 3)}, d
got = struct.unpack('<192f', b[10 + n:])
want = struct.unpack('<192f', open(sys.argv[2], 'rb').read())
bad = [i for i in range(192) if abs(got[i] - want[i]) > 0.000299 + 0.001 * abs(want[i])]
assert not bad, ('mismatch at', bad[:5])
PY

for case in i32:"dtype '<i4'" short:"has 128 elements" trunc:"has 72 data bytes" hdr:"is truncated"; do
  name=${case%%:*}
  msg=${case#*:}
  out=$("$RUN" "$MODEL" --input "0=$TMP/in_$name.npy" 2>&1)
  rc=$?
  [ $rc -eq 1 ] || { echo "$out"; fail "$name: exit $rc, want 1"; }
  echo "$out" | grep -q "$msg" || { echo "$out"; fail "$name: no message '$msg'"; }
done
echo "run_model .npy: ok"
