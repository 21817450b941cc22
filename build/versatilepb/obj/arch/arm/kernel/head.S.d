build/versatilepb/obj/arch/arm/kernel/head.S.o: arch/arm/kernel/head.S \
 arch/arm/include/asm/ptrace.h
arch/arm/include/asm/ptrace.h:
