# config.table -> make assignments, one word each (blanks written as ^),
# which config.mk evaluates:
#   CFG.<name>.<board>=<default>^<min>^<max>^<why...>   one per row
#   CFG_VARS+=<name>                                     in table order
#   CFG_TABLE_ERROR=<line>:^<what>                       a malformed row
# Columns: name board default range why (see config.table).
function fail(what) {
	gsub(/ /, "^", what)
	print "CFG_TABLE_ERROR=" FILENAME ":" FNR ":^" what
	exit 0
}
/^[ \t]*(#|$)/ { next }
{
	if (NF < 5) fail("want 5 columns: name board default range why")
	if ($1 !~ /^[A-Z][A-Z0-9_]*$/) fail("name " $1 " is not an upper-case make variable")
	if ($2 !~ /^[A-Za-z0-9._-]+$/) fail("board " $2 " is not a folder name or any")
	if (seen[$1 "." $2]++) fail("a second row for " $1 " on " $2)
	if ($0 ~ /[\^$#\\]/) fail("the characters ^ $ # \\ cannot be used in a row")
	if ($4 == "board/*") { lo = "-"; hi = "-" }
	else if ($4 ~ /^[0-9]+\.\.([0-9]+|[A-Z][A-Z0-9_]*)$/) {
		split($4, r, /\.\./); lo = r[1]; hi = r[2]
		if (hi !~ /^[0-9]/) {
			if (!(hi in order)) fail("range " $4 ": " hi " is not a variable above " $1)
			hi = "$(" hi ")"
		}
	} else fail("range " $4 " is not MIN..MAX")
	why = $5
	for (i = 6; i <= NF; i++) why = why "^" $i
	if (!($1 in order)) { order[$1] = 1; print "CFG_VARS+=" $1 }
	print "CFG." $1 "." $2 "=" $3 "^" lo "^" hi "^" why
}
