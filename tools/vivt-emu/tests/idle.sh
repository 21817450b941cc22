#!/usr/bin/env bash
# vivt-emu's WFI with a console input that is open and silent (a terminal,
# a pipe from a program that has not written yet): waiting for input is
# not a halt, and a real halt is still found.  The input is a pipe whose
# writer stays open or a pseudo-terminal (held-input.py), never /dev/null,
# whose end of file would hide the difference.  The guest programs are
# tests/guest/wfi-wait.S.  TAP on stdout (tests/lib/tap.sh).
#   tests/idle.sh EMULATOR SHELL.elf APP.elf WORKDIR
# APP.elf: an application that idles in WFI between its time-outs and ends
# with a semihosting exit (the pipeline example: 0.2 s emulated, mostly
# idle, so the input poll wakes the idle loop some 2,000 times).
set -uo pipefail
emu=$1 shell=$2 app=$3 dir=$4
here=$(dirname "$0")
held=$here/held-input.py
mkdir -p "$dir"
. "$here/../../../tests/lib/tap.sh"
tap_open

cc=${CROSS:-arm-none-eabi-}gcc
for w in 1 2 3; do
	"$cc" -g -mcpu=arm926ej-s -marm -nostdlib -nostartfiles -Wl,-Ttext=0x10000 -Wl,--no-warn-rwx-segments \
		-DWAIT=$w -o "$dir/wfi-wait-$w.elf" "$here/guest/wfi-wait.S" 2> "$dir/wfi-wait-$w.build" ||
		tap_result "not ok" "vivt idle: tests/guest/wfi-wait.S (WAIT=$w) does not build" "see $dir/wfi-wait-$w.build"
done

# The application from a terminal and with a pipe held open: it must run
# to its own end and exit 0 (an emulator that takes the input poll's
# wake-ups for the halt loop stops it in its first idle wait: "the firmware
# halted").  No model: the model is not what is tested.
name=$(basename "$app" .elf)
for how in pty pipe; do
	python3 "$held" $how 300 "$dir/app-$how.out" -- "$emu" --no-model "$app" > "$dir/app-$how.rc"
	read -r rc secs < "$dir/app-$how.rc"
	log=$dir/app-$how.out
	[ "$how" = pipe ] && log="$log $dir/app-pipe.out.err"
	# shellcheck disable=SC2086
	[ "$rc" = 0 ] && grep -aq "main: exit status 0" $log && grep -aq "exit 0, .* instructions in" $log &&
		! grep -aq "halted" $log
	tap_check $? "vivt idle: $name with its input held open ($how) runs to its end and exits 0 ($secs s)" \
		"status $rc after $secs s; see $log"
done

# The shell idles at its prompt with the tick running: still running when
# --max-insns (emulated time) ends it, not "halted".
python3 "$held" pipe 60 "$dir/shell.out" -- "$emu" --no-model --max-insns 3000000000 "$shell" > "$dir/shell.rc"
read -r rc secs < "$dir/shell.rc"
[ "$rc" = 1 ] && grep -q "lokal> " "$dir/shell.out" &&
	grep -q "error: no exit after 3000000[0-9]* ns of emulated time" "$dir/shell.out.err"
tap_check $? "vivt idle: the shell waits at its prompt for input held open until --max-insns ends the run" \
	"status $rc; see $dir/shell.out.err"

# WFI with IRQs masked and only the UART's receive interrupt able to end
# it: the byte written after 2 s wakes it, and it exits with that byte
# ('A', 65); emulated time keeps pace with the wait.
for how in pipe pty; do
	text=A
	[ "$how" = pty ] && text=$'A\n'	# the terminal passes a line on at its end
	python3 "$held" "$how" 30 "$dir/input-$how.out" --after 2 "$text" -- "$emu" "$dir/wfi-wait-3.elf" \
		> "$dir/input-$how.rc"
	read -r rc secs < "$dir/input-$how.rc"
	err=$dir/input-$how.out
	[ "$how" = pipe ] && err=$dir/input-pipe.out.err
	[ "$rc" = 65 ] && awk -v s="$secs" 'BEGIN { exit !(s >= 2) }' &&
		grep -aqE "exit 65, .* (1\.9[0-9]*|[2-9]\.[0-9]*) s emulated" "$err"
	tap_check $? "vivt idle: WFI with IRQs masked waits for the input that can wake it ($how): exit 65 after $secs s" \
		"status $rc after $secs s; see $err"
done

# True halts with the input held open: the halt loop with a periodic timer
# interrupt pending and never taken, and the loop with nothing enabled.
# Without --board: an error; with it: the quiet halt, status 0.
bad=""
for w in 1 2; do
	for mode in "" --board; do
		python3 "$held" pipe 30 "$dir/halt-$w$mode.out" -- "$emu" $mode "$dir/wfi-wait-$w.elf" > "$dir/halt.rc"
		read -r rc secs < "$dir/halt.rc"
		err=$dir/halt-$w$mode.out.err
		if [ -z "$mode" ]; then
			[ "$rc" = 1 ] && grep -q "error: the firmware halted (WFI with interrupts off at 0x[0-9a-f]* halt+0x0) without a semihosting exit" "$err"
		else
			[ "$rc" = 0 ] && grep -q "the firmware halted quietly (WFI with interrupts off at 0x[0-9a-f]* halt+0x0)" "$err"
		fi || bad="$bad [WAIT=$w ${mode:-no --board}: status $rc after $secs s, $(head -c 160 "$err")]"
	done
done
[ -z "$bad" ]
tap_check $? "vivt idle: a halt loop (timer IRQ pending, or nothing enabled) is still a halt with the input held open" \
	"wrong for:$bad"
tap_close
