#ifndef KALENDS_CSHA256_H
#define KALENDS_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 (FIPS 180-4) for the log's hash chain, the digests of projections and the external
/// identifiers' digests: the x86-64 SHA extensions where the processor has them (a 64-byte block in
/// about 40 ns), portable C elsewhere. Nothing is allocated.
typedef struct {
  uint32_t state[8];
  /// Bytes hashed so far.
  uint64_t length;
  /// The bytes of an incomplete block, and how many there are.
  uint8_t buffer[64];
  uint32_t buffered;
} kalends_sha256_context;

void kalends_sha256_init(kalends_sha256_context *context);
void kalends_sha256_update(kalends_sha256_context *context, const void *data, size_t length);
/// Writes the 32-byte digest to `digest`; the context must be initialised again before reuse.
void kalends_sha256_final(kalends_sha256_context *context, uint8_t digest[32]);
/// `SHA-256(data)` in one call.
void kalends_sha256(const void *data, size_t length, uint8_t digest[32]);
/// `SHA-256(0x01 ‖ children)`: an interior node of an RFC 9162 Merkle tree over its two 32-byte
/// children, left then right.
void kalends_sha256_node(const uint8_t children[64], uint8_t digest[32]);
/// Two interior nodes at once: `children` holds the two nodes' children (left, right, left,
/// right) and `digests` receives their hashes in order. With the SHA extensions the two hashes'
/// rounds are interleaved, which costs little more than one.
void kalends_sha256_nodes2(const uint8_t children[128], uint8_t digests[64]);
/// Whether the blocks are compressed with the processor's SHA extensions.
int kalends_sha256_is_accelerated(void);
/// `SHA-256(data)` with the portable compression function, also where the extensions exist: what
/// other processors compute, for tests.
void kalends_sha256_portable(const void *data, size_t length, uint8_t digest[32]);

#endif
