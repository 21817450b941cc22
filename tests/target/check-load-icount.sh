#!/usr/bin/env bash
# A QEMU verdict that does not depend on the host's load: one image under
# -icount (virtual time is instruction count) runs twice, alone and while
# busy processes this script starts keep every core spinning; the console,
# with its counts of switches, preemptions and IRQs inside the switch, and
# the exit status must be the same byte for byte.
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
if [ "$alone" -eq "$loaded" ] && cmp -s "$logs/$name.alone.log" "$logs/$name.loaded.log" &&
	grep -q '^ok ' "$logs/$name.alone.log"; then
	tap_result ok "$name under -icount: the same console and exit status ($alone) alone and under load: $(grep -m1 -o '[0-9]* switches ([^)]*)' "$logs/$name.alone.log")"
else
	tap_result "not ok" "$name under -icount: alone (exit $alone) and under load (exit $loaded) differ: diff $logs/$name.alone.log $logs/$name.loaded.log"
fi
tap_close
