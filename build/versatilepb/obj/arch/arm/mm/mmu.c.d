build/versatilepb/obj/arch/arm/mm/mmu.c.o: arch/arm/mm/mmu.c \
 arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h \
 arch/arm/include/asm/pgtable.h arch/arm/include/asm/cacheflush.h \
 arch/arm/include/asm/highmem.h arch/arm/include/asm/tlbflush.h \
 arch/arm/include/asm/kmap_size.h arch/arm/include/asm/fixmap.h \
 arch/arm/include/asm/cp15.h arch/arm/include/asm/mach.h \
 firmware/include/lokal/bug.h
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
arch/arm/include/asm/pgtable.h:
arch/arm/include/asm/cacheflush.h:
arch/arm/include/asm/highmem.h:
arch/arm/include/asm/tlbflush.h:
arch/arm/include/asm/kmap_size.h:
arch/arm/include/asm/fixmap.h:
arch/arm/include/asm/cp15.h:
arch/arm/include/asm/mach.h:
firmware/include/lokal/bug.h:
