#!/usr/bin/env bash
# The interrupts-off measurement tested on tests/target/test_irqsoff_calib.c,
# whose windows have a known length (some above the bound): the emulator
# must report exactly the length the image expects for the window opened in
# each of its functions (read from the run's stats file, vivt-emu
# --stats-file), and irqsoff-summary.py must fail the run for its windows
# above BOUND.  The same for its preemption-off window and PBOUND.  TAP on
# stdout (tests/lib/tap.sh).
#   tests/irqsoff-calib.sh EMULATOR IMAGE.elf WORKDIR BOUND PBOUND [emulator options]
# (CALIB_LABEL names the runner in the result lines; default vivt.)
set -uo pipefail
emu=$1 elf=$2 dir=$3 bound=$4 pbound=$5
shift 5
mkdir -p "$dir"
. "$(dirname "$0")/../../../tests/lib/tap.sh"
tap_open
log=$dir/irqsoff-calib.log
stats=$dir/irqsoff-calib.stats
what="${CALIB_LABEL:-vivt} IRQs-off calibration"

rm -f "$stats"
tap_timeout 60 "$emu" "$@" --input /dev/null --stats-file "$stats" "$elf" > "$log" 2>&1
rc=$?
tap_check $rc "$what: the calibration image runs (exit $rc, log $log)"
expected=0 exact=0 wrong=""
while read -r fn want; do
	expected=$((expected + 1))
	# The thread window opened in $fn: irqsoff.thread<...>.opened=$fn+0x...
	key=$(sed -n "s/^\(irqsoff\.thread[a-z0-9.]*\)\.opened=$fn+0x[0-9a-f]* .*/\1/p" "$stats" 2>/dev/null | head -1)
	got=$([ -n "$key" ] && sed -n "s/^$key\.insns=//p" "$stats")
	if [ "$got" = "$want" ]; then exact=$((exact + 1)); else wrong="$wrong $fn: expected $want, measured ${got:-nothing};"; fi
done < <(sed -n 's/^irqsoff-calib: irqs_off_for in \([a-z_]*\) expects \([0-9]*\) instructions.*/\1 \2/p' "$log" | tr -d '\r')
[ "$expected" -ge 4 ] && [ "$exact" = "$expected" ]
tap_check $? "$what: $exact of $expected windows measured to the instruction" "$wrong"
# The preemption-off window: the application's longest (the image has one).
want=$(sed -n 's/^irqsoff-calib: preempt_off_for in calib_preempt_off expects \([0-9]*\) instructions.*/\1/p' "$log" | tr -d '\r')
got=$(sed -n 's/^irqsoff\.preempt\.app\.insns=//p' "$stats" 2>/dev/null)
opened=$(sed -n 's/^irqsoff\.preempt\.app\.opened=//p' "$stats" 2>/dev/null)
[ -n "$want" ] && [ "$got" = "$want" ] && [ "${opened#calib_preempt_off+}" != "$opened" ]
tap_check $? "$what: the preemption-off window measured to the instruction (expected ${want:-nothing}, measured ${got:-nothing} opened at ${opened:-nowhere})"
# A handler window's split: calib_irq's own instructions and calib_clear's
# (which the thread window opened in calib_clear_window measures, less its
# fixed part), none of them the kernel's, which is the rest of the window.
read -r line hown fixed < <(tr -d '\r' < "$log" | sed -n "s/^irqsoff-calib: handler calib_irq on line \([0-9]*\) expects \([0-9]*\) instructions of its own and calib_clear_window's window less \([0-9]*\)$/\1 \2 \3/p")
key=$(sed -n "s/^\(irqsoff\.thread[a-z0-9.]*\)\.opened=calib_clear_window+0x[0-9a-f]* .*/\1/p" "$stats" 2>/dev/null | head -1)
clear=$([ -n "$key" ] && sed -n "s/^$key\.insns=//p" "$stats")
hkey="irqsoff.handler_kernel.line${line:-none}"
own=$(sed -n "s/^$hkey\.own=//p" "$stats" 2>/dev/null)
kernel=$(sed -n "s/^$hkey\.insns=//p" "$stats" 2>/dev/null)
window=$(sed -n "s/^$hkey\.window=//p" "$stats" 2>/dev/null)
want=$([ -n "$hown" ] && [ -n "$clear" ] && echo $((hown + clear - fixed)))
[ -n "$want" ] && [ "$own" = "$want" ] && [ -n "$kernel" ] && [ $((kernel + own)) = "$window" ] && [ "$kernel" -lt "$bound" ]
tap_check $? "$what: a handler's own part measured to the instruction, a tail call and the arch code it calls included (expected ${want:-nothing}, measured ${own:-nothing}; the kernel's part ${kernel:-nothing} of ${window:-no} window)"
# The report counts in words that agree with the number.
grep -q '^vivt-emu: preempt-off max, opened by an application: .*; 1 window$' "$log" &&
	! grep -q '; 1 windows\|; 1 entries' "$log"
tap_check $? "$what: the report says 1 window, not 1 windows"
rm -f "$dir/irqsoff-calib-over.txt"
"$(dirname "$0")/../scripts/irqsoff-summary.py" calib "$bound" --stats "$stats" --preempt-bound "$pbound" \
	--preempt-who app --over "$dir/irqsoff-calib-over.txt" > "$dir/irqsoff-calib-bound.txt"
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c . "$dir/irqsoff-calib-over.txt" 2>/dev/null)" = 2 ] &&
	grep -q "^preempt-off, opened by an application window above $pbound " "$dir/irqsoff-calib-over.txt"
tap_check $? "$what: a window above $bound instructions IRQs-off, and one above $pbound preemption-off, fail the bound check (exit $rc)"
tap_close
