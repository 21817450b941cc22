#!/usr/bin/env bash
# Boot an image under QEMU versatilepb and return the firmware's exit status.
#   tools/qemu-run.sh IMAGE.elf [extra qemu args...]
# (The AACI sound device gets a silent backend so QEMU does not probe host audio.)
# Environment: RAM_MB (default 128), QEMU_ICOUNT=1 for deterministic
# instruction-counted time (benchmarks), QEMU_TIMEOUT seconds (default none).
set -euo pipefail
elf=$1; shift
args=(-M versatilepb -cpu arm926 -m "${RAM_MB:-128}M"
      -nographic -monitor none -serial stdio
      -semihosting-config enable=on,target=native
      -audiodev none,id=snd0 -global pl041.audiodev=snd0
      -kernel "$elf")
if [ "${QEMU_ICOUNT:-0}" = 1 ]; then
	args+=(-icount shift=0,align=off,sleep=off)
fi
cmd=(qemu-system-arm "${args[@]}" "$@")
if [ -n "${QEMU_TIMEOUT:-}" ]; then
	exec timeout --foreground -k 5 "$QEMU_TIMEOUT" "${cmd[@]}"
fi
exec "${cmd[@]}"
