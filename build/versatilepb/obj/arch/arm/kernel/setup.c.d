build/versatilepb/obj/arch/arm/kernel/setup.c.o: arch/arm/kernel/setup.c \
 arch/arm/include/asm/setup.h arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h \
 arch/arm/include/asm/cp15.h arch/arm/include/asm/mach.h
arch/arm/include/asm/setup.h:
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
arch/arm/include/asm/cp15.h:
arch/arm/include/asm/mach.h:
