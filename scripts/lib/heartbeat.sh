# Sourced by the scripts: runs a long command and, while it runs, prints
# "<label>: still running (N s)" on stderr every HEARTBEAT_SECS seconds (default 9: with the
# half-second polling and whole-second clock, no silence lasts more than 10 s), so a log
# or a pipe never goes silent during a build, a download or an install. The command's exit
# status is returned; its own output is left as it is.
#
#   source "$ROOT/scripts/lib/heartbeat.sh"
#   with_heartbeat "installing xllamacpp" pip install -q xllamacpp
with_heartbeat() {
    local label="$1"
    shift
    local every="${HEARTBEAT_SECS:-9}" start="$SECONDS" next
    "$@" &
    local pid=$!
    next=$((start + every))
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.5
        if ((SECONDS >= next)) && kill -0 "$pid" 2>/dev/null; then
            echo "$label: still running ($((SECONDS - start)) s)" >&2
            next=$((SECONDS + every))
        fi
    done
    wait "$pid"
}
