#!/usr/bin/env bash
# Install, only when missing, the Debian packages Lokal builds and tests with.
# Called by the Makefile before anything that needs a tool; safe to run often:
# when everything is present it only checks and exits.
set -euo pipefail

# package -> a file that proves it is installed
declare -A probe=(
  [gcc-arm-none-eabi]=/usr/bin/arm-none-eabi-gcc
  [libnewlib-arm-none-eabi]=/usr/lib/arm-none-eabi/lib/libc.a
  [qemu-system-arm]=/usr/bin/qemu-system-arm
  [gdb-multiarch]=/usr/bin/gdb-multiarch
  [openocd]=/usr/bin/openocd
  [libcmocka-dev]=/usr/include/cmocka.h
  [gcc]=/usr/bin/gcc
  [make]=/usr/bin/make
  [python3]=/usr/bin/python3
  [gnuplot-nox]=/usr/bin/gnuplot
  [clang]=/usr/bin/clang
  [libclang-rt-14-dev]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
  [libunicorn-dev]=/usr/include/unicorn/unicorn.h
  [sigrok-cli]=/usr/bin/sigrok-cli
)

missing=()
for pkg in "${!probe[@]}"; do
  [ -e "${probe[$pkg]}" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
