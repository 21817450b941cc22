#!/usr/bin/env bash
# The AT91 driver mutants: a bug is planted in turn in a copy of the
# AT91 drivers or board code (the source, one sed each), the test image is
# rebuilt for BOARD=at91sam9g20-ek and run on vivt-emu's AT91 machine, and
# the run must fail (wrong exit status, a failed case, a missing line, or
# the device model stopping the run).  The unmutated copy must pass first,
# so a kill means the planted bug.  Ends with "at91 mutants killed N/N".
#
# Environment: TAP (default stdout), N0 (TAP numbers start after it),
# VIVT_JOBS (default 2), VIVT_TIMEOUT (s per run, default 150).
set -uo pipefail
cd "$(dirname "$0")/../.."
tap=${TAP:-/dev/stdout}
n=${N0:-0}
jobs=${VIVT_JOBS:-2}
out=build/vivt-emu/at91-mutants
tree=$out/tree
emit() { n=$((n + 1)); echo "$1 $n - $2" >> "$tap"; [ "$tap" = /dev/stdout ] || echo "$1 $n - $2"; }
rm -rf "$out"
mkdir -p "$tree/tests" "$tree/tools"
# Times kept (-p), and the objects of check-vivt-at91's default build
# copied in when there are some: then each build compiles only what changed.
cp -rp Makefile arch board drivers firmware "$tree/"
cp -rp tests/target "$tree/tests/"
cp -p tools/bootstrap.sh "$tree/tools/"
if [ -d build/at91sam9g20-ek/default/obj ]; then
	mkdir -p "$tree/build/m"
	cp -rp build/at91sam9g20-ek/default/obj build/at91sam9g20-ek/default/include "$tree/build/m/"
fi

# name @ file @ sed script @ image @ stdin @ what the bug is ('@' separates: scripts hold '|')
mutants=$(cat <<'LIST'
aic-eoi@drivers/atmel_aic.c@/^void atmel_aic_eoi/,/^}/s/^\tmmio_write32(base + AIC_EOICR, 0);/\t(void)base;/@test_kmap_sched@@AIC end of interrupt never written
aic-spurious-eoi@board/at91sam9g20-ek/board.c@/the spurious read needs one too/d@test_boot@lokal-rx\\n@no EOICR after the spurious IVR read that ends each IRQ
aic-soft-level@board/at91sam9g20-ek/board.c@s/atmel_aic_init(BOARD_AIC_BASE, 1u << BOARD_SOFT_IRQ)/atmel_aic_init(BOARD_AIC_BASE, 0)/@test_kmap_sched@@software-raised line left level-triggered (ISCR works on edge sources only)
pit-piv-field@drivers/atmel_pit.c@s/mmio_write32(base + PIT_MR, piv |/mmio_write32(base + PIT_MR, piv << 20 |/@test_kmap_sched@@PIT interval written into the wrong field of PIT_MR
dbgu-rx-irq@drivers/atmel_dbgu.c@/^void atmel_dbgu_enable_rx_irq/,/^}/s/^\tmmio_write32(base + DBGU_IER, SR_RXRDY);/\t(void)base;/@test_boot@lokal-rx\\n@DBGU receive interrupt never enabled
tc-clock@board/at91sam9g20-ek/board.c@s/atmel_pmc_enable_periph(BOARD_PMC_BASE, (1u << BOARD_TC0_ID) |/atmel_pmc_enable_periph(BOARD_PMC_BASE, /@test_kmap_sched@@TC0's peripheral clock left off in the PMC
LIST
)

# One verdict for an image: 0 when it passes as tests.list expects (status 0, every case ok).
run_image() {	# $1 elf, $2 stdin, $3 log
	local rc
	printf '%b' "$2" > "$3.in"
	timeout -k 5 "${VIVT_TIMEOUT:-150}" build/vivt-emu/vivt-emu --machine at91sam9g20-ek --input "$3.in" \
		--max-insns 3000000000 --seed 5 --jitter 20000 "$1" > "$3" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && ! grep -qE '^not ok |^vivt-emu: REPORT' "$3" &&
		[ "$(grep -cE "^ok [0-9]+ - " "$3")" = "$(tr -d "\r" < "$3" | grep -m1 -E "^1\.\.[0-9]+" | cut -d. -f3)" ]
}
export -f run_image

build() {	# $1 name: builds both images into $out/$1/
	mkdir -p "$out/$1"
	make --no-print-directory -C "$tree" -j"$jobs" BOARD=at91sam9g20-ek O=build/m \
		build/m/tests/test_kmap_sched.elf build/m/tests/test_boot.elf > "$out/$1/build.log" 2>&1 &&
		cp "$tree"/build/m/tests/test_{kmap_sched,boot}.elf "$out/$1/"
}

if ! build baseline || ! run_image "$out/baseline/test_kmap_sched.elf" "" "$out/baseline/sched.log" ||
	! run_image "$out/baseline/test_boot.elf" 'lokal-rx\n' "$out/baseline/boot.log"; then
	emit "not ok" "at91 mutants: the unmutated copy does not build or pass ($out/baseline)"
	echo "at91 mutants killed 0/0 (baseline failed)"
	exit 1
fi

# Build every mutant (one at a time in the copy), then run them in parallel.
names=()
while IFS='@' read -r name file script image input what; do
	cp "$tree/$file" "$out/orig"
	sed -i "$script" "$tree/$file"
	if cmp -s "$tree/$file" "$out/orig"; then
		emit "not ok" "at91 mutant $name: the sed script no longer changes $file (update the list)"
	elif ! build "$name"; then
		emit "not ok" "at91 mutant $name: does not build ($out/$name/build.log)"
	else
		names+=("$name@$image@$input@$what")
	fi
	cp "$out/orig" "$tree/$file"
done <<< "$mutants"

printf '%s\0' "${names[@]}" | xargs -0 -n 1 -P "$jobs" bash -c '
	IFS="@" read -r name image input what <<< "$1"
	if run_image "'"$out"'/$name/$image.elf" "$input" "'"$out"'/$name/run.log"; then
		echo survived > "'"$out"'/$name/verdict"
	else
		echo killed > "'"$out"'/$name/verdict"
	fi' _
killed=0
for spec in "${names[@]}"; do
	IFS='@' read -r name image input what <<< "$spec"
	log=$out/$name/run.log
	why=$(grep -m1 -E '^vivt-emu: error|^not ok |^# FAILED' "$log" | cut -c1-200)
	if [ "$(cat "$out/$name/verdict" 2>/dev/null)" = killed ]; then
		killed=$((killed + 1))
		emit ok "at91 mutant $name ($what): $image fails: ${why:-$(tail -1 "$log" | cut -c1-200)}"
	else
		emit "not ok" "at91 mutant $name ($what): $image still passes ($log)"
	fi
done
total=$(echo "$mutants" | grep -c .)
echo "at91 mutants killed $killed/$total"
[ "$killed" -eq "$total" ]
