"""The debugger: `make debug`'s script on a terminal (Ctrl-C halts the
target and gdb stays; the guest's console shows), and the lokal gdb
commands (tools/gdb/lokal.py) run by gdb-multiarch in batch against QEMU's
gdb stub, at a breakpoint in the demo (its mid-run thread_ps, where
preempted threads hold local kmaps), compared with what the firmware's
own ps and kmaps print for the same state."""
import os
import pty
import re
import socket
import subprocess
import sys
import threading
import time

from tap import check
from interactive import _read_until

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "shell"))
from console import qemu_command  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_debug_ctrl_c(elf):
    """make debug under a pty, as a user runs it: make in the terminal's
    process group too, so a Ctrl-C that reached make would end it with 130."""
    master, slave = pty.openpty()
    tty = os.ttyname(slave)

    def controlling_tty():
        os.close(os.open(tty, os.O_RDWR))   # a session leader opening a tty owns it

    # A log of its own: check-target runs make debug at the same time.
    env = dict(os.environ, GDB_PORT=str(free_port()),
               DEBUG_LOG=os.path.join(ROOT, "build", "check-shell", "qemu-debug.log"))
    app = os.path.splitext(os.path.basename(elf))[0]
    proc = subprocess.Popen(["make", "--no-print-directory", "-s", "O=" + os.path.dirname(elf),
                             "APP=" + app, "debug"], cwd=ROOT, stdin=slave, stdout=slave,
                            stderr=slave, close_fds=True, start_new_session=True,
                            preexec_fn=controlling_tty, env=env)
    os.close(slave)
    log = [b""]
    try:
        _read_until(master, rb"\(gdb\) ", log, timeout=60)
        os.write(master, b"continue\n")
        _read_until(master, rb"Breakpoint 1, .*?start_kernel.*?\(gdb\) ", log, timeout=60)
        # main is created, not yet switched in: where it will start, no unwind error
        os.write(master, b"tbreak sched_start\ncontinue\n")
        _read_until(master, rb"sched_start.*?\(gdb\) ", log, timeout=60)
        os.write(master, b"lokal bt main\n")
        _read_until(master, rb"thread main \(\w+\) has not run yet: it starts at main_thread.*?"
                    rb"\(gdb\) ", log, timeout=30)
        os.write(master, b"continue\n")
        # the console shows on the terminal, not only in the log
        _read_until(master, rb"lokal> ", log, timeout=60)
        time.sleep(0.5)
        os.write(master, b"\x03")                      # Ctrl-C while the target runs
        _read_until(master, rb"SIGINT.*?\(gdb\) ", log, timeout=30)
        os.write(master, b"lokal ps\n")
        _read_until(master, rb"shell\s+\S+\s+15 .*?\(gdb\) ", log, timeout=30)
        os.write(master, b"\x03")                      # Ctrl-C at the prompt
        _read_until(master, rb"Quit.*?\(gdb\) ", log, timeout=30)
        os.write(master, b"continue\n")
        _read_until(master, rb"Continuing", log, timeout=30)
        time.sleep(0.5)
        os.write(master, b"\x03")
        _read_until(master, rb"SIGINT.*?\(gdb\) ", log, timeout=30)
        check(proc.poll() is None, "make debug ended (status %s)" % proc.returncode)
        os.write(master, b"info registers pc\n")
        _read_until(master, rb"pc\s+0x[0-9a-f]+.*?\(gdb\) ", log, timeout=30)
        os.write(master, b"quit\n")
        _read_until(master, rb"Quit anyway\? \(y or n\) ", log, timeout=30)
        os.write(master, b"y\n")
        check(proc.wait(timeout=30) == 0, "status %s after quit" % proc.returncode)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait()
        os.close(master)


