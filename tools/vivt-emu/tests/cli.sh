#!/usr/bin/env bash
# vivt-emu's command line and run control, on the shell image (which never
# ends by itself) and the demo: a D-cache size no ARM926EJ-S has is
# refused; an ELF cut after its loadable segments runs with a warning that
# it has no symbols; a signal ends the run with the console and summary
# written; --insn-limit stops a run and says so; a run shows progress on a
# terminal. Every run is bounded by timeout, so an emulator that ignores
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

tap_timeout 60 "$emu" --no-model --input /dev/null --insn-limit 20000000 "$shell" > "$dir/limit.out" 2> "$dir/limit.err"
rc=$?
[ "$rc" = 1 ] && grep -q "error: stopped at --insn-limit of 20000000 instructions (.* s emulated, pc 0x[0-9a-f]*): --insn-limit N raises it, 0 for none" "$dir/limit.err"
tap_check $? "vivt cli: --insn-limit stops a run that never ends and says so" "status $rc; see $dir/limit.err"
"$emu" --help | grep -q -- "--insn-limit N .*(default" && "$emu" --help | grep -q "20000000000; 0: no limit"
tap_check $? "vivt cli: --help gives the default instruction limit"

# stderr on a terminal (script's pty), stdout to a file: progress lines.
script -qec "timeout 60 '$emu' --no-model --input /dev/null --insn-limit 500000000 '$demo' > '$dir/prog.out'" \
	"$dir/prog.tty" > /dev/null 2>&1
grep -aq "vivt-emu: [0-9]* s: [0-9.]* s emulated, [0-9]* M instructions" "$dir/prog.tty" &&
	! grep -aq "M instructions" "$dir/prog.out"
tap_check $? "vivt cli: progress on a terminal while the console goes to a file" "see $dir/prog.tty"
tap_close
