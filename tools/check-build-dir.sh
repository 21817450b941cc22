#!/usr/bin/env bash
# Whether O=DIR is a directory make may own: it writes there and `make
# clean` removes it. Prints nothing when it is, else the one-line reason
# (the Makefile turns it into its error).
#   tools/check-build-dir.sh DIR SOURCE_TREE
# Accepted: anything under SOURCE_TREE/build; elsewhere, a directory that
# does not exist yet (its parent writable), is empty, or holds an earlier
# build (include/generated/config.h). Refused: /, the source tree, any
# directory holding it, anything else in it, system directories, and a
# directory that already holds other files (make clean would delete them).
set -u
o=$1 src=$2
abs=$(realpath -m -- "$o")
case "$abs/" in
"$src"/build/?*) exit 0 ;;
esac
if [ "$abs" = / ]; then
	echo "O=$o is the root directory: give a build directory of its own, e.g. O=build/mine or O=/tmp/lokal-build"
elif [ "$abs" = "$src" ]; then
	echo "O=$o is the source tree itself: build output goes under build/ (e.g. O=build/mine) or outside the tree"
elif [ "${src#"$abs"/}" != "$src" ]; then
	echo "O=$o holds the source tree ($src): give a build directory of its own, e.g. O=build/mine"
elif [ "${abs#"$src"/}" != "$abs" ]; then
	echo "O=$o is inside the source tree but not under build/: use O=build/${abs#"$src"/} (build/ is the tree's only output folder)"
else
	case "$abs/" in
	/bin/* | /boot/* | /dev/* | /etc/* | /lib/* | /lib32/* | /lib64/* | /libx32/* | \
	/proc/* | /run/* | /sbin/* | /sys/* | /usr/* | /var/*)
		case "$abs/" in
		/var/tmp/?*) ;;
		*) echo "O=$o is a system directory: give a build directory of your own, e.g. O=build/mine or O=/tmp/lokal-build"; exit 0 ;;
		esac ;;
	esac
	parent=$abs
	while [ ! -e "$parent" ]; do parent=$(dirname "$parent"); done
	if [ ! -d "$parent" ]; then
		echo "O=$o: $parent is a file, not a directory"
	elif [ "$parent" != "$abs" ] && [ ! -w "$parent" ]; then
		echo "O=$o cannot be created: $parent is not writable by you"
	elif [ "$parent" = "$abs" ] && [ ! -w "$abs" ]; then
		echo "O=$o is not writable by you"
	elif [ "$parent" = "$abs" ] && [ -n "$(ls -A -- "$abs" 2>/dev/null)" ] &&
	     [ ! -e "$abs/include/generated/config.h" ]; then
		echo "O=$o already holds files that are not a Lokal build (make clean would delete them): give a new or empty directory"
	fi
fi
exit 0
