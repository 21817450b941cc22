build/versatilepb/obj/arch/arm/kernel/entry.S.o: arch/arm/kernel/entry.S \
 arch/arm/include/asm/ptrace.h
arch/arm/include/asm/ptrace.h:
