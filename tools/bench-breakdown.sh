#!/usr/bin/env bash
# Per-function instruction breakdown of one yield and one IRQ-to-thread
# path in the bench image, by gdb-multiarch single-stepping under QEMU.
#   tools/bench-breakdown.sh BENCH.elf
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "bench-breakdown: ${1:-no image given}: no such image (make bench-image first)" >&2
	exit 2
fi
elf=$1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# No time limit: qemu-run.sh becomes QEMU, so $! is QEMU's.
QEMU_TIMEOUT=0 QEMU_CONSOLE=none QEMU_ICOUNT=1 "$(dirname "$0")/qemu-run.sh" "$elf" \
	-S -gdb tcp:127.0.0.1:$port > /dev/null 2>&1 &
qemu=$!
trap 'kill $qemu 2>/dev/null || true' EXIT
hexport=$(printf '%04X' "$port")
for _ in $(seq 100); do
	kill -0 $qemu 2>/dev/null || { echo "bench-breakdown: QEMU did not start" >&2; exit 1; }
	awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp && break
	sleep 0.1
done
BREAKDOWN_PORT=$port timeout 600 gdb-multiarch -q -batch -nx -x "$(dirname "$0")/bench-breakdown.py" "$elf" 2>&1 \
	| sed -n 's/^BD: //p; /Error\|error:/p'
