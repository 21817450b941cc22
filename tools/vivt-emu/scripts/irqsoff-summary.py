#!/usr/bin/env python3
"""The interrupts-off figures of a set of vivt-emu runs (check-vivt,
check-vivt-at91sam9g20-ek): the longest thread-context window over all runs, the
longest handler window per vector and IRQ line, the longest preempt-off
windows, and every run whose longest thread-context window is above the
bound.  Read from each run's stats file (vivt-emu --stats-file: the
irqsoff.* keys), never from its printed report.

  irqsoff-summary.py PREFIX BOUND RUNS DIR [--preempt-bound P] [--handler-kernel-bound H] [--over FILE]
                              runs.txt lines (label|...|args), DIR/<n>.log.stats
                              (tests/run-image's)
  irqsoff-summary.py PREFIX BOUND --stats STATS [--preempt-bound P [--preempt-who W]] [--over FILE]
                              one stats file (the calibration image)
  irqsoff-summary.py --bounds prints the check's three bounds (THREAD_BOUND
                              PREEMPT_BOUND HANDLER_KERNEL_BOUND below)

BOUND holds for every thread-context IRQs-off window; P, when given, for
every preemption-off window the kernel opened (W: 'app' checks the
application's instead, for the calibration image, whose windows are its own);
H, when given, for the kernel's part of every handler window.
Exit status 1 when some run is above a bound (each such run then gets a line
'PREFIX: over the bound: WHAT above N instructions in LABEL: M instructions,
opened at ..., closed at ...', and with --over the same without the prefix in FILE, for the check's verdict),
2 on bad input, when no run was measured, or when a run's stats file lacks
the irqsoff figures (so the check cannot pass on figures that went
missing); a run with no stats file (it crashed, or was killed: its own
check says so) is skipped.
"""
import os
import re
import sys

# The real-time bounds Lokal keeps, in instructions: every IRQs-off window
# in thread context, and every preemption-off window the kernel opens.
THREAD_BOUND = 200
PREEMPT_BOUND = 1000
# The kernel's part of an interrupt handler's window (entry, dispatch,
# wake-ups, the switch and its kmap work; not the handler's own code).
# The bench reports against it and the check holds every run to it, debug
# builds included.
HANDLER_KERNEL_BOUND = 300

# The stats file's window keys (irqsoff.<window>.*) as the report names them.
VECTORS = {"reset": "reset", "undefined": "undefined", "svc": "SVC", "prefetch_abort": "prefetch abort",
           "data_abort": "data abort", "fiq": "FIQ"}
WHO = {"kernel": "the kernel", "app": "an application"}


def window_name(key):
    """What the report calls window KEY; None for the per-site ranks (the summary keeps the longest only)."""
    kind, _, sub = key.partition(".")
    if kind == "thread" and not sub:
        return "irqs-off thread max"
    if kind == "thread" and sub in WHO:
        return f"irqs-off thread max, opened by {WHO[sub]}"
    if kind == "handler_kernel" and not sub:
        return "irqs-off handler, kernel part"
    if kind == "handler" and sub.startswith("line") and sub[4:].isdigit():
        return f"irqs-off handler IRQ line {int(sub[4:])}"
    if kind == "handler":
        return f"irqs-off handler {VECTORS.get(sub, sub.replace('_', ' '))}"
    if kind == "preempt" and sub in WHO:
        return f"preempt-off max, opened by {WHO[sub]}"
    return None


def read_stats(path):
    """A stats file's key=value lines as a dict; empty when there is no such file."""
    stats = {}
    try:
        with open(path, errors="replace") as f:
            for line in f:
                key, eq, value = line.rstrip("\n").partition("=")
                if eq:
                    stats[key] = value
    except OSError:
        pass
    return stats


def read_windows(path):
    """A run's windows by the report's name, as (instructions, estimated cycles,
    "opened at ..., closed at ..."), and its longest thread window (None when
    there is no stats file). ValueError when the file lacks the figures."""
    stats = read_stats(path)
    if not stats:
        return {}, None
    thread = stats.get("irqsoff.thread_max", "")
    if not thread.isdigit():
        raise ValueError(f"{path}: no irqsoff.thread_max figure")
    windows = {}
    for key, value in stats.items():
        m = re.fullmatch(r"irqsoff\.(.+)\.insns", key)
        name = m and window_name(m.group(1))
        if not name or not value.isdigit():
            continue
        field = {f: stats.get(f"irqsoff.{m.group(1)}.{f}", "?") for f in ("cycles", "opened", "closed")}
        where = f"opened at {field['opened']}, closed at {field['closed']}"
        if m.group(1) == "handler_kernel":
            # No cycle estimate: the counters are the whole window's, own code included.
            get = lambda f: stats.get(f"irqsoff.handler_kernel.{f}", "?")
            where = (f"IRQ line {get('line')}, a {get('window')}-instruction window of which the "
                     f"handler's own code {get('own')}, closed at {field['closed']}")
        windows[name] = (int(value), int(field["cycles"]) if field["cycles"].isdigit() else 0, where)
    return windows, int(thread)


