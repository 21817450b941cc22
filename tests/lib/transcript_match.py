"""A transcript in the docs against the output it claims to show (the demo's
README lines, the user guide's shell session): every line it shows, except
blank ones and "...", must be a line of the output. In the lines `loose`
matches, counts that depend on where a tick lands may differ by 2 % (QEMU
under -icount can move a tick by a few instructions on a loaded host):
enough for a figure left over from an older build to fail."""
import re


def shown_lines(block):
    """The lines of a transcript block that claim to be output."""
    return [ln.rstrip() for ln in block.splitlines() if ln.strip() and ln.strip() != "..."]


def same(shown, line, loose):
    """Whether output line is the shown one, within the 2 % where loose matches."""
    if shown == line:
        return True
    if not loose.search(shown) or re.sub(r"\d+", "#", shown) != re.sub(r"\d+", "#", line):
        return False
    return all(abs(int(a) - int(b)) <= max(1, int(b) // 50)
               for a, b in zip(re.findall(r"\d+", shown), re.findall(r"\d+", line)))


def first_missing(shown, out, loose):
    """The first shown line that no output line is, or None."""
    return next((ln for ln in shown if not any(same(ln, o, loose) for o in out)), None)
