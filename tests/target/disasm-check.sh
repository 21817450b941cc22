# Shared by the checks that read the compiled code (check-idle-sequence.sh,
# check-kmap-order.sh): the arguments, one function's disassembly, and the
# TAP verdict. Sourced, not run.

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
	local r=ok why=$4
	[ "$3" = ok ] || { r="not ok"; why=$3; }
	echo "$r 1 - $2: $why" | tee -a "$1"
	[ "$r" = ok ]
}