def take_option(argv, name):
    """argv without option NAME and its value, and the value (None when absent); ValueError when it has none."""
    if name not in argv:
        return argv, None
    i = argv.index(name)
    if i + 1 >= len(argv):
        raise ValueError(f'{name} needs a value')
    return argv[:i] + argv[i + 2:], argv[i + 1]


def main(argv):
    if argv[1:] == ['--bounds']:
        print(THREAD_BOUND, PREEMPT_BOUND, HANDLER_KERNEL_BOUND)
        return 0
    try:
        argv, over_file = take_option(argv, '--over')
        argv, pbound = take_option(argv, '--preempt-bound')
        argv, pwho = take_option(argv, '--preempt-who')
        argv, hbound = take_option(argv, '--handler-kernel-bound')
        pbound = None if pbound is None else int(pbound)
        hbound = None if hbound is None else int(hbound)
    except ValueError as e:
        print(f'irqsoff-summary: {e}', file=sys.stderr)
        return 2
    if pwho not in (None, 'kernel', 'app'):
        print(f'irqsoff-summary: --preempt-who is kernel or app, not {pwho!r}', file=sys.stderr)
        return 2
    pkind = f'preempt-off max, opened by {WHO[pwho or "kernel"]}'
    if len(argv) == 5 and argv[3] == '--stats':
        runs = [('calibration', argv[4])]
    elif len(argv) == 5:
        try:
            with open(argv[3]) as f:
                labels = [l.rstrip('\n').split('|') for l in f if l.strip()]
        except OSError as e:
            print(f'irqsoff-summary: {e}', file=sys.stderr)
            return 2
        runs = [(f'{l[0]} ({l[-1]})', os.path.join(argv[4], f'{i}.log.stats')) for i, l in enumerate(labels, 1)]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    prefix = argv[1]
    try:
        bound = int(argv[2])
    except ValueError:
        print(f'irqsoff-summary: the bound must be a number, not {argv[2]!r}', file=sys.stderr)
        return 2
    best, over, measured = {}, [], 0
    for label, stats in runs:
        try:
            windows, thread = read_windows(stats)
        except ValueError as e:
            print(f'irqsoff-summary: {e}', file=sys.stderr)
            return 2
        if thread is None:
            continue
        measured += 1
        if thread > bound:
            over.append((thread, label, windows.get('irqs-off thread max', (0, 0, 'where not reported'))[2],
                         f'thread-context IRQs-off window above {bound}'))
        if pbound is not None and windows.get(pkind, (0,))[0] > pbound:
            over.append((windows[pkind][0], label, windows[pkind][2],
                         f'{pkind.replace(" max", "")} window above {pbound}'))
        hk = 'irqs-off handler, kernel part'
        if hbound is not None and windows.get(hk, (0,))[0] > hbound:
            over.append((windows[hk][0], label, windows[hk][2], f'handler window\'s kernel part above {hbound}'))
        for kind, (insns, cycles, where) in windows.items():
            if kind not in best or insns > best[kind][0]:
                best[kind] = (insns, cycles, where, label)
    print(f'{prefix}: IRQs-off windows measured in {measured} of {len(runs)} runs')
    if not measured:
        print('irqsoff-summary: no run left a stats file', file=sys.stderr)
        return 2
    order = sorted(best, key=lambda k: (not k.startswith('irqs-off thread'), not k.startswith('irqs-off handler'),
                                        [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', k)]))
    for kind in order:
        insns, cycles, where, label = best[kind]
        est = f' (~{cycles} ARM926 cycles)' if cycles else ''
        print(f'{prefix}: longest {kind.replace(" max", "")}: {insns} instructions{est} in {label}: {where}')
    if over:
        over.sort(reverse=True)
        shown = ', '.join(f'{label}: {n}' for n, label, _, _ in over[:6])
        print(f'{prefix}: {len(over)} window(s) above their bound in {measured} runs '
              f'({shown}{", ..." if len(over) > 6 else ""})')
        lines = [f'{what} instructions in {label}: {n} instructions, {where}' for n, label, where, what in over]
        for line in lines:
            print(f'{prefix}: over the bound: {line}')
        if over_file:
            # One line per window for the check's verdict (a TAP line each).
            with open(over_file, 'w') as f:
                f.write(''.join(line + '\n' for line in lines))
        return 1
    print(f'{prefix}: every thread-context IRQs-off window within {bound} instructions')
    if pbound is not None:
        print(f'{prefix}: every {pkind.replace(" max", "")} window within {pbound} instructions')
    if hbound is not None:
        print(f"{prefix}: every handler window's kernel part within {hbound} instructions")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
