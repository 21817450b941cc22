build/versatilepb/obj/arch/arm/mm/tlb-arm926.S.o: \
 arch/arm/mm/tlb-arm926.S
