#!/usr/bin/env bash
# A QEMU verdict that does not depend on the host's load: one image under
# -icount (virtual time is instruction count) runs twice, alone and while
# busy processes this script starts keep every core spinning; its exit
# status and every case line must be the same.
# Only the verdict is compared, not the whole console: QEMU 7.2 runs an
# expired virtual-clock timer in its main-loop thread as well as in the
# CPU's, so under load a tick's IRQ may land some instructions off and the
# image's counts of IRQs inside the switch's kmap steps move (128 alone,
# 133 loaded, seen here). The emulator, single-threaded, repeats to the
# instruction: check-vivt compares instruction counts under load.
#   tests/target/check-load-icount.sh TAP_OUT IMAGE.elf
set -uo pipefail
if [ $# -ne 2 ] || [ ! -f "$2" ]; then
	echo "usage: tests/target/check-load-icount.sh TAP_OUT IMAGE.elf (${2:-no image}: not found)" >&2
	exit 2
fi
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/busy.sh"
tap_open "$1"
elf=$2
logs=build/check/load-icount
mkdir -p "$logs"
name=$(basename "$elf" .elf)

run() {	# run LOG: the image under -icount, its console in LOG; its status
	BOARD=versatilepb RAM_MB=128 QEMU_TIMEOUT=300 QEMU_ICOUNT=1 tools/qemu-run.sh "$elf" > "$1" 2>&1
}
run "$logs/$name.alone.log"
alone=$?
busy_start
run "$logs/$name.loaded.log"
loaded=$?
busy_stop
same=identical
cmp -s "$logs/$name.alone.log" "$logs/$name.loaded.log" ||
	same="differing in $(diff "$logs/$name.alone.log" "$logs/$name.loaded.log" | grep -c '^<') line(s) of counts"
if [ "$alone" -eq "$loaded" ] && [ "$(tap_cases "$logs/$name.alone.log")" = "$(tap_cases "$logs/$name.loaded.log")" ] &&
	[ -z "$(tap_plan "$logs/$name.alone.log")$(tap_plan "$logs/$name.loaded.log")" ] &&
	tap_cases "$logs/$name.alone.log" | grep -c '^ok ' > /dev/null; then
	tap_result ok "$name under -icount: the same exit status ($alone) and case lines alone and under load (console $same)"
else
	tap_result "not ok" "$name under -icount: alone (exit $alone) and under load (exit $loaded) give different verdicts: diff $logs/$name.alone.log $logs/$name.loaded.log"
fi
tap_close
