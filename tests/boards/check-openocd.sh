#!/usr/bin/env bash
# `make check-openocd`: the OpenOCD side of the real-board flow, without
# hardware. OpenOCD runs with its `dummy` adapter driver (a JTAG adapter
# with nothing on the chain), so these prove the configs parse, the
# procedures do what a session needs, a broken config is caught, and a
# missing board is reported clearly. They cannot prove a real board answers.
#   tests/boards/check-openocd.sh TAP_FILE
set -uo pipefail
tap=$1
out=build/check/openocd
mkdir -p "$out"
: > "$tap"   # a re-run must not leave lines of the previous one behind
. tests/lib/tap.sh
tap_open "$tap"
quiet='gdb_port disabled; telnet_port disabled; tcl_port disabled'
dummy='set ADAPTER interface/dummy.cfg'

# openocd_run LOG ARGS...: OpenOCD with a time limit, all output in LOG.
openocd_run() {
	local log=$1; shift
	timeout -k 5 60 openocd "$@" > "$log" 2>&1
}

# 1. The config parses with the dummy adapter and defines its procedures.
if openocd_run "$out/parse.log" -c "$dummy" -f openocd.cfg -c "$quiet" \
	-c 'echo "procs: [lsort [info procs lokal_*]]"; shutdown' &&
   grep -q 'procs: lokal_debug lokal_expect_board lokal_flash lokal_flash_vpp lokal_load lokal_read32 lokal_reset_init' "$out/parse.log"; then
	tap_result ok "openocd.cfg parses (dummy adapter) and defines the lokal_* procedures"
else
	tap_result "not ok" "openocd.cfg parses (dummy adapter) and defines the lokal_* procedures" "see $out/parse.log"
fi

# 2. With no ADAPTER set the FT2232H default is chosen (not opened: no init).
if openocd_run "$out/default-adapter.log" -f openocd.cfg -c "$quiet" \
	-c 'echo "adapter=[adapter name]"; shutdown' &&
   grep -q 'adapter=ftdi' "$out/default-adapter.log"; then
	tap_result ok "default adapter is the FT2232H (ftdi) one; ADAPTER overrides it"
else
	tap_result "not ok" "default adapter is the FT2232H (ftdi) one; ADAPTER overrides it" "see $out/default-adapter.log"
fi

