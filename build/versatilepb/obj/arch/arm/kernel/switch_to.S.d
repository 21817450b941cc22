build/versatilepb/obj/arch/arm/kernel/switch_to.S.o: \
 arch/arm/kernel/switch_to.S
