build/versatilepb/obj/firmware/lib/ringbuf.c.o: firmware/lib/ringbuf.c \
 firmware/include/lokal/ringbuf.h
firmware/include/lokal/ringbuf.h:
