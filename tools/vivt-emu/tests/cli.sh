#!/usr/bin/env bash
# vivt-emu's command line and run control, on the shell image (which never
# ends by itself) and the demo: a D-cache size no ARM926EJ-S has is
# refused; so is an image built for more RAM than --ram gives; an ELF cut after its loadable segments runs with a warning that
# it has no symbols; a signal (even repeated) ends the run with the console
# and summary written; a number option's bad value is refused saying what
# is wrong; --insn-limit stops a run at exactly that count and says so; a
# run shows progress on a terminal. Every run is bounded by timeout, so an emulator that ignores
# an option cannot hang the check. TAP on stdout (tests/lib/tap.sh).
#   tests/cli.sh EMULATOR SHELL.elf DEMO.elf WORKDIR
set -uo pipefail
emu=$1 shell=$2 demo=$3 dir=$4
mkdir -p "$dir"
. "$(dirname "$0")/../../../tests/lib/tap.sh"
tap_open

bad=""
for kb in 0 1 2 3 6 256 1024; do
	tap_timeout 20 "$emu" --dcache-kb "$kb" --input /dev/null "$shell" > "$dir/dc-$kb.out" 2> "$dir/dc-$kb.err"
	rc=$?
	{ [ "$rc" = 1 ] && [ "$(wc -l < "$dir/dc-$kb.err")" = 1 ] &&
	  grep -q "^vivt-emu: --dcache-kb $kb: an ARM926EJ-S D-cache is 4, 8, 16, 32, 64 or 128 KiB$" "$dir/dc-$kb.err" &&
	  [ ! -s "$dir/dc-$kb.out" ]; } || bad="$bad $kb"
done
[ -z "$bad" ]
tap_check $? "vivt cli: --dcache-kb outside 4..128 KiB or not a power of two is refused before the run" "wrong for:$bad (see $dir/dc-*.err)"

# --sweep's bad input is refused before the image runs, with one line naming it.
bad=""
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	tap_timeout 20 "$emu" --input /dev/null $args "$demo" > "$dir/sweep.out" 2> "$dir/sweep.err"
	rc=$?
	{ [ "$rc" = 1 ] && [ "$(wc -l < "$dir/sweep.err")" = 1 ] && grep -qE "^vivt-emu: $want" "$dir/sweep.err" &&
	  [ ! -s "$dir/sweep.out" ]; } || bad="$bad [$args: status $rc, $(head -c 150 "$dir/sweep.err")]"
done <<'CASES'
--sweep no_such_function|--sweep no_such_function: no function of that name in
--sweep 0x2000-0x1000|--sweep 0x2000-0x1000: the range is empty \(END must be above START\)
--sweep 0x1000-0x1000|--sweep 0x1000-0x1000: the range is empty
--sweep up --sweep-max 0|--sweep-max needs a number from 1 to 1000000, not '0'
--sweep up --sweep-max abc|--sweep-max needs a number from 1 to 1000000, not 'abc'
--sweep up --sweep-jobs x2|--sweep-jobs needs a number from 1 to 64, not 'x2'
--sweep-max 3|--sweep-arrival, --sweep-max, --sweep-jobs and --sweep-dir need --sweep
CASES
[ -z "$bad" ]
tap_check $? "vivt cli: --sweep's bad input (unknown function, empty range, counts out of range or not numbers, options without --sweep) is refused before the run" "wrong for:$bad"

# An image built for more RAM than the machine is given is refused before
# it runs (it would read the missing part back as other data, silently).
tap_timeout 20 "$emu" --input /dev/null --ram 64 "$demo" > "$dir/ram.out" 2> "$dir/ram.err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l < "$dir/ram.err")" = 1 ] && [ ! -s "$dir/ram.out" ] &&
	grep -q "^vivt-emu: error: $demo was built for 128 MiB of RAM (RAM_MB), but the machine has 64 MiB: run it with --ram 128$" "$dir/ram.err"
tap_check $? "vivt cli: a 128 MiB image on --ram 64 is refused before the run, naming the --ram it needs" "status $rc: $(head -c 200 "$dir/ram.err")"

# Cut right after the last loadable segment's bytes: the code and data are
# whole, the section headers and the symbol table are gone.
end=0
while read -r off filesz; do
	[ $((off + filesz)) -gt "$end" ] && end=$((off + filesz))
