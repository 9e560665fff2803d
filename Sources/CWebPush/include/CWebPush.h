#ifndef CWEBPUSH_H
#define CWEBPUSH_H

#include <stddef.h>
#include <stdint.h>

/// The NIST P-256 and AES-128-GCM operations Web Push needs (RFC 8291 message encryption, RFC
/// 8292 VAPID), on the system's OpenSSL libcrypto. Keys are raw: a private key is its 32-byte
/// scalar, a public key its 65-byte uncompressed point (0x04 ‖ x ‖ y). Each function returns 1 on
/// success and 0 on failure (a malformed key, a point not on the curve), writing nothing then.

/// Makes a key pair.
int cwebpush_p256_generate(uint8_t private_key[32], uint8_t public_key[65]);

/// The public key of `private_key`.
int cwebpush_p256_public(const uint8_t private_key[32], uint8_t public_key[65]);

/// ECDH: the 32-byte shared secret (the x coordinate) of `private_key` and `peer_public_key`.
int cwebpush_p256_ecdh(const uint8_t private_key[32], const uint8_t peer_public_key[65], uint8_t secret[32]);

/// A P-256 public key decoded once (a subscription's `p256dh`), for many ECDHs with it.
typedef struct cwebpush_peer cwebpush_peer;

/// Decodes `public_key`; NULL when it is not a point of the curve in uncompressed form.
cwebpush_peer *cwebpush_peer_new(const uint8_t public_key[65]);

/// Frees a key of `cwebpush_peer_new`.
void cwebpush_peer_free(cwebpush_peer *peer);

/// ECDH with a new key pair: makes one, writes its public key to `own_public_key` and the shared
/// secret with `peer` to `secret` — what each Web Push message needs, in one key generation and
/// one point multiplication by the peer's point. `peer` may be used by several threads at once.
int cwebpush_p256_ephemeral_ecdh(const cwebpush_peer *peer, uint8_t own_public_key[65], uint8_t secret[32]);

/// ECDSA with SHA-256 (ES256) over `message`: the signature as r ‖ s, 32 bytes each.
int cwebpush_p256_sign(const uint8_t private_key[32], const uint8_t *message, size_t length, uint8_t signature[64]);

/// AES-128-GCM: `length` bytes of `plaintext` sealed under `key` and `nonce` into `sealed`, which
/// takes `length + 16` bytes (the ciphertext, then the tag); no additional data.
int cwebpush_aes128gcm_seal(
    const uint8_t key[16], const uint8_t nonce[12], const uint8_t *plaintext, size_t length, uint8_t *sealed);

/// HMAC-SHA-256 of `message` under `key`.
int cwebpush_hmac_sha256(
    const uint8_t *key, size_t key_length, const uint8_t *message, size_t length, uint8_t mac[32]);

#endif
