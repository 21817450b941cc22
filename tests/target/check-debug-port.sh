#!/usr/bin/env bash
# make debug with its gdb port taken: the script must
# stop at once and say why, never attach gdb to a stranger and time out.
# Two ways to be taken: a program listening there (caught before QEMU
# starts), and a socket bound but not listening (QEMU itself fails).
#   tests/target/check-debug-port.sh TAP_OUT IMAGE.elf
set -uo pipefail
if [ $# -ne 2 ] || [ ! -f "$2" ]; then
	echo "usage: tests/target/check-debug-port.sh TAP_OUT IMAGE.elf (${2:-no image}: not found)" >&2
	exit 2
fi
tap=$1 elf=$2
here=$(dirname "$0")
rc=0
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
	[ "$r" = ok ] || rc=1
	echo "$r 1 - make debug, gdb port held ($how): $why" | tee -a "$tap"
done
exit $rc