done < <(readelf -lW "$demo" | awk '$1 == "LOAD" { print $2, $5 }')
head -c "$end" "$demo" > "$dir/cut.elf"
tap_timeout 60 "$emu" --no-model --input /dev/null --insn-limit 20000000 "$dir/cut.elf" > "$dir/cut.out" 2> "$dir/cut.err"
grep -q "^vivt-emu: warning: $dir/cut.elf has no symbol table (truncated or stripped?)" "$dir/cut.err" &&
	! grep -q "no symbol table" "$dir/dc-4.err" 2>/dev/null
tap_check $? "vivt cli: an ELF without its symbol table ($end of $(stat -c %s "$demo") bytes) runs with a warning" "see $dir/cut.err"

# The shell image idles forever: TERM (as timeout sends it) must still leave
# the console and the run's summary in the files.
# TERM comes once the prompt is out (at most 60 s: a loaded machine boots slowly),
# so the check does not depend on how fast the host is.
"$emu" --input /dev/null --insn-limit 0 "$shell" > "$dir/term.out" 2> "$dir/term.err" &
pid=$!
for _ in $(seq 600); do grep -q "lokal> " "$dir/term.out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
rc=$?
grep -q "lokal> " "$dir/term.out" && grep -q "interrupted by signal 15 (SIGTERM)" "$dir/term.err" &&
	grep -q "exit 143, .* instructions in" "$dir/term.err" && [ "$rc" = 143 ]
tap_check $? "vivt cli: SIGTERM ends the run in order: console and summary written, status 143" "status $rc; see $dir/term.*"

# timeout(1) sends TERM to the emulator and again to its process group, a
# person presses Ctrl-C more than once: every repeat within seconds is the
# same request, and the summary is still written.
bad=""
for sig in TERM INT; do
	"$emu" --input /dev/null --insn-limit 0 "$shell" > "$dir/twice-$sig.out" 2> "$dir/twice-$sig.err" &
	pid=$!
	for _ in $(seq 600); do grep -q "lokal> " "$dir/twice-$sig.out" 2>/dev/null && break; sleep 0.1; done
	kill -"$sig" "$pid"; sleep 0.01; kill -"$sig" "$pid" 2>/dev/null; sleep 0.03; kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	num=$(kill -l "$sig")
	{ [ "$rc" = $((128 + num)) ] && grep -q "interrupted by signal $num " "$dir/twice-$sig.err" &&
	  grep -q "exit $rc, .* instructions in" "$dir/twice-$sig.err"; } || bad="$bad $sig (status $rc)"
done
[ -z "$bad" ]
tap_check $? "vivt cli: TERM or INT three times in a row still ends the run in order, with its summary" \
	"wrong for:$bad; see $dir/twice-*.err"

# A number option's bad value: one line that says what is wrong with it
# (out of range, with the range; not a number; not whole) and status 1.
bad=""
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	tap_timeout 20 "$emu" --input /dev/null $args "$shell" > "$dir/num.out" 2> "$dir/num.err"
	rc=$?
	{ [ "$rc" = 1 ] && [ "$(wc -l < "$dir/num.err")" = 1 ] && grep -qE "^vivt-emu: $want\$" "$dir/num.err" &&
	  [ ! -s "$dir/num.out" ]; } || bad="$bad [$args: status $rc, $(head -c 150 "$dir/num.err")]"
