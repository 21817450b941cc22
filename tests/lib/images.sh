# Test images for the runners (sourced by bash, after tests/lib/tap.sh):
# where a board's images are built in a configuration, building them once,
# and reading tests/target/tests.list. What a board and an image say of
# themselves comes from tools/lib/board.sh, which tools/qemu-run.sh uses too.
images_here=${BASH_SOURCE[0]%/*}
[ "$images_here" != "${BASH_SOURCE[0]}" ] || images_here=.
. "$images_here/../../tools/lib/board.sh"

# build_dir BOARD [MAKE-VARS]: the one name of the build folder that holds
# BOARD's images built with MAKE-VARS ("HZ=1000 DEBUG_HIGHMEM=1" ->
# build/versatilepb-HZ-1000_DEBUG_HIGHMEM-1; none -> build/BOARD-default).
build_dir() {
	local vars words
	read -r -a words <<< "${2:-}"
	vars=${words[*]}
	vars=${vars:-default}
	vars=${vars// /_}
	echo "build/$1-${vars//=/-}"
}

# build_images BOARD MAKE-VARS LOGDIR TARGET...: make TARGETs in BOARD's build
# folder for MAKE-VARS, once per runner run (a failed build is not retried);
# a TARGET with a dot is a file in that folder (lokal.elf). Sets O; false,
# with the log in LOGDIR/build-<folder>.log, when the build failed.
declare -A BUILT_IMAGES
build_images() {
	local board=$1 vars=$2 logdir=$3 t key targets=()
	shift 3
	O=$(build_dir "$board" "$vars")
	for t in "$@"; do
		case $t in *.*) targets+=("$O/$t");; *) targets+=("$t");; esac
	done
	key="$O ${targets[*]}"
	if [ -z "${BUILT_IMAGES[$key]:-}" ]; then
		mkdir -p "$logdir"
		# shellcheck disable=SC2086
		if make --no-print-directory -j"${BUILD_JOBS:-2}" BOARD="$board" O="$O" $vars "${targets[@]}" \
			> "$logdir/build-${O#build/}.log" 2>&1; then
			BUILT_IMAGES[$key]=ok
		else
			BUILT_IMAGES[$key]=failed
		fi
	fi
	[ "${BUILT_IMAGES[$key]}" = ok ]
}

# trim TEXT: TEXT without the blanks around it (in TRIMMED too, for a
# caller that would rather not fork a subshell per field).
trim() {
	TRIMMED=${1#"${1%%[![:space:]]*}"}
	TRIMMED=${TRIMMED%"${TRIMMED##*[![:space:]]}"}
	printf '%s\n' "$TRIMMED"
}

# list_lines LIST RUNNER MACHINE: the lines of LIST (tests/target/tests.list's
# format) that RUNNER runs on MACHINE, each as
#   image|exit status|regexes|make vars|stdin|runner option
# (the option: what follows "RUNNER:" in the runners column, e.g. icount).
# A malformed line comes out as "!|what is wrong", for the runner to fail.
list_lines() {
	local list=$1 runner=$2 machine=$3 lineno=0 image runners machines vars status regex input rest tok opt
	while IFS='|' read -r image runners machines vars status regex input rest; do
		lineno=$((lineno + 1))
		trim "$image" > /dev/null; image=$TRIMMED
		[ -n "$image" ] && [[ "$image" != \#* ]] || continue
		trim "$status" > /dev/null; status=$TRIMMED
		if [ -n "$rest" ] || ! [[ "$status" =~ ^[0-9]+$ ]] || [[ $runners != *[![:space:]]* ]] ||
			[[ $machines != *[![:space:]]* ]]; then
			echo "!|$list:$lineno: not the 7 columns image, runners, machines, make vars, exit status (a number), regexes, stdin"
			continue
		fi
		opt=-
		for tok in $runners; do
			case $tok in
			"$runner") opt=;;
			"$runner":*) opt=${tok#*:};;
			qemu|qemu:*|vivt|vivt:*) ;;
			*) echo "!|$list:$lineno: unknown runner '$tok' (qemu, vivt)"; continue 2;;
			esac
		done
		[ "$opt" != - ] || continue
		[[ " $machines " == *" * "* || " $machines " == *" $machine "* ]] || continue
		trim "$vars" > /dev/null; vars=$TRIMMED
		trim "$regex" > /dev/null; regex=$TRIMMED
		trim "$input" > /dev/null; input=$TRIMMED
		echo "$image|$status|$regex|$vars|$input|$opt"
	done < "$list"
}

# list_line_ok PREFIX: for a runner's loop over list_lines' output (read
# into image, status, ...): false for an empty line, and for a malformed one
# after its failure result (named PREFIX + what is wrong).
list_line_ok() {
	[ -n "$image" ] || return 1
	if [ "$image" = '!' ]; then
		tap_result "not ok" "$1$status"
		return 1
	fi
}

# config_images LINES VARS [OPT]: the targets (tests/IMAGE.elf) of the lines
# of LINES (list_lines' output) in configuration VARS (with runner option OPT
# only, when given): a runner builds each configuration once, with just the
# images it runs there (half a configuration's build is its test images).
# An image with no source is left to the run, which reports it missing.
config_images() {
	local image
	awk -F'|' -v v="$2" -v o="${3-}" -v any="${3+x}" \
		'$1 != "!" && $4 == v && (any == "" || $6 == o) { print $1 }' <<< "$1" | sort -u |
		while read -r image; do
			[ -f "$LOKAL_ROOT/tests/target/$image.c" ] && echo "tests/$image.elf"
		done
}

# run_images RUNS DIR JOBS MACHINE PREFIX: every line of RUNS,
#   label|elf|ram MiB|exit status|regexes|stdin|emulator options
# run on vivt-emu's MACHINE by tests/run-image, JOBS at a time, each with
# its log in DIR/<line number>.log; then their results in order, named
# "PREFIX<label> (<options>)".
run_images() {
	export RUN_IMAGES_DIR=$2 RUN_IMAGES_MACHINE=$4 RUN_IMAGES_PREFIX=$5
	tap_parallel "$1" "$2" "$3" run_images_one
}
run_images_one() {
	local label elf ram status regex input args
	IFS='|' read -r label elf ram status regex input args <<< "$2"
	# shellcheck disable=SC2086
	"$LOKAL_ROOT/tests/run-image" --runner vivt --machine "$RUN_IMAGES_MACHINE" "$elf" --ram "$ram" \
		--status "$status" --expect "$regex" --input "$input" --timeout "${VIVT_TIMEOUT:-400}" \
		--label "$RUN_IMAGES_PREFIX$label ($args)" --log "$RUN_IMAGES_DIR/$1.log" -- $args \
		> "$RUN_IMAGES_DIR/$1.result"
}
export -f run_images_one

