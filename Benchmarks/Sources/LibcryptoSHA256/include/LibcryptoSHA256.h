#ifndef KALENDS_LIBCRYPTO_SHA256_H
#define KALENDS_LIBCRYPTO_SHA256_H

// SHA-256 through OpenSSL's libcrypto (Debian's libssl-dev), for the benchmarks only: a yardstick
// for the SHA-256 that swift-crypto gives the log. <openssl/*.h> stays inside the .c file. Each
// function hashes `size` bytes at `data` into the 32 bytes at `digest`.

#include <stddef.h>
#include <stdint.h>

/// The one-shot `SHA256()`.
void libcrypto_sha256_oneshot(const void *data, size_t size, uint8_t digest[32]);

/// `SHA256_Init`, `SHA256_Update`, `SHA256_Final` on a context on the stack: the low-level calls,
/// deprecated since OpenSSL 3.0 but still the cheapest shape of the library.
void libcrypto_sha256_context(const void *data, size_t size, uint8_t digest[32]);

/// `EVP_Digest` with the implementation fetched anew by name on every call (`EVP_sha256()`).
void libcrypto_sha256_evp_digest(const void *data, size_t size, uint8_t digest[32]);

/// `EVP_DigestInit_ex2`, `EVP_DigestUpdate`, `EVP_DigestFinal_ex` with an implementation fetched once
/// and one context reused for every call: the cheapest EVP shape. Not thread-safe.
void libcrypto_sha256_evp_reused(const void *data, size_t size, uint8_t digest[32]);

#endif
