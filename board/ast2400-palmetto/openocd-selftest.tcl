# Run this board's lokal_* procedures without hardware (make check-openocd):
#   openocd -c 'set ADAPTER interface/dummy.cfg' -f board/ast2400-palmetto/openocd.cfg \
#           -f board/ast2400-palmetto/openocd-selftest.tcl -c shutdown
# As tools/openocd-selftest.tcl does for openocd.cfg: commands that would
# touch the board are stubs that log their arguments; each case checks the
# log for what a real session needs, in order. One PASS/FAIL line per case.

set ::log {}
proc stub {name body} {
	if {[info commands $name] ne ""} { rename $name _real_$name }
	proc $name {args} "lappend ::log \[string trim \[concat $name \$args\]\]; $body"
}
# U-Boot's control register: MMU off, I-cache on, high vectors off.
set ::cr 0x00051078
stub arm {
	if {[lindex $args 0] eq "mrc"} { return $::cr }
	if {[lrange $args 0 5] eq {mcr 15 0 1 0 0}} { set ::cr [lindex $args 6] }
	return
}
foreach c {halt reset load_image verify_image resume mww} { stub $c {} }
stub gdb_port { return 3333 }
proc lokal_expect_board {} {}

proc run_case {case script patterns} {
	set ::log {}
	if {[catch {uplevel #0 $script} err]} {
		echo "FAIL $case: $err"
		return
	}
	set pos 0
	foreach pat $patterns {
		set i [lsearch -glob [lrange $::log $pos end] $pat]
		if {$i < 0} {
			echo "FAIL $case: no '$pat' (in order) in: [join $::log {; }]"
			return
		}
		incr pos [expr {$i + 1}]
	}
	if {[lsearch -glob $::log "reset*"] >= 0} {
		echo "FAIL $case: it resets the SoC (the DRAM setup would be lost): [join $::log {; }]"
		return
	}
	echo "PASS $case"
}

set clean [list halt "arm mcr 15 0 1 0 0 [expr {0x00051078 & ~0x1005}]" \
	"arm mcr 15 0 7 7 0 0" "arm mcr 15 0 7 10 4 0" "arm mcr 15 0 8 7 0 0" \
	"mww 0x1e78500c 0" "mww 0x1e78502c 0"]
run_case "ast2400: lokal_load halts without reset, MMU/caches/watchdogs off, loads, verifies, runs" {
	lokal_load build/x/shell.elf 0x40010000
} [concat $clean {"load_image build/x/shell.elf 0 elf" "verify_image build/x/shell.elf 0 elf"
	"resume 0x40010000"}]
run_case "ast2400: lokal_debug leaves the CPU halted, MMU/caches/watchdogs off" {
	lokal_debug
} $clean
