#!/usr/bin/env bash
# `make debug`: QEMU halted at reset with a gdb stub on localhost:1234, and
# gdb-multiarch attached with the ELF's symbols and the lokal commands
# (tools/gdb/lokal.py: lokal ps, kmaps, bt THREAD, trace). Ctrl-C halts
# the target and returns to (gdb); the guest's console shows on the
# terminal (DEBUG_CONSOLE=log: only in the log, DEBUG_LOG names it). Quit
# gdb to stop QEMU.
#   tools/qemu-debug.sh IMAGE.elf
# GDB_PORT picks another port; GDB_BATCH=1 runs to start_kernel and exits.
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "debug: ${1:-no image given}: no such image (build it first)" >&2
	exit 2
fi
elf=$1
port=${GDB_PORT:-1234}
if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
	echo "debug: GDB_PORT=$port is not a TCP port number (1-65535)" >&2
	exit 2
fi
# Something already listening there would get gdb instead of our QEMU.
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "debug: 127.0.0.1:$port is already in use by another program (another make debug?);" \
	     "stop it or pick a free port with GDB_PORT=<port>" >&2
	exit 1
fi
log=${DEBUG_LOG:-build/qemu-debug.log}
echo "debug: starting QEMU halted (gdb stub on tcp::$port); its console shows here and in $log"
mkdir -p "$(dirname "$log")"
# QEMU in a session of its own: the terminal's Ctrl-C goes to gdb, which
# halts the target, and never kills QEMU. Its console is tailed here.
QEMU_TIMEOUT=${QEMU_TIMEOUT:-0} setsid tools/qemu-run.sh "$elf" -S -gdb tcp:127.0.0.1:$port \
	> "$log" 2>&1 < /dev/null &
qemu=$!
tailer=
trap 'kill $qemu ${tailer:-} 2>/dev/null || true' EXIT
# Attach only once QEMU's own stub listens; if QEMU stops first, say why.
hexport=$(printf '%04X' "$port")
for _ in $(seq 100); do
	if ! kill -0 "$qemu" 2>/dev/null; then
		echo "debug: QEMU did not start; it said:" >&2
		sed 's/^/  | /' "$log" >&2
		if grep -q "in use" "$log"; then
			echo "debug: port $port is taken; pick a free one with GDB_PORT=<port>" >&2
		fi
		exit 1
	fi
	awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" { found = 1 } END { exit !found }' \
		/proc/net/tcp 2>/dev/null && break
	sleep 0.1
done
if [ "${DEBUG_CONSOLE:-terminal}" = terminal ]; then
	setsid tail -n +1 -f "$log" &
	tailer=$!
fi
# gdb in a process group of its own, given the terminal: Ctrl-C reaches gdb
# alone. Otherwise make, in the terminal's group too, takes the SIGINT as
# "stop", waits for gdb to quit and then ends with status 130.
[ -t 0 ] && set -m
gdb-multiarch -q "$elf" \
	-ex "set architecture armv5te" \
	-ex "source $(dirname "$0")/gdb/lokal.py" \
	-ex "target remote 127.0.0.1:$port" \
	-ex "break start_kernel" \
	${GDB_BATCH:+-batch -ex continue -ex bt}
