/* How many local kmaps one thread may nest. */
#ifndef ASM_KMAP_SIZE_H
#define ASM_KMAP_SIZE_H

#include <generated/config.h>

#if CONFIG_DEBUG_HIGHMEM
/* Every other slot is an unmapped guard page: twice the depth, plus one. */
# define KM_INCR        2
# define KM_MAX_IDX     33
#else
# define KM_INCR        1
# define KM_MAX_IDX     16
#endif

#endif
