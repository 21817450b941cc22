build/versatilepb/obj/arch/arm/mm/cache-arm926.S.o: \
 arch/arm/mm/cache-arm926.S
