# Sourced by the scripts that run tests/target/tests.list (QEMU's runner,
# check-vivt, check-vivt-at91): one reading of a manifest line for all three.
#
# manifest_line: after `IFS='|' read -r image status regex vars input`, trims
# the fields, moves QEMU_* settings (for QEMU's command line, never for make)
# from vars to run_env, and sets variant, the build's name. False for blank
# and comment lines.
manifest_line() {
	image=$(echo "$image" | xargs)
	[ -n "$image" ] && [[ "$image" != \#* ]] || return 1
	status=$(echo "$status" | xargs)
	regex=$(echo "$regex" | sed 's/^ *//; s/ *$//')
	run_env=$(printf '%s\n' $vars | grep '^QEMU_' | xargs)
	vars=$(printf '%s\n' $vars | grep -v '^QEMU_' | xargs)
	input=$(echo "$input" | sed 's/^ *//; s/ *$//')
	variant=$(echo "${vars:-default}" | tr ' =' '_-')
}
