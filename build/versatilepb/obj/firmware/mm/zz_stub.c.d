build/versatilepb/obj/firmware/mm/zz_stub.c.o: firmware/mm/zz_stub.c \
 build/versatilepb/include/lokal/mm.h arch/arm/include/asm/memory.h \
 build/versatilepb/include/generated/config.h board/versatilepb/board.h
build/versatilepb/include/lokal/mm.h:
arch/arm/include/asm/memory.h:
build/versatilepb/include/generated/config.h:
board/versatilepb/board.h:
