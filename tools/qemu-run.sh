#!/usr/bin/env bash
# Boot an image under QEMU versatilepb and return the firmware's exit status.
#   tools/qemu-run.sh IMAGE.elf [extra qemu args...]
# (The AACI sound device gets a silent backend so QEMU does not probe host audio.)
# Environment: RAM_MB (default 128), QEMU_ICOUNT=1 for deterministic
# instruction-counted time (benchmarks), QEMU_TIMEOUT seconds (default 300;
# 0 means no limit). A run stopped by the limit says so on stderr and ends
# with status 124, so a hung firmware can never look like a finished one.
set -euo pipefail
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
args=(-M versatilepb -cpu arm926 -m "${RAM_MB:-128}M"
      -nographic -monitor none -serial stdio
      -semihosting-config enable=on,target=native
      -audiodev none,id=snd0 -global pl041.audiodev=snd0
      -kernel "$elf")
if [ "${QEMU_ICOUNT:-0}" = 1 ]; then
	args+=(-icount shift=0,align=off,sleep=off)
fi
cmd=(qemu-system-arm "${args[@]}" "$@")
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
