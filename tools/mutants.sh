#!/usr/bin/env bash
# Mutation check of the cache/TLB maintenance (issue 4): delete each
# maintenance call on the map, unmap, context-switch and pkmap-flush paths
# (and inside the ARM hooks and set_pte_ext that those paths call), one at a
# time, rebuild the host tests and require that at least one fails.
#
#   tools/mutants.sh [TAP-FILE]
#
# A call is "deleted" by guarding it with if (0), so the mutant still
# compiles warning-free and a kill can only come from a test. Works on a
# private copy of the tree under build/host/mutants; the working tree is
# never touched.
set -uo pipefail

tap=${1:-/dev/stdout}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build/host/mutants
src=$work/tree
files="firmware/mm/*.c arch/arm/include/asm/highmem.h arch/arm/include/asm/pgtable.h"
calls='arch_kmap_local_post_map|arch_kmap_local_pre_unmap|arch_kmap_local_post_unmap|flush_cache_kmaps|flush_tlb_kmaps|__cpuc_flush_dcache_area|__cpuc_flush_kern_all|cpu_dcache_clean_area|cpu_dcache_inv_area|cpu_drain_write_buffer|local_flush_tlb_kernel_page|local_flush_tlb_all'
variants="default lazy debug"
make_args=(-s -j2 HOST_SAN= HOST_OUT=build/host/mut)

mkdir -p "$work"
rm -rf "$src"
mkdir -p "$src"
(cd "$root" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$src" && tar xf -)
tests=$(cd "$src" && ls tests/host/test_*.c | sed 's|.*/||; s|\.c$||')

# Every maintenance call site: file:line.
sites=$(cd "$src" && grep -nE "^[[:space:]]*($calls)\(.*\);[[:space:]]*\\\\?$" $files | cut -d: -f1,2)

# Run every test binary; print "variant test" of the first failure, or nothing.
first_failure() {
	local v t
	for v in $variants; do
		for t in $tests; do
			if ! { (cd "$src" && timeout 60 build/host/mut/$v/bin/$t > "$work/last.log" 2>&1); } 2>/dev/null; then
				echo "$v $t"
				return
			fi
		done
	done
}

n=0 killed=0
out=()
say() { out+=("$1"); echo "$1" | sed 's/^/  /' >&2; }

if ! make -C "$src" "${make_args[@]}" host-tests > "$work/build.log" 2>&1; then
	say "not ok 1 - mutants: the unmutated tree does not build (see $work/build.log)"
	printf '%s\n' "${out[@]}" > "$tap"
	exit 1
fi
if f=$(first_failure) && [ -n "$f" ]; then
	say "not ok 1 - mutants: the unmutated tree fails host[$f]"
	printf '%s\n' "${out[@]}" > "$tap"
	exit 1
fi

total=$(echo "$sites" | grep -c .)
for site in $sites; do
	file=${site%%:*} line=${site#*:}
	n=$((n + 1))
	cp "$root/$file" "$src/$file"
	code=$(sed -n "${line}p" "$src/$file" | sed 's/^[[:space:]]*//; s/[[:space:]]*\\$//')
	sed -i "${line}s/^\([[:space:]]*\)\(.*\)$/\1if (0) \2/" "$src/$file"
	name="mutant $n/$total $file:$line: $code"
	if ! make -C "$src" "${make_args[@]}" host-tests > "$work/build.log" 2>&1; then
		say "not ok $n - $name: mutant does not build (see $work/build.log)"
	elif f=$(first_failure) && [ -n "$f" ]; then
		why=$(grep -m1 -oE 'MODEL VIOLATION: [^:]*' "$work/last.log" | sed 's/MODEL VIOLATION: //')
		case_=$(grep -m1 '^\[  FAILED  \] ' "$work/last.log" | sed 's/.*\] //')
		killed=$((killed + 1))
		say "ok $n - $name killed by host[${f% *}] ${f#* }${case_:+: $case_} (${why:-a test assertion failed})"
	else
		say "not ok $n - $name survived"
	fi
	cp "$root/$file" "$src/$file"
done
# Leave the copy built as the working tree is.
make -C "$src" "${make_args[@]}" host-tests > /dev/null 2>&1

printf '%s\n' "${out[@]}" > "$tap"
echo "mutants killed $killed/$total"
[ "$killed" -eq "$total" ]
