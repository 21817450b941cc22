#!/usr/bin/env bash
# `make debug`: QEMU halted at reset with a gdb stub on localhost:1234, and
# gdb-multiarch attached with the ELF's symbols. Quit gdb to stop QEMU.
#   tools/qemu-debug.sh IMAGE.elf
set -euo pipefail
elf=$1
port=${GDB_PORT:-1234}
echo "debug: starting QEMU halted (gdb stub on tcp::$port), console in build/qemu-debug.log"
mkdir -p build
QEMU_TIMEOUT=${QEMU_TIMEOUT:-0} tools/qemu-run.sh "$elf" -S -gdb tcp:127.0.0.1:$port > build/qemu-debug.log 2>&1 &
qemu=$!
trap 'kill $qemu 2>/dev/null || true' EXIT
sleep 0.5
gdb-multiarch -q "$elf" \
	-ex "set architecture armv5te" \
	-ex "target remote 127.0.0.1:$port" \
	-ex "break start_kernel" \
	${GDB_BATCH:+-batch -ex continue -ex bt}
