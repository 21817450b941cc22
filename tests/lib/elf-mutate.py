#!/usr/bin/env python3
"""The mutation engine's ELF back end (tests/lib/mutants.sh): plant one
mutation in a built ARM ELF: in function FUNC, every instruction
whose disassembly matches REGEX (or only the first, with --first) gets
rewritten by OP.  The image is otherwise byte-for-byte the one that ships.

  elf-mutate.py IN.elf OUT.elf FUNC REGEX OP [--first]

OP: nop (mov r0, r0) | crm=N (a CP15 op's CRm field) | lsr1 (a register
operand shifted right by one: add r1, r0, r1 -> add r1, r0, r1, lsr #1).
Prints the addresses patched; exits 1 when nothing matched.
"""
import re
import struct
import subprocess
import sys

NOP = 0xE1A00000


def rewrite(word, op):
    if op == "nop":
        return NOP
    if op.startswith("crm="):
        return (word & ~0xF) | int(op[4:])
    if op == "lsr1":
        if word & 0x0FF0 != 0:
            raise SystemExit("elf-mutate: lsr1 needs an unshifted register operand (0x%08x)" % word)
        return word | (1 << 7) | (1 << 5)
    raise SystemExit("elf-mutate: unknown op %r" % op)


def file_offset(data, vaddr):
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    for i in range(phnum):
        p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if p_type == 1 and p_vaddr <= vaddr < p_vaddr + p_filesz:
            return p_offset + vaddr - p_vaddr
    raise SystemExit("elf-mutate: 0x%08x is in no loaded segment" % vaddr)


def func_range(elf, func):
    """[start, stop) of FUNC: up to the next text symbol (asm has no sizes)."""
    nm = subprocess.run(["arm-none-eabi-nm", "-n", elf], capture_output=True, text=True,
                        check=True).stdout
    syms = []
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW" and not f[2].startswith("$"):
            syms.append((int(f[0], 16), f[2]))
    for i, (addr, name) in enumerate(syms):
        if name == func:
            later = [a for a, _ in syms[i + 1:] if a > addr]
            return addr, later[0] if later else addr + 0x1000
    raise SystemExit("elf-mutate: no function %s in %s" % (func, elf))


def main():
    args = [a for a in sys.argv[1:] if a != "--first"]
    first = "--first" in sys.argv
    if len(args) != 5:
        raise SystemExit(__doc__)
    src, dst, func, regex, op = args
    start, stop = func_range(src, func)
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", "--start-address=0x%x" % start,
                          "--stop-address=0x%x" % stop, src],
                         capture_output=True, text=True, check=True).stdout
    data = bytearray(open(src, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise SystemExit("elf-mutate: %s is not a 32-bit ELF" % src)
    done = []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+([0-9a-f]{8})\s+(.*)$", line)
        if not m or not re.search(regex, m.group(3)):
            continue
        addr, word = int(m.group(1), 16), int(m.group(2), 16)
        off = file_offset(data, addr)
        struct.pack_into("<I", data, off, rewrite(word, op))
        done.append("0x%08x" % addr)
        if first:
            break
    if not done:
        print("elf-mutate: no instruction of %s matches /%s/ in %s" % (func, regex, src), file=sys.stderr)
        sys.exit(1)
    open(dst, "wb").write(data)
    print(" ".join(done))


if __name__ == "__main__":
    main()
