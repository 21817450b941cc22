#!/usr/bin/env bash
# Per-function instruction breakdown of the yields, the IRQ-to-thread
# path and one event of each thread-only Thread-Metric shape in the bench
# image, by gdb-multiarch single-stepping under QEMU.
#   tools/bench-breakdown.sh BENCH.elf
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "bench-breakdown: ${1:-no image given}: no such image (make bench-image first)" >&2
	exit 2
fi
elf=$1
qemu=""
trap '[ -z "$qemu" ] || kill $qemu 2>/dev/null || true' EXIT
# session [SHAPE]: QEMU halted with a gdb stub, the script attached; the
# switch and IRQ paths, or one event shape (a session each: the shapes run
# late in the image, and stepping one masks its interrupts for good).
session() {
	local port hexport
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# No time limit: qemu-run.sh becomes QEMU, so $! is QEMU's.
	QEMU_TIMEOUT=0 QEMU_CONSOLE=none QEMU_ICOUNT=1 "$(dirname "$0")/qemu-run.sh" "$elf" \
		-S -gdb tcp:127.0.0.1:$port > /dev/null 2>&1 &
	qemu=$!
	hexport=$(printf '%04X' "$port")
	for _ in $(seq 100); do
		kill -0 $qemu 2>/dev/null || { echo "bench-breakdown: QEMU did not start" >&2; exit 1; }
		awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp && break
		sleep 0.1
	done
	BREAKDOWN_SHAPE=${1:-} BREAKDOWN_PORT=$port timeout 600 gdb-multiarch -q -batch -nx \
		-x "$(dirname "$0")/bench-breakdown.py" "$elf" 2>&1 | sed -n 's/^BD: //p; /Error\|error:/p'
	kill $qemu 2>/dev/null || true
	wait $qemu 2>/dev/null || true
	qemu=""
}
session
# The thread-only shapes; the interrupt shapes' paths are the IRQ ones above.
session "event: cooperative (a relinquish and a count)|cooperative_0|tm_thread_relinquish"
session "event: message (a 16-byte send and receive)|message|tm_queue_send"
session "event: synchronization (a get and a put)|synchronization|tm_semaphore_get"
session "event: memory (a 128-byte block allocated and freed)|memory|tm_memory_pool_allocate"
