#ifndef KALENDS_BORINGSSL_SHA256_H
#define KALENDS_BORINGSSL_SHA256_H

// SHA-256 through the BoringSSL that swift-crypto vendors and links (its `CCryptoBoringSSL` target,
// not a product of the package), called straight from C: the same implementation as
// `Crypto.SHA256` without its Swift wrapper, to measure what the wrapper costs per hash. For the
// benchmarks only: the symbol is private to swift-crypto and may be renamed by any release.

#include <stddef.h>
#include <stdint.h>

/// BoringSSL's one-shot `SHA256()`: hashes `size` bytes at `data` into the 32 bytes at `digest`.
void boringssl_sha256_oneshot(const void *data, size_t size, uint8_t *digest);

#endif
