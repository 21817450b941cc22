#!/usr/bin/python3
"""Show that the model's unit tests can fail: remove or bend one rule of the
memory-system model at a time (one exact edit to a copy of one file),
relink tests/test_memsys.c against it, and expect a failing test.  Prints
one TAP line per mutant and "model mutants killed K/N" (also written, as
"K N", to OUTDIR/model-mutants.count); exits 1 if any mutant survives or an
edit no longer applies.

    tools/vivt-emu/tests/model-mutants.py OUTDIR
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SRC, "..", "..", "tests", "lib"))
from tap import Tap, check  # noqa: E402
MODEL = ["memsys/dcache.c", "memsys/icache.c", "memsys/wbuf.c", "memsys/tlb.c", "memsys/walker.c",
         "oracle/oracle.c", "memsys/memsys.c"]
# The table below names each file by its base name.
PATH = {os.path.basename(f): f for f in MODEL}
HEADERS = ["memsys.h", "memsys-int.h"]

# (rule removed, file, exact text, replacement)
MUTANTS = [
    ("write misses allocate a line", "memsys.c",
     "\t\tif (li >= 0) {\n", "\t\tif (li < 0)\n\t\t\tli = (int)dc_fill(ms, va, pa, pc);\n\t\tif (li >= 0) {\n"),
    ("invalidate never loses a write", "dcache.c",
     "if (s != ms->shadow[base + w] || s == ms->mem[base + w])", "if (1)"),
    ("write-back never overwrites newer data", "wbuf.c",
     "if (e->st[w] < *m && !lost_reported)", "if (0)"),
    ("a D-cache hit is never stale", "memsys.c",
     'stale_read(ms, va, pa, pc, got, "the D-cache", l->pa);', "(void)got;"),
    ("a line hit is not checked against its PA tag", "memsys.c",
     " && l->pa == (pa & ~(LINE_BYTES - 1)), 1))", ", 1))"),
    ("an eviction drops the dirty line", "dcache.c",
     "\t\tms->st.devictions++;\n\t\twriteback(ms, li, pc);", "\t\tms->st.devictions++;"),
    ("the walker sees the write buffer", "walker.c",
     "if (ms->mem[idx] != ms->shadow[idx]) {",
     "if (ms->mem[idx] != ms->shadow[idx] && !wb_pending(ms, pa, &pend)) {"),
    ("the walker sees the D-cache", "walker.c",
     "if (ms->mem[idx] != ms->shadow[idx]) {", "if (0) {"),
    ("descriptor stores do not mark TLB entries", "memsys.c",
     "\t\ttlb_store_hook(ms, pa);", "\t\t;"),
    ("a TTBR write flushes the TLB", "memsys.c",
     "\t\t\tms->ttbr = val;", "\t\t\tms->ttbr = val, tlb_op(ms, 7, 0, 0);"),
    ("c8 invalidates nothing", "tlb.c", "if (crm < 5 || crm > 7)", "if (1)"),
    ("c7,c5,0 invalidates nothing", "icache.c", "\t\tinvalidate_all(c);", "\t\t;"),
    ("the I-cache reads the newest data", "memsys.c",
     "if (__builtin_expect(got[k] != shadow[k] || !same_pa, 0))",
     "if (__builtin_expect(!same_pa, 0))"),
    ("a store to code leaves earlier fetch checks standing", "memsys.c",
     "\t\tms->code_epoch++;", "\t\t;"),
    ("test-and-clean reports clean at once", "dcache.c", "\tif (c->ndirty) {", "\tif (0) {"),
    ("c7,c14,3 leaves the cache valid", "dcache.c", "\tif (inval)\n", "\tif (0)\n"),
    ("cache size decoded one step too big", "memsys.c", "*bytes = 512u << size;", "*bytes = 1024u << size;"),
    ("write-through lines become dirty", "memsys.c", "\t\t\tif (attr & ATTR_B) {", "\t\t\tif (1) {"),
    ("the CPU does not see its buffered stores", "memsys.c",
     "if (!ms->wb.count || !wb_pending(ms, pa, &got))", "if (1)"),
    ("a linefill overtakes a pending write", "dcache.c",
     "if (ms->wb.count && wb_overlaps(ms, l->pa, LINE_BYTES))", "if (0)"),
    ("repeated reports are not capped", "oracle.c", "return ++s->count <= CAP_PER_SITE;", "return true;"),
    ("the debugger reads the cache", "memsys.c", "if (ms->mem[idx] == ms->shadow[idx])\n\t\treturn;",
     "return;"),
    ("a device reads the cache", "memsys.c", "\t\tif (ms->mem[idx] == ms->shadow[idx])\n\t\t\tcontinue;\n",
     "\t\tcontinue;\n"),
    ("a device's write is an ordinary one", "memsys.c", "ms->dma_words[idx / 32] |= 1u << (idx % 32);", ";"),
    ("a write-back over a device's write is an ordinary lost write", "wbuf.c",
     "&& !lost_reported && dma_word(ms, base + w))", "&& !lost_reported && 0)"),
]


def compile_obj(src, obj, incdir):
    # A mutated copy lives in OUTDIR: its includes resolve from the source dirs.
    inc = ["-I" + os.path.join(incdir, d) for d in ("memsys", "oracle", ".")]
    return subprocess.run(["gcc", "-std=gnu11", "-O0", "-w"] + inc + ["-c", src, "-o", obj],
                          capture_output=True, text=True)


def mutant(out, objs, n, rule, fname, old, new):
    """Build and run mutant N; raise unless a unit test fails. Returns that test."""
    with open(os.path.join(SRC, PATH[fname])) as fh:
        text = fh.read()
    check(text.count(old) == 1, "edit does not apply once to %s" % fname)
    mutated = os.path.join(out, "m%02d-%s" % (n, fname))
    with open(mutated, "w") as fh:
        fh.write(text.replace(old, new))
    mobj = mutated[:-2] + ".o"
    exe = os.path.join(out, "m%02d" % n)
    r = compile_obj(mutated, mobj, SRC)
    if r.returncode == 0:
        r = subprocess.run(["gcc", "-o", exe, mobj] + [o for f, o in objs.items() if f != PATH[fname]],
                           capture_output=True, text=True)
    check(r.returncode == 0, "does not build: %s" % r.stderr[:200])
    run = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    failing = [ln for ln in run.stdout.splitlines() if ln.startswith("not ok")]
    check(run.returncode != 0 and failing, "survives: every unit test passes")
    for f in (mutated, mobj, exe):
        os.remove(f)
    return failing[0].split(" - ", 1)[1]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    base = os.path.join(out, "base")
    os.makedirs(base, exist_ok=True)
    tap = Tap()
    tap.plan(len(MUTANTS) + 1)
    # Unchanged files are compiled once; each mutant rebuilds only its file.
    objs = {}
    for f in MODEL + ["tests/test_memsys.c"]:
        obj = os.path.join(base, os.path.basename(f)[:-2] + ".o")
        r = compile_obj(os.path.join(SRC, f), obj, SRC)
        if r.returncode != 0:
            tap.fail("model mutants", "%s does not build: %s" % (f, r.stderr[:200]))
            return 1
        objs[f] = obj
    killed = 0
    for n, m in enumerate(MUTANTS, 1):
        try:
            test = mutant(out, objs, n, *m)
            killed += 1
            tap.result(True, "model mutant killed: %s (%s)" % (m[0], test))
        except (AssertionError, subprocess.TimeoutExpired) as e:
            tap.fail("model mutant: %s" % m[0], str(e))
    total = len(MUTANTS)
    tap.result(killed == total, "model mutants killed %d/%d" % (killed, total))
    with open(os.path.join(out, "model-mutants.count"), "w") as fh:
        fh.write("%d %d\n" % (killed, total))
    print("model mutants killed %d/%d" % (killed, total))
    return 0 if tap.close("model mutants") else 1


if __name__ == "__main__":
    sys.exit(main())
