# What a board's board.mk and an image's build say of themselves, for the
# tools that run images (tools/qemu-run.sh) and the test runners
# (tests/lib/images.sh). Sourced by bash; sets LOKAL_ROOT.
LOKAL_ROOT=${LOKAL_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export LOKAL_ROOT

# board_var BOARD VAR [MAKE-VARS...]: VAR as board/BOARD/board.mk sets it
# (empty when it does not), with MAKE-VARS (RAM_MB=64) given to make.
board_var() {
	local board=$1 var=$2
	shift 2
	[ -f "$LOKAL_ROOT/board/$board/board.mk" ] || { echo "no board/$board/board.mk" >&2; return 1; }
	make -s --no-print-directory -C "$LOKAL_ROOT" -f "board/$board/board.mk" -f tools/lib/board-var.mk \
		"$@" "print-$var"
}

# image_config ELF NAME: CONFIG_NAME of the build ELF belongs to (its
# folder's or the one above's generated config.h); false when none is found.
image_config() {
	local d v
	for d in "$(dirname "$1")" "$(dirname "$(dirname "$1")")"; do
		[ -f "$d/include/generated/config.h" ] || continue
		v=$(sed -n "s/^#define CONFIG_$2 //p" "$d/include/generated/config.h" | tr -d '"')
		[ -n "$v" ] && echo "$v" && return 0
	done
	return 1
}
