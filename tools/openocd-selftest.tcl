# Run the lokal_* procedures of openocd.cfg without hardware.
#   openocd -c 'set ADAPTER interface/dummy.cfg' -f openocd.cfg \
#           -f tools/openocd-selftest.tcl -c shutdown
# Every command that would touch the board is replaced by a stub that logs
# its arguments (and fakes CP15/memory reads); each case then checks the log
# for the commands, values and order a real session needs. Prints one
# "PASS <case>" or "FAIL <case>: <why>" line per case.

set ::log {}

# Read before any stub exists: OpenOCD dispatches subcommands by the
# command's own name, so a renamed `flash` no longer answers.
set nor [flash list]
set reset_init_body [pb926.cpu cget -event reset-init]

proc stub {name body} {
	if {[info commands $name] ne ""} { rename $name _real_$name }
	proc $name {args} "lappend ::log \[string trim \[concat $name \$args\]\]; $body"
}

# A typical ARM926 control register after a Boot Monitor ran: MMU, D-cache,
# I-cache, high vectors on.
set ::cr 0x0005317f
stub arm {
	if {[lindex $args 0] eq "mrc"} { return $::cr }
	if {[lrange $args 0 5] eq {mcr 15 0 1 0 0}} { set ::cr [lindex $args 6] }
	return
}
stub halt {}
stub reset {}
stub load_image {}
stub verify_image {}
stub resume {}
stub flash {}
stub mww {}
stub read_memory { return 0x00000000 }
stub gdb_port { return 3333 }
# No JTAG chain here: the real check is a separate case of check-openocd.
proc lokal_expect_board {} {}

proc expect_seq {case patterns} {
	set pos 0
	foreach pat $patterns {
		set i [lsearch -glob [lrange $::log $pos end] $pat]
		if {$i < 0} {
			echo "FAIL $case: no '$pat' (in order) in: [join $::log {; }]"
			return
		}
		incr pos [expr {$i + 1}]
	}
	echo "PASS $case"
}

proc run_case {case script patterns} {
	set ::log {}
	if {[catch {uplevel #0 $script} err]} {
		echo "FAIL $case: $err"
		return
	}
	expect_seq $case $patterns
}

run_case "reset-init handler halts and turns MMU and caches off" {
	eval $::reset_init_body
} [list halt "arm mrc 15 0 1 0 0" \
	"arm mcr 15 0 1 0 0 [expr {0x0005317f & ~0x1005}]" \
	"arm mcr 15 0 7 7 0 0" "arm mcr 15 0 7 10 4 0" "arm mcr 15 0 8 7 0 0"]

run_case "lokal_load resets, loads, verifies and runs the ELF" {
	lokal_load build/x/lokal.elf 0x00010000
} {"reset init" "load_image build/x/lokal.elf 0 elf"
	"verify_image build/x/lokal.elf 0 elf" "resume 0x00010000"}

set tmp [file tempfile]
set f [open $tmp w]; puts -nonewline $f [string repeat x 1000]; close $f
run_case "lokal_flash backs up, enables Vpp, writes, disables Vpp, verifies" {
	lokal_flash $tmp build/x/nor-backup.bin
} [list "reset init" "flash probe 0" "flash read_bank 0 build/x/nor-backup.bin 0 1000" \
	"mww 0x1000004c 1" "flash write_image erase unlock $tmp 0x34000000 bin" \
	"mww 0x1000004c 0" "flash verify_bank 0 $tmp 0" "reset run"]
file delete $tmp

run_case "lokal_debug leaves the board halted after reset init" {
	lokal_debug
} {"reset init"}

run_case "NOR is a cfi bank at 0x34000000 of 64 MiB, 32-bit bus of x16 parts" {
	set ::log $::nor
} {"*driver cfi base 872415232 size 67108864 bus_width 4 chip_width 2*"}
