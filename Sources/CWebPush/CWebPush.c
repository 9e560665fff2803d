#include "CWebPush.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// The algorithms fetched once from the default provider: fetching by name on each call walks the
/// provider's tables, which costs more than a message's HMACs.
static EVP_MAC *hmac_algorithm;
static EVP_CIPHER *aes128gcm_algorithm;
static pthread_once_t fetched = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void) {
  hmac_algorithm = EVP_MAC_fetch(NULL, "HMAC", NULL);
  aes128gcm_algorithm = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
}

/// Whether `point` is a point of P-256 in uncompressed form.
static int is_point(const EC_GROUP *group, const uint8_t point[65]) {
  if (point[0] != 0x04) return 0;
  EC_POINT *decoded = EC_POINT_new(group);
  int ok = decoded != NULL && EC_POINT_oct2point(group, decoded, point, 65, NULL) == 1;
  EC_POINT_free(decoded);
  return ok;
}

/// The public point of the scalar `private_key`, when it is a valid one (1 ≤ d < n).
static int public_point(const EC_GROUP *group, const BIGNUM *scalar, uint8_t public_key[65]) {
  int ok = 0;
  EC_POINT *point = EC_POINT_new(group);
  BIGNUM *order = BN_new();
  if (point == NULL || order == NULL) goto done;
  if (EC_GROUP_get_order(group, order, NULL) != 1 || BN_is_zero(scalar) || BN_cmp(scalar, order) >= 0) goto done;
  if (EC_POINT_mul(group, point, scalar, NULL, NULL, NULL) != 1) goto done;
  ok = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, public_key, 65, NULL) == 65;
done:
  EC_POINT_free(point);
  BN_free(order);
  return ok;
}

/// An EVP key of P-256 from a raw private scalar (with its public point) or, when `private_key` is
/// NULL, from a public point alone.
static EVP_PKEY *make_key(const uint8_t *private_key, const uint8_t public_key[65]) {
  EVP_PKEY *key = NULL;
  BIGNUM *scalar = NULL;
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = NULL;
  OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
  if (builder == NULL) goto done;
  if (OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1) goto done;
  if (OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, public_key, 65) != 1) goto done;
  if (private_key != NULL) {
    scalar = BN_bin2bn(private_key, 32, NULL);
    if (scalar == NULL || OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, scalar) != 1) goto done;
  }
  params = OSSL_PARAM_BLD_to_param(builder);
  context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  if (params == NULL || context == NULL || EVP_PKEY_fromdata_init(context) != 1) goto done;
  if (EVP_PKEY_fromdata(context, &key, private_key != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1) {
    key = NULL;
  }
done:
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(builder);
  BN_clear_free(scalar);
  return key;
}

/// The EVP key of a raw private scalar, its public point written to `public_key`.
static EVP_PKEY *private_key_of(const uint8_t private_key[32], uint8_t public_key[65]) {
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  BIGNUM *scalar = BN_bin2bn(private_key, 32, NULL);
  EVP_PKEY *key = NULL;
  if (group != NULL && scalar != NULL && public_point(group, scalar, public_key)) {
    key = make_key(private_key, public_key);
  }
  BN_clear_free(scalar);
  EC_GROUP_free(group);
  return key;
}

int cwebpush_p256_generate(uint8_t private_key[32], uint8_t public_key[65]) {
  EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
  BIGNUM *scalar = NULL;
  int ok = key != NULL && EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) == 1
    && BN_bn2binpad(scalar, private_key, 32) == 32;
  BN_clear_free(scalar);
  EVP_PKEY_free(key);
  return ok && cwebpush_p256_public(private_key, public_key);
}

int cwebpush_p256_public(const uint8_t private_key[32], uint8_t public_key[65]) {
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  BIGNUM *scalar = BN_bin2bn(private_key, 32, NULL);
  int ok = group != NULL && scalar != NULL && public_point(group, scalar, public_key);
  BN_clear_free(scalar);
  EC_GROUP_free(group);
  return ok;
}

int cwebpush_p256_ecdh(const uint8_t private_key[32], const uint8_t peer_public_key[65], uint8_t secret[32]) {
  int ok = 0;
  uint8_t own_public[65];
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  EVP_PKEY *own = private_key_of(private_key, own_public);
  EVP_PKEY *peer = NULL;
  EVP_PKEY_CTX *context = NULL;
  size_t length = 32;
  if (group == NULL || own == NULL || !is_point(group, peer_public_key)) goto done;
  peer = make_key(NULL, peer_public_key);
  context = EVP_PKEY_CTX_new(own, NULL);
  if (peer == NULL || context == NULL || EVP_PKEY_derive_init(context) != 1) goto done;
  if (EVP_PKEY_derive_set_peer(context, peer) != 1) goto done;
  ok = EVP_PKEY_derive(context, secret, &length) == 1 && length == 32;
done:
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(peer);
  EVP_PKEY_free(own);
  EC_GROUP_free(group);
  return ok;
}

struct cwebpush_peer {
  EVP_PKEY *key;
};

