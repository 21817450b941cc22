#!/usr/bin/env bash
# `make check-vivt-model`: the memory-system model's unit tests, the ARM
# programs that each commit one violation (arm/run.sh) and the model's
# mutants (model-mutants.sh, memsys/mutants.list), as one TAP stream to TAP_OUT (and stdout);
# exits non-zero on any failure.
#   tools/vivt-emu/tests/check-model.sh UNIT-TEST VIVT-EMU OUTDIR TAP_OUT
set -uo pipefail
unit=$1 emu=$2 out=$3
here=$(dirname "$0")
. "$here/../../../tests/lib/tap.sh"
mkdir -p "$out"
tap_open "$4"
tap_from "vivt model unit tests" tap_timeout 120 "$unit"
tap_from "vivt own tests" tap_timeout 300 "$here/arm/run.sh" "$emu" "$out/arm"
# Its summary figure (model mutants killed K/N) joins this stream's.
summary=
[ "$TAP_FILE" = /dev/stdout ] || summary=$TAP_FILE.summary
TAP=/dev/stdout TAP_SUMMARY=$summary tap_from "vivt model mutants" tap_timeout 600 "$here/model-mutants.sh" "$out/mutants"
tap_close
