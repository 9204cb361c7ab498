# Sourced by each shim: appends "name arg…" (one line, arguments as %q) to $SHIM_LOG.
record() {
  local line
  printf -v line ' %q' "$@"
  printf '%s%s\n' "$(basename "$0")" "$line" >>"${SHIM_LOG:?SHIM_LOG unset: run these shims only from test/deploy/production-sequence.test.ts}"
}
