#!/usr/bin/env bash
# `make debug-board`: OpenOCD halts the board after `reset init` and serves
# gdb on localhost:$GDB_PORT (3333); gdb-multiarch attaches with the ELF's
# symbols, loads it over JTAG and stops at start_kernel. Quit gdb to stop
# OpenOCD. Fails (exit 1) when OpenOCD does not come up, e.g. no adapter or
# no board answering; its log is $2.
#   tools/board-debug.sh IMAGE.elf LOG openocd [openocd args...]
set -euo pipefail
elf=$1 log=$2; shift 2
port=${GDB_PORT:-3333}
mkdir -p "$(dirname "$log")"

echo "debug-board: starting OpenOCD (gdb server on localhost:$port), log in $log"
"$@" -c "gdb_port $port; telnet_port disabled; tcl_port disabled" \
     -c "init; lokal_debug" > "$log" 2>&1 &
openocd=$!
trap 'kill $openocd 2>/dev/null || true; wait $openocd 2>/dev/null || true' EXIT

# Wait until lokal_debug has the board halted, or report why OpenOCD stopped.
ready="lokal: board halted after reset init"
for _ in $(seq 1 200); do
	grep -q "$ready" "$log" && break
	if ! kill -0 $openocd 2>/dev/null; then
		tail -n 15 "$log" | sed 's/^/  | /'
		echo "debug-board: OpenOCD exited before the board was halted"
		exit 1
	fi
	sleep 0.1
done
if ! grep -q "$ready" "$log"; then
	tail -n 15 "$log" | sed 's/^/  | /'
	echo "debug-board: the board was not halted within 20 s"
	exit 1
fi

echo "debug-board: gdb-multiarch $elf (load, break start_kernel; 'continue' to run)"
# As in tools/qemu-debug.sh: Ctrl-C reaches gdb alone, not make (status 130).
[ -t 0 ] && set -m
gdb-multiarch -q "$elf" \
	-ex "set architecture armv5te" \
	-ex "source $(dirname "$0")/gdb/lokal.py" \
	-ex "target extended-remote localhost:$port" \
	-ex "monitor reset init" \
	-ex "load" \
	-ex "break start_kernel" \
	${GDB_BATCH:+-batch -ex continue -ex bt}
