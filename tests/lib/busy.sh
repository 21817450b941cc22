# A busy host for the runners that prove a verdict does not depend on the
# host's load (sourced by bash). The load is plain CPU spinning, one process
# per core, started and stopped by the runner itself, so a run "under load"
# competes for every core the runner's own jobs use.

BUSY_PIDS=()

# busy_start [N]: N spinning processes (default: one per core); they stop
# at busy_stop, or when the calling shell exits.
busy_start() {
	local n=${1:-$(nproc)} i
	for ((i = 0; i < n; i++)); do
		yes > /dev/null &
		BUSY_PIDS+=($!)
	done
	trap busy_stop EXIT
}

# busy_stop: the spinning processes are gone when it returns.
busy_stop() {
	[ "${#BUSY_PIDS[@]}" -eq 0 ] && return 0
	kill "${BUSY_PIDS[@]}" 2>/dev/null
	wait "${BUSY_PIDS[@]}" 2>/dev/null
	BUSY_PIDS=()
	return 0
}
