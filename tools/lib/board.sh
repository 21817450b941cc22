# What a board's board.mk and an image's build say of themselves, for the
# tools that run images (tools/qemu-run.sh) and the test runners
# (tests/lib/images.sh). Sourced by bash; sets LOKAL_ROOT to the tree this
# file is in, whatever the environment says: a run in another tree (a
# scratch copy a test makes) must read that tree's boards, not its caller's.
LOKAL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
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
	local d1 d2 f line v
	d1=${1%/*}
	[[ $1 == */* ]] || d1=.
	d2=${d1%/*}
	[[ $d1 == */* ]] || d2=.
	for f in "${d1:-/}/include/generated/config.h" "${d2:-/}/include/generated/config.h"; do
		[ -f "$f" ] || continue
		while IFS= read -r line; do
			case $line in
			"#define CONFIG_$2 "*)
				v=${line#"#define CONFIG_$2 "}
				v=${v//\"/}
				[ -n "$v" ] && echo "$v" && return 0;;
			esac
		done < "$f"
	done
	return 1
}

# default_board: the board make builds without BOARD= (config.table's `any` row).
default_board() {
	awk '$1 == "BOARD" && $2 == "any" { print $3 }' "$LOKAL_ROOT/config.table"
}

# board_has_qemu B: QEMU models board B (a BOARD_QEMU line in its board.mk).
board_has_qemu() {
	grep -qs '^BOARD_QEMU' "$LOKAL_ROOT/board/$1/board.mk"
}

# board_has_emulator B: vivt-emu has a machine of board B's name.
board_has_emulator() {
	grep -qs "\.name = \"$1\"" "$LOKAL_ROOT"/tools/vivt-emu/machine/*.c
}

# boards_with PREDICATE: the boards it holds for, the default board first.
boards_with() {
	local mk b first
	first=$(default_board)
	"$1" "$first" && echo "$first"
	for mk in "$LOKAL_ROOT"/board/*/board.mk; do
		b=${mk%/board.mk}
		b=${b##*/}
		[ "$b" != "$first" ] && "$1" "$b" && echo "$b"
	done
	return 0
}

# qemu_boards, emulator_boards: the boards QEMU, vivt-emu model.
qemu_boards() { boards_with board_has_qemu; }
emulator_boards() { boards_with board_has_emulator; }
