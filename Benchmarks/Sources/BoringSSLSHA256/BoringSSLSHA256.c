#include "BoringSSLSHA256.h"

// Declared here rather than included: swift-crypto does not export its BoringSSL headers. Resolved
// at link time from the CCryptoBoringSSL objects that every product using Crypto links.
extern uint8_t *CCryptoBoringSSL_SHA256(const uint8_t *data, size_t len, uint8_t out[32]);

void boringssl_sha256_oneshot(const void *data, size_t size, uint8_t *digest) {
  CCryptoBoringSSL_SHA256(data, size, digest);
}
