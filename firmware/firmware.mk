# Portable kernel sources (every image links all of them; apps are separate).
FIRMWARE_SRCS := $(sort $(wildcard firmware/kernel/*.c firmware/mm/*.c firmware/lib/*.c))