class Qemu:
    """The shell image halted under QEMU's gdb stub; console kept in self.out."""

    def __init__(self, elf, port):
        self.proc = subprocess.Popen(qemu_command(elf) + ["-S", "-gdb", "tcp:127.0.0.1:%d" % port],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        self.out = b""
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for chunk in iter(lambda: self.proc.stdout.read1(4096), b""):
            self.out += chunk

    def wait_for(self, pattern, timeout=120):
        end = time.monotonic() + timeout
        while not re.search(pattern, self.out, re.S):
            check(time.monotonic() < end and self.proc.poll() is None,
                  "no %r on the console: %r" % (pattern, self.out[-300:]))
            time.sleep(0.05)

    def send(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def kill(self):
        self.proc.kill()
        self.proc.wait()


def gdb_batch(elf, port, commands, timeout=300):
    args = ["gdb-multiarch", "-q", "-nx", "-batch", elf, "-ex", "set architecture armv5te",
            "-ex", "source %s" % os.path.join(ROOT, "tools", "gdb", "lokal.py"),
            "-ex", "target remote 127.0.0.1:%d" % port]
    for c in commands:
        args += ["-ex", c]
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def section(text, start, end):
    """The lines between an 'echo' marker and the next."""
    return text.split(start + "\n", 1)[1].split(end + "\n", 1)[0]


def table(text, first):
    """Lines of a table from its header line on, up to a line not indented."""
    lines = text.replace("\r", "").splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(first))
    out = [lines[i]]
    for ln in lines[i + 1:]:
        if not ln.startswith("  ") and not ln.startswith("pkmap:"):
            break
        out.append(ln)
        if ln.startswith("pkmap:"):
            break
    return out


def without_running_stack(rows):
    """ps rows with the running thread's stack use blanked: the firmware's
    own ps runs deeper on that stack than the breakpoint did."""
    return [re.sub(r"(\s+running\s+.*\s)\d+/", r"\1?/", r) for r in rows]


def no_trace_image():
    """lokal trace on an ELF that links no switch trace says so (known from
    the ELF, before any target): not "empty", which means nothing recorded."""
    d = os.path.join(ROOT, "build", "check-shell", "no-trace")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "stub.c"), "w") as f:
        f.write("int counter;\nvoid _start(void) { for (;;) counter++; }\n")
    elf = os.path.join(d, "stub.elf")
    subprocess.run(["arm-none-eabi-gcc", "-g", "-nostdlib", "-mcpu=arm926ej-s", "-o", elf,
                    os.path.join(d, "stub.c")], check=True)
    r = subprocess.run(["gdb-multiarch", "-q", "-nx", "-batch", elf,
                        "-ex", "source %s" % os.path.join(ROOT, "tools", "gdb", "lokal.py"),
                        "-ex", "lokal trace"], capture_output=True, text=True, timeout=60)
    out = r.stdout + r.stderr
    check("lokal: this image has no switch trace" in out and "empty" not in out
          and "Traceback" not in out, "lokal trace without a trace buffer: %r" % out[-300:])