cwebpush_peer *cwebpush_peer_new(const uint8_t public_key[65]) {
  if (public_key[0] != 0x04) return NULL;
  // Decoding the point checks that it is on the curve; P-256's cofactor is 1, so that is all the
  // validation an ECDH with it needs (the derive's own check would multiply by the order again).
  EVP_PKEY *key = make_key(NULL, public_key);
  if (key == NULL) return NULL;
  cwebpush_peer *peer = malloc(sizeof *peer);
  if (peer == NULL) {
    EVP_PKEY_free(key);
    return NULL;
  }
  peer->key = key;
  return peer;
}

void cwebpush_peer_free(cwebpush_peer *peer) {
  if (peer == NULL) return;
  EVP_PKEY_free(peer->key);
  free(peer);
}

/// Each thread's context for making P-256 keys: set up once, as a new one costs as much as the key.
static _Thread_local EVP_PKEY_CTX *keygen_context;

static EVP_PKEY *new_p256_key(void) {
  if (keygen_context == NULL) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"P-256", 0), OSSL_PARAM_construct_end()};
    if (context == NULL || EVP_PKEY_keygen_init(context) != 1 || EVP_PKEY_CTX_set_params(context, params) != 1) {
      EVP_PKEY_CTX_free(context);
      return NULL;
    }
    keygen_context = context;
  }
  EVP_PKEY *key = NULL;
  return EVP_PKEY_generate(keygen_context, &key) == 1 ? key : NULL;
}

int cwebpush_p256_ephemeral_ecdh(const cwebpush_peer *peer, uint8_t own_public_key[65], uint8_t secret[32]) {
  int ok = 0;
  size_t public_length = 0;
  size_t length = 32;
  EVP_PKEY_CTX *context = NULL;
  EVP_PKEY *own = new_p256_key();
  if (peer == NULL || own == NULL) goto done;
  if (EVP_PKEY_get_octet_string_param(own, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, own_public_key, 65, &public_length) != 1
      || public_length != 65 || own_public_key[0] != 0x04) {
    goto done;
  }
  context = EVP_PKEY_CTX_new(own, NULL);
  if (context == NULL || EVP_PKEY_derive_init(context) != 1) goto done;
  if (EVP_PKEY_derive_set_peer_ex(context, peer->key, 0) != 1) goto done;
  ok = EVP_PKEY_derive(context, secret, &length) == 1 && length == 32;
done:
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(own);
  return ok;
}

int cwebpush_p256_sign(const uint8_t private_key[32], const uint8_t *message, size_t length, uint8_t signature[64]) {
  int ok = 0;
  uint8_t own_public[65];
  uint8_t der[80];
  size_t der_length = sizeof der;
  EVP_PKEY *key = private_key_of(private_key, own_public);
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  ECDSA_SIG *decoded = NULL;
  const unsigned char *cursor = der;
  if (key == NULL || context == NULL) goto done;
  if (EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) != 1) goto done;
  if (EVP_DigestSign(context, der, &der_length, message, length) != 1) goto done;
  decoded = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length);
  if (decoded == NULL) goto done;
  ok = BN_bn2binpad(ECDSA_SIG_get0_r(decoded), signature, 32) == 32
    && BN_bn2binpad(ECDSA_SIG_get0_s(decoded), signature + 32, 32) == 32;
done:
  ECDSA_SIG_free(decoded);
  EVP_MD_CTX_free(context);
  EVP_PKEY_free(key);
  return ok;
}

int cwebpush_aes128gcm_seal(
    const uint8_t key[16], const uint8_t nonce[12], const uint8_t *plaintext, size_t length, uint8_t *sealed) {
  int ok = 0;
  int written = 0;
  int final = 0;
  EVP_CIPHER_CTX *context = NULL;
  pthread_once(&fetched, fetch_algorithms);
  context = EVP_CIPHER_CTX_new();
  if (context == NULL || aes128gcm_algorithm == NULL || length > 0x7fffffff) goto done;
  if (EVP_EncryptInit_ex(context, aes128gcm_algorithm, NULL, NULL, NULL) != 1) goto done;
  if (EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) != 1) goto done;
  if (EVP_EncryptInit_ex(context, NULL, NULL, key, nonce) != 1) goto done;
  if (EVP_EncryptUpdate(context, sealed, &written, plaintext, (int)length) != 1) goto done;
  if (EVP_EncryptFinal_ex(context, sealed + written, &final) != 1) goto done;
  ok = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, sealed + length) == 1;
done:
  EVP_CIPHER_CTX_free(context);
  return ok;
}

int cwebpush_hmac_sha256(
    const uint8_t *key, size_t key_length, const uint8_t *message, size_t length, uint8_t mac[32]) {
  int ok = 0;
  size_t mac_length = 0;
  EVP_MAC_CTX *context = NULL;
  OSSL_PARAM params[] = {
    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0), OSSL_PARAM_construct_end()};
  pthread_once(&fetched, fetch_algorithms);
  if (hmac_algorithm == NULL) return 0;
  context = EVP_MAC_CTX_new(hmac_algorithm);
  if (context == NULL || EVP_MAC_init(context, key, key_length, params) != 1) goto done;
  if (EVP_MAC_update(context, message, length) != 1) goto done;
  ok = EVP_MAC_final(context, mac, &mac_length, 32) == 1 && mac_length == 32;
done:
  EVP_MAC_CTX_free(context);
  return ok;
}
