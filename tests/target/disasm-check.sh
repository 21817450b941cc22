# Shared by the checks that read the compiled code (check-idle-sequence.sh,
# check-kmap-order.sh): the arguments, one function's disassembly, and the
# TAP verdict. Sourced, not run.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"

# disasm_args SCRIPT "$@": exit 2 with a usage line unless given TAP_OUT IMAGE.elf.
disasm_args() {
	local script=$1
	shift
	if [ $# -ne 2 ] || [ ! -f "$2" ]; then
		echo "usage: $script TAP_OUT IMAGE.elf (${2:-no image}: not found)" >&2
		exit 2
	fi
}

# disasm_body IMAGE.elf FUNCTION: FUNCTION's instructions, one per line.
disasm_body() {
	arm-none-eabi-objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f, /^$/'
}

# disasm_verdict TAP_OUT WHAT VERDICT OK_REASON: one TAP line ("ok" when
# VERDICT is "ok", the verdict as the reason otherwise); fails unless ok.
disasm_verdict() {
	tap_open "$1"
	if [ "$3" = ok ]; then tap_result ok "$2: $4"; else tap_result "not ok" "$2: $3"; fi
	tap_close
}
