# Shared by the tool tests (sourced): captured stdout/stderr files removed on
# exit, and checks that print both on failure.
#   out, err        files the test redirects the tool's output into
#   fail MSG        prints MSG and both captures, exits 1
#   expect_out RE   stdout has a line matching the extended regex RE
#   expect_err RE   stderr likewise
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
expect_out() { grep -Eq -- "$1" "$out" || fail "stdout lacks /$1/"; }
expect_err() { grep -Eq -- "$1" "$err" || fail "stderr lacks /$1/"; }
