#define OPENSSL_SUPPRESS_DEPRECATED
#include "LibcryptoSHA256.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdlib.h>

void libcrypto_sha256_oneshot(const void *data, size_t size, uint8_t digest[32]) {
  SHA256(data, size, digest);
}

void libcrypto_sha256_context(const void *data, size_t size, uint8_t digest[32]) {
  SHA256_CTX context;
  SHA256_Init(&context);
  SHA256_Update(&context, data, size);
  SHA256_Final(digest, &context);
}

void libcrypto_sha256_evp_digest(const void *data, size_t size, uint8_t digest[32]) {
  if (!EVP_Digest(data, size, digest, NULL, EVP_sha256(), NULL)) abort();
}

void libcrypto_sha256_evp_reused(const void *data, size_t size, uint8_t digest[32]) {
  static EVP_MD *md;
  static EVP_MD_CTX *context;
  if (md == NULL) {
    md = EVP_MD_fetch(NULL, "SHA256", NULL);
    context = EVP_MD_CTX_new();
    if (md == NULL || context == NULL) abort();
  }
  if (!EVP_DigestInit_ex2(context, md, NULL) || !EVP_DigestUpdate(context, data, size) ||
      !EVP_DigestFinal_ex(context, digest, NULL))
    abort();
}
