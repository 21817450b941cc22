#!/usr/bin/env bash
# make debug's path: QEMU's gdb stub plus gdb-multiarch reach start_kernel.
# And with its gdb port taken the script must stop at once and say why,
# never attach gdb to a stranger and time out. Two ways to be taken: a
# program listening there (caught before QEMU starts), and a socket bound
# but not listening (QEMU itself fails).
#   tests/target/check-debug-port.sh TAP_OUT IMAGE.elf
set -uo pipefail
if [ $# -ne 2 ] || [ ! -f "$2" ]; then
	echo "usage: tests/target/check-debug-port.sh TAP_OUT IMAGE.elf (${2:-no image}: not found)" >&2
	exit 2
fi
here=$(dirname "$0")
. "$here/../lib/tap.sh"
tap_open "$1"
elf=$2
# A port nobody holds now: a fixed one may be another run's on a shared machine.
free_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if GDB_BATCH=1 GDB_PORT=$free_port timeout 60 tools/qemu-debug.sh "$elf" 2>&1 | grep -c 'Breakpoint 1, start_kernel' > /dev/null; then
	tap_result ok "make debug: gdb-multiarch stops at start_kernel"
else
	tap_result "not ok" "make debug: gdb-multiarch stops at start_kernel"
fi
for how in listen bind; do
	exec {fd}< <(exec python3 "$here/hold-port.py" "$how" 30)
	holder=$!
	read -r -t 10 port <&$fd || port=
	out=$(GDB_BATCH=1 GDB_PORT=$port timeout 20 tools/qemu-debug.sh "$elf" 2>&1)
	st=$?
	kill "$holder" 2>/dev/null
	exec {fd}<&-
	if [ -z "$port" ]; then
		r="not ok"; why="could not hold a port"
	elif [ "$st" -eq 1 ] && grep -q "in use\|is taken" <<< "$out" && ! grep -q "Breakpoint" <<< "$out"; then
		r="ok"; why="refused at once: $(grep -m1 'in use\|is taken' <<< "$out" | sed 's/^debug: //')"
	else
		r="not ok"; why="status $st; said: $(tail -n 3 <<< "$out" | tr '\n' ' ')"
	fi
	tap_result "$r" "make debug, gdb port held ($how): $why"
done
tap_close
