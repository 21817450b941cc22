/* The demo's DMA phase (demo_dma.c). */
#ifndef DEMO_DMA_H
#define DEMO_DMA_H

#include <lokal/mm.h>

/*
 * Run it on nr spare highmem pages (their contents are overwritten);
 * returns the number of failures (bad copies, failed transfers, mappings
 * left), 0 when the phase passed or the board has no DMA engine for it.
 */
unsigned long demo_dma_phase(struct page **pages, unsigned long nr);

#endif
