#!/usr/bin/env bash
# The idle loop's wait for interrupt follows the ARM926 sequence: in the
# compiled idle loop (sched_start), every WFI
# (mcr p15, c7, c0, 4) is preceded by a write-buffer drain (c7, c10, 4) and
# an I-cache-off control register write (c1, c0, 0), and followed by the
# control register write that turns it back on.
#   tests/target/check-idle-sequence.sh TAP_OUT IMAGE.elf
set -uo pipefail
. "$(dirname "$0")/disasm-check.sh"
disasm_args tests/target/check-idle-sequence.sh "$@"
tap=$1 elf=$2
body=$(disasm_body "$elf" sched_start)
verdict=$(awk '
	/mcr.*cr7, cr10, \{4\}/ { drain = NR }
	/mcr.*cr1, cr0, \{0\}/  { if (wfi) { restored = 1 } else { icoff = NR } }
	/mcr.*cr7, cr0, \{4\}/  { wfi = NR }
	END {
		if (!wfi) print "no wait for interrupt in sched_start";
		else if (!drain || drain > wfi) print "no write-buffer drain before the wait";
		else if (!icoff || icoff < drain) print "the I-cache is not turned off after the drain";
		else if (!restored) print "the control register is not restored after the wait";
		else print "ok";
	}' <<< "$body")
disasm_verdict "$tap" "idle sequence (ARM926 wait for interrupt)" "$verdict" \
	"drain, I-cache off, wait, I-cache back"
