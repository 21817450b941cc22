#!/usr/bin/env bash
# `make boards`: each board folder and where its images run: QEMU (a
# BOARD_QEMU line in its board.mk), vivt-emu (a machine of that name in
# tools/vivt-emu), the hardware flow (make load always; make flash when the
# board has a NOR boot stub), read from the tree so it cannot go stale.
set -euo pipefail
. "$(dirname "$0")/lib/board.sh"
printf '%-16s %-40s %-38s %s\n' board QEMU "emulator (make vivt-emu)" "hardware (docs/board-flow.md)"
for mk in board/*/board.mk; do
	b=$(basename "$(dirname "$mk")")
	if board_has_qemu "$b"; then
		qemu="make BOARD=$b run, shell"
	else
		qemu="none (run-vivt instead)"
	fi
	if board_has_emulator "$b"; then
		emu="make BOARD=$b run-vivt"
	else
		emu="none"
	fi
	hw="make BOARD=$b load, debug-board"
	[ -e "board/$b/nor-boot.S" ] && hw="$hw, flash"
	printf '%-16s %-40s %-38s %s\n' "$b" "$qemu" "$emu" "$hw"
done
