#!/usr/bin/env bash
# The kmap index push comes before the slot is touched: in the compiled
# __kmap_local_pfn_prot, the store of the new current->kmap_ctrl.idx must
# precede the call into the kmap scheme (kmap_scheme_map, which touches the
# slot) or, were it ever inlined, the lookup of the slot's PTE (the only
# word-indexed load there); otherwise an IRQ in between would map onto the
# same slot.
#   tests/target/check-kmap-order.sh TAP_OUT IMAGE.elf
set -uo pipefail
. "$(dirname "$0")/disasm-check.sh"
disasm_args tests/target/check-kmap-order.sh "$@"
tap=$1 elf=$2
off=$(gdb-multiarch -q -batch -nx -ex 'print (int)&((struct thread *)0)->kmap_ctrl.idx' "$elf" 2>/dev/null \
	| sed -n 's/^\$1 = \([0-9]*\)$/\1/p')
body=$(disasm_body "$elf" __kmap_local_pfn_prot)
if [ -z "$off" ] || [ -z "$body" ]; then
	verdict="cannot find kmap_ctrl.idx or __kmap_local_pfn_prot in $elf"
else
	verdict=$(awk -v off="$off" '
		!push && $0 ~ ("str\t[^,]*, \\[[^,]*, #" off "\\]") { push = NR }
		!slot && (/ldr\t.*, lsl #2\]/ || /bl\t.*<kmap_scheme_map>/) { slot = NR }
		END {
			if (!push) print "no store of kmap_ctrl.idx (offset " off ")";
			else if (!slot) print "no call into the kmap scheme and no slot PTE lookup";
			else if (slot < push) print "the slot PTE is looked up before the index store";
			else print "ok";
		}' <<< "$body")
fi
disasm_verdict "$tap" "kmap index push order in the compiled code" "$verdict" \
	"index stored before the slot PTE is read or written"
