# The mutation engine (sourced by bash, after tests/lib/tap.sh): the mutant
# tables, the two ways to plant a bug (edit a source file in a private copy
# of the tree; patch a built ELF), and the verdicts.
#
# A mutant table sits beside the code it mutates (name: mutants.list) and
# has one mutant per line, in one format (columns separated by " | "):
#   name | where | change | killed by | what the bug is
#   where:     a source file (source back end) or a function of the image (ELF back end)
#   change:    source: a sed script (sed -i), or "if (0) CALL in FUNCTION"
#              to skip the call CALL(...); in FUNCTION ("CALL#2": its second
#              call there); ELF: "REGEX => OP" (tests/lib/elf-mutate.py), or
#              "REGEX => OP first" for the first matching instruction only
#   killed by: the test that must fail on the mutant (the runner reads it),
#              or "survives: WHY" for an operation shown to be redundant:
#              that mutant must survive, so the claim stays true
# Lines starting with '#' and blank lines are skipped.

# mutants_read TABLE: its mutants, one per line, the five fields trimmed
# and separated by the unit separator (read them with IFS=$'\x1f'); a
# malformed line as "!", the separator and "TABLE:LINE: what is wrong".
# Columns are separated by " | " (a space on each side), so a change or a
# test regex may hold a bare '|'.
mutants_read() {
	awk -F' [|] ' -v t="$1" '
		/^[ \t]*(#|$)/ { next }
		NF != 5 { printf "!\037%s:%d: not the 5 columns name | where | change | killed by | what\n", t, NR; next }
		{ for (i = 1; i <= 5; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i); printf "%s%s", $i, (i < 5 ? "\037" : "\n") } }' "$1"
}

# mutants_tree DIR: DIR becomes a private copy of the source tree (no
# build/, no .git) for the source back end; the working tree is never touched.
mutants_tree() {
	rm -rf "$1" && mkdir -p "$1" &&
		(cd "$LOKAL_ROOT" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$1" && tar xf -)
}

# mutant_call_line FILE CHANGE: for an "if (0) CALL in FUNCTION" change, the
# number of the line in FILE that it guards; false, saying why, when there
# is no such call (the code moved on: update the table) or CHANGE has
# another form.
mutant_call_line() {
	local file=$1 change=$2 call nth func line
	[[ "$change" =~ ^if\ \(0\)\ ([a-z_0-9]+)(#([0-9]+))?\ in\ ([a-z_0-9]+)$ ]] ||
		{ echo "not an \"if (0) CALL in FUNCTION\" change: $change"; return 1; }
	call=${BASH_REMATCH[1]} nth=${BASH_REMATCH[3]:-1} func=${BASH_REMATCH[4]}
	# The NTH call's line in the function: after the last line above it
	# that starts a definition, FUNC's.
	line=$(awk -v f="$func" -v c="$call" -v nth="$nth" '
		/^[a-z_].*[a-z0-9_]\(/ && !/;/ { name = $0; sub(/\(.*/, "", name); sub(/.*[^a-z0-9_]/, "", name); infn = (name == f) }
		infn && $0 ~ "^[[:space:]]*" c "\\(.*\\);[[:space:]]*\\\\?$" && ++seen == nth { print NR; exit }' "$file")
	[ -n "$line" ] || { echo "no call $call( (number $nth) in $func of $file"; return 1; }
	echo "$line"
}

# mutant_guard FILE LINE GUARD: put GUARD ("if (0)", say) before the
# statement on LINE of FILE.
mutant_guard() {
	sed -i "$2s/^\([[:space:]]*\)\(.*\)$/\1$3 \2/" "$1"
}

# mutant_source TREE FILE CHANGE: plant CHANGE in TREE/FILE (the original is
# kept as TREE/FILE.orig for mutant_restore). False, saying why, when the
# change does not apply (the code moved on: update the table).
mutant_source() {
	local tree=$1 file=$2 change=$3 line
	cp "$tree/$file" "$tree/$file.orig" || return 1
	if [[ "$change" == "if (0) "* ]]; then
		line=$(mutant_call_line "$tree/$file" "$change") || { echo "$line"; return 1; }
		mutant_guard "$tree/$file" "$line" "if (0)"
	else
		sed -i "$change" "$tree/$file" || { echo "sed script fails on $file"; return 1; }
	fi
	if cmp -s "$tree/$file" "$tree/$file.orig"; then
		echo "the change no longer changes $file (update the table)"
		return 1
	fi
}

# mutant_restore TREE FILE: undo mutant_source.
# The restored file is touched: the .orig copy keeps the time it was made,
# before the mutant's objects, so make would keep them in the next image.
mutant_restore() { mv "$1/$2.orig" "$1/$2" && touch "$1/$2"; }

# mutant_elf IN.elf OUT.elf FUNCTION "REGEX => OP": the ELF back end; prints
# the addresses patched, or why nothing was.
mutant_elf() {
	local op=${4##* => } first=()
	[[ $op == *" first" ]] && op=${op% first} first=(--first)
	"$LOKAL_ROOT/tests/lib/elf-mutate.py" "$1" "$2" "$3" "${4% => *}" "$op" "${first[@]}"
}

# mutant_verdict LABEL NAME KILLED-BY RESULT: the TAP result of one mutant,
# RESULT being "killed by ..." or "killed: ...", "survived ..." or anything
# else (an error, or a kill that does not count).
# Counts MUTANTS_KILLED of MUTANTS_TOTAL (mutants that must be killed).
MUTANTS_KILLED=0 MUTANTS_TOTAL=0
mutant_verdict() {
	local label=$1 name=$2 killer=$3 res=$4
	case $killer in
	survives:*)
		case $res in
		survived*) tap_result ok "$label $name is redundant and survives: ${killer#survives: }";;
		*) tap_result "not ok" "$label $name was listed as redundant (${killer#survives: }) but: $res";;
		esac;;
	*)
		MUTANTS_TOTAL=$((MUTANTS_TOTAL + 1))
		case $res in
		"killed by "*|"killed: "*) MUTANTS_KILLED=$((MUTANTS_KILLED + 1)); tap_result ok "$label $name: $res";;
		*) tap_result "not ok" "$label $name: $res";;
		esac;;
	esac
}

# mutants_summary LABEL: the summary figure "LABEL killed" = K/N
# (tap_summary); false unless every one was.
mutants_summary() {
	tap_summary "$1 killed" "$MUTANTS_KILLED/$MUTANTS_TOTAL"
	[ "$MUTANTS_KILLED" -eq "$MUTANTS_TOTAL" ]
}