def gdb_commands(elf):
    port = free_port()
    q = Qemu(elf, port)
    try:
        early = subprocess.run(
            ["gdb-multiarch", "-q", "-nx", "-batch", elf, "-ex", "set architecture armv5te",
             "-ex", "source %s" % os.path.join(ROOT, "tools", "gdb", "lokal.py"),
             "-ex", "lokal ps",
             "-ex", "target remote 127.0.0.1:%d" % port, "-ex", "lokal ps", "-ex", "lokal frob",
             "-ex", "detach"],
            capture_output=True, text=True, timeout=60)
        out = early.stdout + early.stderr
        check("lokal: no target: connect first" in out, "lokal ps unconnected: %r" % out[-300:])
        check("lokal: no threads yet: the kernel has not started" in out,
              "lokal ps at reset: %r" % out[-300:])
        check("lokal: usage: lokal ps | lokal kmaps | lokal bt THREAD | lokal trace [N]" in out,
              "lokal frob: %r" % out[-300:])
        check("Traceback" not in out, "a Python traceback: %r" % out[-500:])
        no_trace_image()

        # Now with threads holding maps: the demo's mid-run thread_ps, with a
        # trace recording. IRQs are masked at the breakpoint, so nothing
        # switches between gdb's view and the firmware's.
        g = gdb_batch(elf, port, [
            "break thread_ps", "continue",
            "set $keep_cpsr = $cpsr", "set $cpsr = $cpsr | 0x80",
            "info registers", "echo =PS=\\n", "lokal ps", "echo =KMAPS=\\n", "lokal kmaps",
            "echo =BT=\\n", "lokal bt worker4", "echo =BTNONE=\\n", "lokal bt nosuch",
            "echo =TRACE=\\n", "lokal trace 5", "echo =END=\\n", "info registers",
            "echo =REGSEND=\\n",
            "call (int)cmd_kmaps(1, 0)", "call (int)fflush(0)",
            "finish", "call (int)fflush(0)",
            "set $cpsr = $keep_cpsr", "delete", "detach"])
        # wait for the stub to be attached before talking to the shell
        q.wait_for(rb"lokal> ", timeout=120)
        q.send(b"trace start\r")
        q.wait_for(rb"recording.*?lokal> ", timeout=60)
        q.send(b"demo\r")
        text = g.communicate(timeout=300)[0].decode(errors="replace")
        check(g.returncode == 0 and "=REGSEND=" in text, "gdb: %r" % text[-600:])
        check("Traceback" not in text, "a Python traceback: %r" % text[-600:])
        q.wait_for(rb"demo: exit status 0", timeout=300)
        console = q.out.decode(errors="replace")

        before = re.findall(r"^(r\d+|sp|lr|pc|cpsr)\s+(0x[0-9a-f]+)", text.split("=PS=")[0], re.M)
        after = re.findall(r"^(r\d+|sp|lr|pc|cpsr)\s+(0x[0-9a-f]+)",
                           section(text, "=END=", "=REGSEND="), re.M)
        check(len(before) >= 16 and before[-17:] == after[-17:],
              "registers changed by lokal bt: %r vs %r" % (before[-17:], after[-17:]))

        ps_gdb = table(section(text, "=PS=", "=KMAPS="), "  THREAD ")
        kmaps_gdb = table(section(text, "=KMAPS=", "=BT="), "  THREAD ")
        # the firmware's own output after the breakpoint: cmd_kmaps, then thread_ps
        after_bp = console.split("demo: ", 1)[1]
        kmaps_fw = table(after_bp[after_bp.index("  THREAD          DEPTH"):], "  THREAD ")
        rest = after_bp[after_bp.index("pkmap: "):]
        ps_fw = table(rest[rest.index("  THREAD          STATE"):], "  THREAD ")
        check(len(ps_gdb) >= 9, "lokal ps: %r" % ps_gdb)
        check(without_running_stack([r.rstrip() for r in ps_gdb]) ==
              without_running_stack([r.rstrip() for r in ps_fw]),
              "lokal ps %r != firmware ps %r" % (ps_gdb, ps_fw))
        check([r.rstrip() for r in kmaps_gdb] == [r.rstrip() for r in kmaps_fw],
              "lokal kmaps %r != firmware kmaps %r" % (kmaps_gdb, kmaps_fw))
        check(any(re.match(r"\s+worker\d\s+[1-9]", r) for r in kmaps_gdb),
              "no worker held a local kmap at the breakpoint: %r" % kmaps_gdb)

        bt = section(text, "=BT=", "=BTNONE=")
        # worker4 has run and was switched out: its backtrace starts in the
        # switch path its saved context returns to (a thread that yielded
        # unwinds to worker_fn; one preempted by an IRQ stops at the IRQ entry)
        check(re.search(r"thread worker4 \(\w+\), resumes at 0x", bt) and
              re.search(r"#0 .*\b(finish_switch|context_switch|schedule|__switch_to|kmap_sched_in_pending)\b", bt) and
              re.search(r"^#1 ", bt, re.M), "lokal bt worker4: %r" % bt)
        bad = section(text, "=BTNONE=", "=TRACE=")
        check(bad.strip().startswith("lokal: no thread named 'nosuch' (threads: idle, main"),
              "lokal bt nosuch: %r" % bad)
        tr = section(text, "=TRACE=", "=END=")
        rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)$", tr, re.M)
        names = {r.split()[0] for r in ps_gdb[1:]}
        check(re.search(r"trace: \d+ events, \d+ switches \(recording\); the last 5:", tr) and
              len(rows) == 5 and all(n in names for *_, n in rows),
              "lokal trace 5: %r" % tr)
    finally:
        q.kill()