done <<'CASES'
--jitter 2e9|--jitter 2e9 is out of range: 0 to 1000000000 ns
--jitter 1000000001|--jitter 1000000001 is out of range: 0 to 1000000000 ns
--jitter 1.5|--jitter 1.5 is not a whole number: 0 to 1000000000 ns
--jitter abc|--jitter 'abc' is not a number: 0 to 1000000000 ns
--ram 99999999999|--ram 99999999999 is out of range: 1 to 256 MiB \(versatilepb\)
--ram 0|--ram 0 is out of range: 1 to 256 MiB \(versatilepb\)
--ram 12x|--ram '12x' is not a number: 1 to 256 MiB \(versatilepb\)
--seed 99999999999999999999999|--seed 99999999999999999999999 is out of range: 0 to 4294967295
--seed 4294967296|--seed 4294967296 is out of range: 0 to 4294967295
--seed -1|--seed -1 is out of range: 0 to 4294967295
--max-reports 5e9|--max-reports 5e9 is out of range: 0 to 4294967295
--insn-limit 18446744073709551616|--insn-limit 18446744073709551616 is out of range: 0 to 18446744073709551615 instructions \(0: no limit\)
--max-insns 1e20|--max-insns 1e20 is out of range: 0 to 18446744073709551615 ns \(0: no limit\)
--dcache-kb x|--dcache-kb x is not a number: an ARM926EJ-S D-cache is 4, 8, 16, 32, 64 or 128 KiB
--dcache-kb 99999999999|--dcache-kb 99999999999: an ARM926EJ-S D-cache is 4, 8, 16, 32, 64 or 128 KiB
CASES
[ -z "$bad" ]
tap_check $? "vivt cli: a number out of range, not a number or not whole is refused saying which (and the range)" "wrong for:$bad"

# Written with an exponent, a whole number is taken: the run starts.
tap_timeout 60 "$emu" --input /dev/null --jitter 1e9 --seed 2.5e3 --insn-limit 1e6 --stats-file "$dir/exp.stats" \
	"$shell" > "$dir/exp.out" 2> "$dir/exp.err"
rc=$?
[ "$rc" = 1 ] && grep -q "stopped at --insn-limit of 1000000 instructions" "$dir/exp.err" &&
	grep -qx "insns=1000000" "$dir/exp.stats"
tap_check $? "vivt cli: --jitter 1e9, --seed 2.5e3 and --insn-limit 1e6 are whole numbers, taken" "status $rc; see $dir/exp.err"

# --insn-limit is exact: the run stops after N instructions, not at the next
# check of a coarser period (1048577 for 1000 once).
bad=""
for lim in 1 1000 1048575 1048577 3000001; do
	for model in "" --no-model; do
		# shellcheck disable=SC2086
		tap_timeout 60 "$emu" $model --input /dev/null --insn-limit "$lim" --stats-file "$dir/lim.stats" \
			"$shell" > /dev/null 2> "$dir/lim.err"
		rc=$?
		{ [ "$rc" = 1 ] && grep -qx "insns=$lim" "$dir/lim.stats" &&
		  grep -q "stopped at --insn-limit of $lim instructions" "$dir/lim.err" &&
		  grep -q "exit 1, $lim instructions in" "$dir/lim.err"; } ||
			bad="$bad [$lim$model: status $rc, $(grep "^insns=" "$dir/lim.stats" 2>/dev/null)]"
		rm -f "$dir/lim.stats"
	done
done
[ -z "$bad" ]
tap_check $? "vivt cli: --insn-limit N stops after exactly N instructions (stats file and summary)" "wrong for:$bad"

tap_timeout 60 "$emu" --no-model --input /dev/null --insn-limit 20000000 "$shell" > "$dir/limit.out" 2> "$dir/limit.err"
rc=$?
[ "$rc" = 1 ] && grep -q "error: stopped at --insn-limit of 20000000 instructions (.* s emulated, pc 0x[0-9a-f]*): --insn-limit N raises it, 0 for none" "$dir/limit.err"
tap_check $? "vivt cli: --insn-limit stops a run that never ends and says so" "status $rc; see $dir/limit.err"
"$emu" --help | grep -c -- "--insn-limit N .*(default" > /dev/null && "$emu" --help | grep -c "20000000000; 0: no limit" > /dev/null
tap_check $? "vivt cli: --help gives the default instruction limit"

# stderr on a terminal (script's pty), stdout to a file: progress lines.
script -qec "timeout 60 '$emu' --no-model --input /dev/null --insn-limit 500000000 '$demo' > '$dir/prog.out'" \
	"$dir/prog.tty" > /dev/null 2>&1
grep -aq "vivt-emu: [0-9]* s: [0-9.]* s emulated, [0-9]* M instructions" "$dir/prog.tty" &&
	! grep -aq "M instructions" "$dir/prog.out"
tap_check $? "vivt cli: progress on a terminal while the console goes to a file" "see $dir/prog.tty"
tap_close