# 3..: every procedure run against stubbed board commands.
selftest() {   # selftest CONFIG LOG
	openocd_run "$2" -c "$dummy" -f "$1" -c "$quiet" \
		-f tools/openocd-selftest.tcl -c shutdown
}
selftest openocd.cfg "$out/selftest.log"
cases=$(grep -cE '^(PASS|FAIL) ' "$out/selftest.log")
while IFS= read -r line; do
	case $line in
	PASS\ *) tap_result ok "${line#PASS }" ;;
	FAIL\ *) name=${line#FAIL }; tap_result "not ok" "${name%%: *}" "${name#*: }" ;;
	esac
done < <(grep -E '^(PASS|FAIL) ' "$out/selftest.log")
[ "$cases" -ge 5 ] || tap_result "not ok" "procedure self-test ran all its cases" "only $cases; see $out/selftest.log"

# Mutants: each broken copy of openocd.cfg must make parse + self-test fail.
mutant() {   # mutant NAME SED-EXPRESSION
	local slug=${1// /-}
	local cfg=$out/mutant-$slug.cfg
	sed -e "$2" openocd.cfg > "$cfg"
	if cmp -s openocd.cfg "$cfg"; then
		tap_result "not ok" "mutant '$1' is caught" "the mutation did not change openocd.cfg"
		return
	fi
	if selftest "$cfg" "$out/mutant-$slug.log" && ! grep -q '^FAIL ' "$out/mutant-$slug.log"; then
		tap_result "not ok" "mutant '$1' is caught" "a broken config passed; see $out/mutant-$slug.log"
	else
		tap_result ok "mutant '$1' is caught"
	fi
}
mutant "unbalanced brace" '0,/^proc lokal_flash_vpp {on} {$/s//proc lokal_flash_vpp {on} {{/'
mutant "misspelled command" 's/^\treset init$/\treset_init/'
mutant "wrong NOR base" 's/^set LOKAL_NOR_BASE 0x34000000$/set LOKAL_NOR_BASE 0x30000000/'
mutant "Vpp left on" 's/^\tlokal_flash_vpp 0$//'

# No board on the chain: make load / flash / debug-board fail, and say why.
# A stand-in ELF and NOR image (never remade: -o) keep this independent of
# whether the firmware builds right now; the board is gone before they matter.
printf '.global _start\n_start: b _start\n' > "$out/tiny.S"
arm-none-eabi-gcc -nostdlib -Wl,-Ttext=0x10000 -o "$out/tiny.elf" "$out/tiny.S" &&
	arm-none-eabi-objcopy -O binary "$out/tiny.elf" "$out/tiny.bin"
for t in load flash debug-board; do
	log=$out/no-board-$t.log
	timeout -k 5 120 make --no-print-directory $t ADAPTER=interface/dummy.cfg \
		BOARD_ELF="$out/tiny.elf" NOR_BIN="$out/tiny.bin" \
		-o "$out/tiny.elf" -o "$out/tiny.bin" \
		GDB_PORT=disabled > "$log" 2>&1 < /dev/null
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
	   grep -q 'no ARM926EJ-S answers on JTAG' "$log" &&
	   grep -q "make $t: FAILED: OpenOCD could not reach or drive the board" "$log"; then
		tap_result ok "make $t with no board answering fails with a clear message"
	else
		tap_result "not ok" "make $t with no board answering fails with a clear message" "exit $rc; see $log"
	fi
done

# Other boards' OpenOCD configs (board/<b>/openocd.cfg) parse too.
for cfg in board/*/openocd.cfg; do
	[ -e "$cfg" ] || continue
	b=$(basename "$(dirname "$cfg")")
	if openocd_run "$out/parse-$b.log" -c "$dummy" -f "$cfg" -c "$quiet" \
		-c 'echo "procs: [lsort [info procs lokal_*]]"; shutdown' &&
	   grep -q 'procs: .*lokal_debug.*lokal_load' "$out/parse-$b.log"; then
		tap_result ok "$cfg parses (dummy adapter) and defines lokal_load, lokal_debug"
	else
		tap_result "not ok" "$cfg parses (dummy adapter) and defines lokal_load, lokal_debug" "see $out/parse-$b.log"
	fi
done
# The same refusal for `make load` on each board with a config of its own
# (a stand-in ELF at the board's load address, never remade).
for cfg in board/*/openocd.cfg; do
	[ -e "$cfg" ] || continue
	b=$(basename "$(dirname "$cfg")")
	addr=$(sed -n 's/^#define BOARD_LOAD_ADDR *\(0x[0-9a-fA-F]*\).*/\1/p' "board/$b/board.h")
	arm-none-eabi-gcc -nostdlib -Wl,-Ttext="${addr:-0x10000}" -o "$out/tiny-$b.elf" "$out/tiny.S"
	log=$out/no-board-load-$b.log
	timeout -k 5 120 make --no-print-directory load BOARD="$b" ADAPTER=interface/dummy.cfg \
		BOARD_ELF="$out/tiny-$b.elf" -o "$out/tiny-$b.elf" GDB_PORT=disabled > "$log" 2>&1 < /dev/null
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'no ARM926EJ-S answers on JTAG' "$log" &&
	   grep -q "make load: FAILED: OpenOCD could not reach or drive the board" "$log"; then
		tap_result ok "make BOARD=$b load with no board answering fails with a clear message"
	else
		tap_result "not ok" "make BOARD=$b load with no board answering fails with a clear message" "exit $rc; see $log"
	fi
done

# A board's own procedure self-test (board/<b>/openocd-selftest.tcl), when it has one.
for t in board/*/openocd-selftest.tcl; do
	[ -e "$t" ] || continue
	b=$(basename "$(dirname "$t")")
	openocd_run "$out/selftest-$b.log" -c "$dummy" -f "board/$b/openocd.cfg" -c "$quiet" -f "$t" -c shutdown
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		PASS\ *) tap_result ok "${line#PASS }" ;;
		FAIL\ *) name=${line#FAIL }; tap_result "not ok" "${name%%: *}" "${name#*: }" ;;
		esac
	done < <(grep -E '^(PASS|FAIL) ' "$out/selftest-$b.log")
	[ "$n" -gt 0 ] || tap_result "not ok" "$t ran its cases" "none; see $out/selftest-$b.log"
done
# Any failing case fails the phase.
tap_close
