#!/usr/bin/env bash
# Boot an image under QEMU and return the firmware's exit status: the one
# place the QEMU command line is put together (make run and debug, the
# shell, the benchmarks, the test runners and the Python tools all come here).
#   tools/qemu-run.sh IMAGE.elf [extra qemu args...]
#   tools/qemu-run.sh NOR.img -device loader,addr=FLASH_BASE,cpu-num=0 (a whole
#       NOR part as the board's flash; the CPU started at its base)
# The command is the board's BOARD_QEMU (board/<board>/board.mk: the machine,
# its CPU, RAM and device backends) plus the console, semihosting and the image.
# Environment: BOARD (default: the board the image was built for), RAM_MB
# (default: the image's build's), QEMU_ICOUNT=1 for deterministic
# instruction-counted time (benchmarks), QEMU_CONSOLE=stdio (default) |
# mux (a terminal: QEMU's own keys on Ctrl-A, Ctrl-C to the firmware) |
# none (discarded), QEMU_SEMIHOSTING=0 (a board without a debugger),
# QEMU_TIMEOUT seconds (default 300; 0 means no limit). A run stopped by the
# limit says so on stderr and ends with status 124, so a hung firmware can
# never look like a finished one.
set -euo pipefail
here=${0%/*}
[ "$here" != "$0" ] || here=.
. "$here/lib/board.sh"
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
	echo "qemu-run: ${1:-no image given}: no such image (build it first)" >&2
	exit 2
fi
elf=$1; shift
limit=${QEMU_TIMEOUT-300}
if ! [[ "$limit" =~ ^[0-9]+$ ]]; then
	echo "qemu-run: QEMU_TIMEOUT=$limit is not a number of seconds (0: no limit)" >&2
	exit 2
fi
case ${QEMU_ICOUNT:-0} in
0|1) ;;
*) echo "qemu-run: QEMU_ICOUNT=$QEMU_ICOUNT: 1 (instruction-counted time) or 0 (real time)" >&2; exit 2;;
esac
board=${BOARD:-$(image_config "$elf" BOARD || echo versatilepb)}
ram=${RAM_MB:-$(image_config "$elf" RAM_MB || true)}
if [ -z "$ram" ]; then
	echo "qemu-run: $elf: no build configuration beside it to take RAM_MB from; give RAM_MB=<MiB>" >&2
	exit 2
fi
read -r -a machine <<< "$(board_var "$board" BOARD_QEMU RAM_MB="$ram")"
if [ "${#machine[@]}" -eq 0 ]; then
	echo "qemu-run: board $board has no QEMU model (no BOARD_QEMU in board/$board/board.mk)" >&2
	exit 2
fi
case ${QEMU_CONSOLE:-stdio} in
stdio) console=(-serial stdio);;
mux)   console=(-chardev stdio,id=con,mux=on,signal=off -serial chardev:con);;
none)  console=(-serial file:/dev/null);;
*) echo "qemu-run: QEMU_CONSOLE=$QEMU_CONSOLE: stdio, mux or none" >&2; exit 2;;
esac
args=("${machine[@]}" -nographic -monitor none "${console[@]}")
[ "${QEMU_SEMIHOSTING:-1}" = 0 ] || args+=(-semihosting-config enable=on,target=native)
magic=""
IFS= read -r -d '' -n 4 magic < "$elf" || true
if [ "$magic" = $'\x7fELF' ]; then
	args+=(-kernel "$elf")
else
	args+=(-drive "if=pflash,file=$elf,format=raw")
fi
[ "${QEMU_ICOUNT:-0}" != 1 ] || args+=(-icount shift=0,align=off,sleep=off)
cmd=("${args[@]}" "$@")
if [ "$limit" -eq 0 ]; then
	exec "${cmd[@]}"
fi
# In the background so a TERM to this script (make debug's cleanup) reaches
# QEMU too; <&0 keeps stdin, which a background job would otherwise lose.
timeout --foreground -k 5 "$limit" "${cmd[@]}" <&0 &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM HUP
rc=0
wait "$child" || rc=$?
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "qemu-run: $elf did not finish within QEMU_TIMEOUT=${limit}s; QEMU stopped (raise the limit with QEMU_TIMEOUT=<seconds>, 0 for none)" >&2
	exit 124
fi
exit "$rc"
