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
. tests/lib/images.sh
tap_open "$tap"

# The emulator's machines, as its --help lists them (the AST2400 has none yet).
make --no-print-directory -s vivt-emu > /dev/null 2>&1
emu_help=$(build/vivt-emu/vivt-emu --help 2>&1)
for mk in board/*/board.mk; do
	b=$(basename "$(dirname "$mk")")
	log=build/check/board-$b.log
	# A board QEMU runs has its default build made by check-target in this
	# lane already (tests/phases.txt): its folder is reused. The others get
	# one of their own (check-vivt-at91sam9g20-ek, in the other lane, owns theirs).
	o=build/$b
	grep -q '^BOARD_QEMU' "$mk" && o=$(build_dir "$b")
	if make --no-print-directory BOARD="$b" O="$o" all shell-image > "$log" 2>&1; then
		tap_result ok "board $b builds, demo and shell images (make BOARD=$b O=$o all shell-image)"
	else
		tap_result "not ok" "board $b builds, demo and shell images (make BOARD=$b O=$o all shell-image)" \
			"$(grep -m1 -E 'error|Error' "$log")" "see $log"
		continue
	fi

	# The example application, added as docs/user-guide.md's "Your own application"
	# says and run by that command: on QEMU where the board has it (under
	# -icount, so its time-outs do not depend on the host's load), and on
	# the emulator with its cache oracle, which checks the DMA path too.
	runners=
	grep -q '^BOARD_QEMU' "$mk" && runners=run
	grep -q -- "--machine NAME .*[( ]$b[,)]" <<< "$emu_help" && runners="$runners run-vivt"
	for how in $runners; do
		log=build/check/board-$b-pipeline-$how.log
		QEMU_ICOUNT=1 make --no-print-directory BOARD="$b" O="$o" APP=pipeline "$how" > "$log" 2>&1
		rc=$?
		if [ "$rc" = 0 ] && tr -d '\r' < "$log" |
		   grep -Eq '^pipeline: 64 blocks produced, 64 consumed, 64 copied by .*, 0 bad, 0 errors$' &&
		   grep -q "^pipeline: the consumer's last wait: timed out, as it should" "$log"; then
			tap_result ok "board $b: the example app (make BOARD=$b APP=pipeline $how): $(grep -o 'copied by [^,]*' "$log")"
		else
			tap_result "not ok" "board $b: the example app (make BOARD=$b APP=pipeline $how)" \
				"status $rc: $(grep -m1 '^pipeline:' "$log")" "see $log"
		fi
	done

	[ -e "board/$b/nor-boot.S" ] || continue
	log=build/check/board-$b-nor.log
	if ! make --no-print-directory BOARD="$b" O="$o" nor-image > "$log" 2>&1; then
		tap_result "not ok" "board $b: NOR image (boot stub + image) builds" "see $log"
		continue
	fi
	tap_result ok "board $b: NOR image (boot stub + image) builds"

	# Under QEMU where the board has a model: the flash part at the base board.h gives.
	[ -n "$(board_var "$b" BOARD_QEMU)" ] || continue
	flash=$(sed -n 's/^#define BOARD_FLASH_BASE[[:space:]]*\(0x[0-9a-fA-F]*\)u*.*/\1/p' "board/$b/board.h")
	[ -n "$flash" ] || { tap_result "not ok" "board $b: a NOR boot stub but no BOARD_FLASH_BASE in board/$b/board.h"; continue; }
	# QEMU wants the whole 64 MiB part; start the CPU at the NOR base.
	img=build/check/nor-$b.img
	cp "$o/nor.bin" "$img" && truncate -s 64M "$img"
	# What the stub must deliver is the banner and the shell's prompt (the
	# image runs from RAM). The UART drops input sent before it is up, so
	# 'exit' is repeated until the shell takes it and QEMU ends, however
	# long a loaded host takes to get there (QEMU_TIMEOUT bounds it).
	{ while sleep 0.5; do printf 'exit\r' || break; done; } 2>/dev/null |
	BOARD=$b RAM_MB=$(image_config "$o/lokal.elf" RAM_MB) QEMU_TIMEOUT=120 tools/qemu-run.sh "$img" -device loader,addr="$flash",cpu-num=0 \
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
