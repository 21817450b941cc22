#!/usr/bin/env bash
# `make check-boards`: every board folder builds, and a board with a NOR
# boot stub gets a NOR image that QEMU boots (versatilepb: QEMU models the
# PB926's NOR at 0x34000000, so the stub's copy-and-jump runs for real;
# only the reset alias at 0 and the remap are not modelled).
#   tests/boards/check-boards.sh TAP_FILE
set -uo pipefail
tap=$1
mkdir -p build/check
: > "$tap"
. tests/lib/tap.sh
tap_open "$tap"

for mk in board/*/board.mk; do
	b=$(basename "$(dirname "$mk")")
	log=build/check/board-$b.log
	if make --no-print-directory BOARD="$b" O="build/$b" all shell-image > "$log" 2>&1; then
		tap_result ok "board $b builds, demo and shell images (make BOARD=$b O=build/$b all shell-image)"
	else
		tap_result "not ok" "board $b builds, demo and shell images (make BOARD=$b O=build/$b all shell-image)" \
			"$(grep -m1 -E 'error|Error' "$log")" "see $log"
		continue
	fi

	[ -e "board/$b/nor-boot.S" ] || continue
	log=build/check/board-$b-nor.log
	if ! make --no-print-directory BOARD="$b" O="build/$b" nor-image > "$log" 2>&1; then
		tap_result "not ok" "board $b: NOR image (boot stub + image) builds" "see $log"
		continue
	fi
	tap_result ok "board $b: NOR image (boot stub + image) builds"

	[ "$b" = versatilepb ] || continue
	# QEMU wants the whole 64 MiB part; start the CPU at the NOR base.
	img=build/check/nor-$b.img
	cp "build/$b/nor.bin" "$img" && truncate -s 64M "$img"
	# What the stub must deliver is the banner and the shell's prompt (the
	# image runs from RAM). The UART drops input sent before it is up, so
	# 'exit' is repeated until the shell takes it and QEMU ends, however
	# long a loaded host takes to get there (QEMU_TIMEOUT bounds it).
	{ while sleep 0.5; do printf 'exit\r' || break; done; } 2>/dev/null |
	BOARD=$b RAM_MB=128 QEMU_TIMEOUT=120 tools/qemu-run.sh "$img" -device loader,addr=0x34000000,cpu-num=0 \
		> build/check/board-$b-nor-qemu.log 2>&1
	qrc=${PIPESTATUS[1]}
	[ "$qrc" -eq 124 ] && echo "check-boards: QEMU stopped at its 120 s limit" >> build/check/board-$b-nor-qemu.log
	if grep -q "^Lokal on $b" build/check/board-$b-nor-qemu.log &&
	   grep -q '^RAM: ' build/check/board-$b-nor-qemu.log &&
	   grep -q "^shell: type 'demo' to run the demo, or 'help'" build/check/board-$b-nor-qemu.log &&
	   grep -q '^lokal> ' build/check/board-$b-nor-qemu.log; then
		tap_result ok "board $b: QEMU started at the NOR base runs the stub, then Lokal to its banner and the shell prompt"
	else
		tap_result "not ok" "board $b: QEMU started at the NOR base runs the stub, then Lokal to its banner and the shell prompt" \
			"QEMU exit status $qrc$([ "$qrc" -eq 124 ] && echo ', stopped at its 120 s limit'); see build/check/board-$b-nor-qemu.log"
	fi
done
# Any failing case fails the phase.
tap_close
