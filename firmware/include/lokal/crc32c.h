/* CRC-32C (Castagnoli), as iSCSI and ext4 use it. */
#ifndef LOKAL_CRC32C_H
#define LOKAL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC over buf: start with crc32c(0, ...) and chain the results. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
