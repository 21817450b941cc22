#!/usr/bin/env python3
"""The interrupts-off figures of a set of vivt-emu runs (check-vivt,
check-vivt-at91): the longest thread-context window over all runs, the
longest handler window per vector and IRQ line, the longest preempt-off
windows, and every run whose longest thread-context window is above the
bound.

  irqsoff-summary.py PREFIX BOUND RUNS DIR   runs.txt lines (label|...|args), DIR/<n>.log
  irqsoff-summary.py PREFIX BOUND --log LOG  one log (the calibration image)

Exit status 1 when some run is above BOUND (each such run then gets a line
'PREFIX: over the bound: LABEL: N instructions, opened at ..., closed at ...'),
2 on bad input; a run whose log
has no irqsoff-summary line (it crashed: its own check says so) is skipped.
"""
import os
import re
import sys

WINDOW = re.compile(r'^vivt-emu: (irqs-off thread max(?:, opened by [^:]+)?|irqs-off handler [^:]+|preempt-off max, opened by [^:]+): '
                    r'(\d+) instructions, ~(\d+) ARM926 cycles[^,]*, (.*)$')
SUMMARY = re.compile(r'^vivt-emu: irqsoff-summary thread=(\d+) ')


def read_log(path):
    """The run's windows by kind, and its longest thread window (None if the line is missing)."""
    windows, thread = {}, None
    try:
        with open(path, errors='replace') as f:
            for line in f:
                m = WINDOW.match(line)
                if m:
                    windows[m.group(1)] = (int(m.group(2)), int(m.group(3)), m.group(4).strip())
                m = SUMMARY.match(line)
                if m:
                    thread = int(m.group(1))
    except OSError:
        pass
    return windows, thread


def main(argv):
    if len(argv) == 5 and argv[3] == '--log':
        runs = [('calibration', argv[4])]
    elif len(argv) == 5:
        try:
            with open(argv[3]) as f:
                labels = [l.rstrip('\n').split('|') for l in f if l.strip()]
        except OSError as e:
            print(f'irqsoff-summary: {e}', file=sys.stderr)
            return 2
        runs = [(f'{l[0]} ({l[-1]})', os.path.join(argv[4], f'{i}.log')) for i, l in enumerate(labels, 1)]
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
    for label, log in runs:
        windows, thread = read_log(log)
        if thread is None:
            continue
        measured += 1
        if thread > bound:
            over.append((thread, label, windows.get('irqs-off thread max', (0, 0, 'where not reported'))[2]))
        for kind, (insns, cycles, where) in windows.items():
            if kind not in best or insns > best[kind][0]:
                best[kind] = (insns, cycles, where, label)
    print(f'{prefix}: IRQs-off windows measured in {measured} of {len(runs)} runs')
    order = sorted(best, key=lambda k: (not k.startswith('irqs-off thread'), not k.startswith('irqs-off handler'),
                                        [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', k)]))
    for kind in order:
        insns, cycles, where, label = best[kind]
        print(f'{prefix}: longest {kind.replace(" max", "")}: {insns} instructions (~{cycles} ARM926 cycles) '
              f'in {label}: {where}')
    if over:
        over.sort(reverse=True)
        shown = ', '.join(f'{label}: {n}' for n, label, _ in over[:6])
        print(f'{prefix}: thread-context IRQs-off window above {bound} instructions in {len(over)} of '
              f'{measured} runs ({shown}{", ..." if len(over) > 6 else ""})')
        # One line per run for the check's verdict (a TAP line each).
        for n, label, where in over:
            print(f'{prefix}: over the bound: {label}: {n} instructions, {where}')
        return 1
    print(f'{prefix}: every thread-context IRQs-off window within {bound} instructions')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
