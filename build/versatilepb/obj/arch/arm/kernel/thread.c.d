build/versatilepb/obj/arch/arm/kernel/thread.c.o: \
 arch/arm/kernel/thread.c arch/arm/include/asm/switch_to.h
arch/arm/include/asm/switch_to.h:
