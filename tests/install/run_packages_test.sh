#!/usr/bin/env bash
# packages test: build the Debian packages of a finished build tree with cpack,
# check their metadata and the runtime library's exported symbols, install
# them, build a C consumer with "pkg-config --cflags --libs tensorflowlite_c"
# against the installed files, run a model with it and with the packaged
# run_model, run the packaged "benchmark_model --help", and remove the
# packages again (also when a step fails).
#
#   run_packages_test.sh BUILD_DIR WORK_DIR [MODEL]
#
# Installing: as root, natively, with dpkg -i into the system (CI), unless a
# tflite-c package is already installed there (then we leave the system alone)
# or TFLITE_C_PACKAGES_SCRATCH=1; otherwise each .deb is unpacked with
# dpkg-deb -x into WORK_DIR/root and used from there.
# Environment: CC (target C compiler); TFLITE_C_RUN for a cross build (see
# cross_env.sh). Exit status 77 (skip) without dpkg-deb or cpack.
set -euo pipefail
# grep -q stops reading at its first match; under pipefail the writer's
# SIGPIPE then fails the whole pipeline (seen once in CI, on the help text:
# its first --graph= is in the first 4 KB bash's printf writes). `has` reads
# everything before it greps.
has() { local text; text=$(cat); grep -q "$@" <<<"$text"; }
build=$1 work=$2 model=${3:-}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CC=${CC:-cc}
source "$here/cross_env.sh"
[ -n "$model" ] && [ ! -f "$model" ] && { echo "packages: $model not found, no model run"; model=""; }

command -v dpkg-deb >/dev/null || { echo "skip: dpkg-deb not found (not a Debian system)"; exit 77; }
cpack=$(dirname "$(command -v cmake)")/cpack
[ -x "$cpack" ] || cpack=$(command -v cpack || true)
[ -n "$cpack" ] || { echo "skip: cpack not found"; exit 77; }

fail() { echo "packages: FAIL: $*" >&2; exit 1; }
packages=(libtflite-c0 libtflite-c-dev tflite-c-tools)

rm -rf "$work"
mkdir -p "$work"
# 1. Build the packages (cpack installs the build tree's components; nothing
#    is compiled).
"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$work/debs" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=()
for p in "${packages[@]}"; do
  f=$(ls "$work/debs/${p}"_*.deb 2>/dev/null | head -n 1)
  [ -n "$f" ] || fail "no ${p}_*.deb produced"
  debs+=("$f")
  echo "packages: $(basename "$f"): $(dpkg-deb -f "$f" Depends)"
done

# 2. Metadata: exact-version dependencies on the runtime package, a shlibs
#    file, architecture, who holds which file.
arch=$(dpkg-deb -f "${debs[0]}" Architecture)
[ -n "$arch" ] && [ "$arch" != all ] || fail "bad Architecture '$arch'"
version=$(dpkg-deb -f "${debs[0]}" Version)
for i in 1 2; do
  dpkg-deb -f "${debs[$i]}" Depends | has "libtflite-c0 (= $version)" ||
    fail "${packages[$i]} does not depend on libtflite-c0 (= $version)"
done
dpkg-deb -I "${debs[0]}" shlibs | has "^libtflite_c 0 libtflite-c0" ||
  fail "libtflite-c0 has no shlibs entry for libtflite_c.so.0"
contents() { dpkg-deb -c "$1" | awk '{print $6}'; }
contents "${debs[0]}" | has '/libtflite_c\.so\.0$' || fail "libtflite_c.so.0 not in libtflite-c0"
contents "${debs[0]}" | has '/libtensorflowlite_c\.so$' ||
  fail "libtensorflowlite_c.so not in libtflite-c0"
contents "${debs[0]}" | has -E '/libtflite_c\.so$|/include/' && fail "development files in libtflite-c0"
contents "${debs[1]}" | has '/libtflite_c\.so$' || fail "libtflite_c.so link not in libtflite-c-dev"
contents "${debs[1]}" | has '/pkgconfig/tensorflowlite_c\.pc$' || fail "tensorflowlite_c.pc not in -dev"
contents "${debs[1]}" | has '/include/tensorflow/lite/c/c_api\.h$' || fail "c_api.h not in -dev"
for t in benchmark_model run_model inference_diff model_inspector; do
  contents "${debs[2]}" | has "/bin/$t\$" || fail "$t not in tflite-c-tools"
done
echo "packages: metadata OK ($arch, version $version)"

# 3. The packaged library exports the public C API only.
dpkg-deb -x "${debs[0]}" "$work/runtime"
bash "$here/check_exported_symbols.sh" "$(ls "$work"/runtime/usr/lib*/libtflite_c.so.0 "$work"/runtime/usr/lib/*/libtflite_c.so.0 2>/dev/null | head -n 1)"

# 4. Install.
mode=scratch
if [ "$(id -u)" = 0 ] && [ ${#run[@]} -eq 0 ] && [ "${TFLITE_C_PACKAGES_SCRATCH:-0}" != 1 ] &&
   command -v dpkg >/dev/null; then
  if dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null | has 'install ok'; then
    echo "packages: a tflite-c package is already installed here; not touching it, unpacking instead"
  else
    mode=system
  fi
fi
if [ "$mode" = system ]; then
  # One run at a time on this machine (dpkg's own lock would fail the second).
  exec 9>/tmp/tflite-c-packages-test.lock
  flock 9
  cleanup() {
    dpkg --purge "${packages[@]}" >"$work/purge.log" 2>&1 ||
      { cat "$work/purge.log" >&2; echo "packages: WARNING: dpkg --purge failed" >&2; }
    echo "packages: removed ${packages[*]}"
  }
  trap cleanup EXIT
  dpkg -i "${debs[@]}" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
  echo "packages: installed with dpkg -i"
  root=/
  unset PKG_CONFIG_PATH PKG_CONFIG_LIBDIR
  rpath=()
else
  trap 'rm -rf "$work/root"' EXIT
  for f in "${debs[@]}"; do dpkg-deb -x "$f" "$work/root"; done
  root=$work/root
  pc=$(ls -d "$root"/usr/lib/pkgconfig "$root"/usr/lib/*/pkgconfig 2>/dev/null | head -n 1 || true)
  [ -n "$pc" ] || fail "no pkgconfig directory in the unpacked packages"
  export PKG_CONFIG_PATH=$pc
  echo "packages: unpacked into $root"
fi

# 5. A C consumer through pkg-config, against the installed files.
pkg-config --exists tensorflowlite_c || fail "pkg-config cannot find tensorflowlite_c"
libdir=$(pkg-config --variable=libdir tensorflowlite_c)
case "$(cd "$libdir" && pwd -P)" in
  "$(cd "$root" && pwd -P)"/usr/*|/usr/*) ;;
  *) fail "pkg-config's libdir $libdir is not in the installed tree" ;;
esac
[ "$mode" = scratch ] && rpath=(-Wl,-rpath,"$libdir")
# shellcheck disable=SC2046
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic "$here/consumer.c" -o "$work/consumer" \
  $(pkg-config --cflags --libs tensorflowlite_c) "${rpath[@]}"
if [ ${#run[@]} -eq 0 ] && command -v ldd >/dev/null; then
  got=$(ldd "$work/consumer" | awk '/libtflite_c\.so/ {print $3}')
  # Compared resolved: /lib is /usr/lib on merged-/usr systems.
  case "$(readlink -f "$got")" in
    "$(cd "$libdir" && pwd -P)"/*) ;;
    *) fail "consumer loads libtflite_c from '$got', not from $libdir" ;;
  esac
fi
"${run[@]}" "$work/consumer" ${model:+"$model"}
echo "packages: pkg-config consumer OK ($(pkg-config --modversion tensorflowlite_c))"

# 6. The tools package.
bin=$root/usr/bin
out=$("${run[@]}" "$bin/benchmark_model" --help 2>&1) && fail "benchmark_model --help exited 0 (upstream exits 1)"
for section in NAME SYNOPSIS OPTIONS EXAMPLES; do
  printf '%s\n' "$out" | has "^\(ERROR: \)\?$section\$" || fail "benchmark_model --help has no $section section"
done
printf '%s\n' "$out" | has -- '--graph=' || fail "benchmark_model --help lists no --graph flag"
echo "packages: benchmark_model --help OK"
if [ -n "$model" ]; then
  "${run[@]}" "$bin/run_model" "$model" --runs 2 >"$work/run_model.log" 2>&1 ||
    { cat "$work/run_model.log"; fail "packaged run_model on $model"; }
  echo "packages: packaged run_model OK"
fi
echo "packages: OK ($mode install)"
