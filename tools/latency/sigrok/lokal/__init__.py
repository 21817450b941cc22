'''
Lokal's marker pins: a high pulse on "switch" is one context switch (its
width the switch latency), a high pulse on "wake" is one wake-up (timer
expiry to the woken thread running). Each pulse is annotated with its
width, and a statistics row gives count, min, median, p99 and max so far,
nearest-rank, exactly as tools/latency/lokal-latency computes them on the
same capture. A pulse already high at the first sample or still high at
the last is left out, as lokal-latency leaves it out.

Install for PulseView by copying this directory to
~/.local/share/libsigrokdecode/decoders/lokal; use from sigrok-cli with
SIGROKDECODE_DIR=tools/latency/sigrok sigrok-cli -i capture.sr
-P lokal:switch=D0:wake=D1 (docs/board-flow.md).
'''

from .pd import Decoder
