# The example application: producer and consumer over a queue, a pool,
# time-outs and the board's DMA (README, "Your own application").
$(eval $(call app,pipeline))
