// SHA-256 as FIPS 180-4 defines it. Two compression functions: one with the x86-64 SHA extensions
// (SHA-NI: SHA256RNDS2 does two rounds, SHA256MSG1/MSG2 extend the message schedule), chosen at
// first use when CPUID reports them, and a portable one.
#include "CSHA256.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_big_endian(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/// Compresses `blocks` 64-byte blocks from `data` into `state`.
static void compress_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
  for (; blocks > 0; blocks--, data += 64) {
    uint32_t w[64];
    for (int t = 0; t < 16; t++) w[t] = load_big_endian(data + 4 * t);
    for (int t = 16; t < 64; t++) {
      uint32_t s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3);
      uint32_t s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
      uint32_t t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      uint32_t t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

#if defined(__x86_64__)
// The same with the SHA extensions. The state is kept as the two registers the instructions work
// on: ABEF and CDGH (A in the highest lane). Each group of four rounds adds four message words to
// their constants; SHA256RNDS2 does two rounds with the low two, then two more with the high two.
// From round 16 on, the next four words come from the four before: MSG1 adds σ0 of the word after
// each of the oldest four, the words seven back are added, and MSG2 adds σ1 of the words two back.
#define KALENDS_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))

KALENDS_SHA_TARGET static inline __attribute__((always_inline)) void
load_state(const uint32_t state[8], __m128i *abef, __m128i *cdgh) {
  __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
  __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  *abef = _mm_alignr_epi8(cdab, efgh, 8);
  *cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
}

KALENDS_SHA_TARGET static inline __attribute__((always_inline)) void
store_state(uint32_t state[8], __m128i abef, __m128i cdgh) {
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

KALENDS_SHA_TARGET static inline __attribute__((always_inline)) void
load_block(const uint8_t *data, __m128i w[4]) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  for (int i = 0; i < 4; i++) {
    w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
  }
}

/// Rounds 4·group … 4·group+3.
KALENDS_SHA_TARGET static inline __attribute__((always_inline)) void
four_rounds(int group, __m128i w[4], __m128i *abef, __m128i *cdgh) {
  if (group >= 4) {
    // w[group % 4] holds words group*4-16…, the next slot words -12…, then -8… and -4….
    __m128i next = _mm_sha256msg1_epu32(w[group & 3], w[(group + 1) & 3]);
    next = _mm_add_epi32(next, _mm_alignr_epi8(w[(group + 3) & 3], w[(group + 2) & 3], 4));
    w[group & 3] = _mm_sha256msg2_epu32(next, w[(group + 3) & 3]);
  }
  __m128i message = _mm_add_epi32(w[group & 3], _mm_loadu_si128((const __m128i *)&K[4 * group]));
  // Two rounds give the new ABEF, and the old ABEF is the new CDGH: the first call leaves the
  // new ABEF in `cdgh`, the second one the next ABEF in `abef`, and `cdgh` then holds its CDGH.
  *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, message);
  *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(message, 0x0E));
}

KALENDS_SHA_TARGET static void compress_extensions(uint32_t state[8], const uint8_t *data, size_t blocks) {
  __m128i abef, cdgh;
  load_state(state, &abef, &cdgh);
  for (; blocks > 0; blocks--, data += 64) {
    const __m128i abef_before = abef, cdgh_before = cdgh;
    __m128i w[4];
    load_block(data, w);
#pragma clang loop unroll(full)
    for (int group = 0; group < 16; group++) four_rounds(group, w, &abef, &cdgh);
    abef = _mm_add_epi32(abef, abef_before);
    cdgh = _mm_add_epi32(cdgh, cdgh_before);
  }
  store_state(state, abef, cdgh);
}

/// Two independent messages of as many blocks, their rounds interleaved: each round waits for the
/// one before it, so one message leaves the SHA unit idle between rounds and two fill it.
KALENDS_SHA_TARGET static void compress_two_extensions(uint32_t state_a[8], const uint8_t *data_a,
                                                       uint32_t state_b[8], const uint8_t *data_b,
                                                       size_t blocks) {
  __m128i abef_a, cdgh_a, abef_b, cdgh_b;
  load_state(state_a, &abef_a, &cdgh_a);
  load_state(state_b, &abef_b, &cdgh_b);
  for (; blocks > 0; blocks--, data_a += 64, data_b += 64) {
    const __m128i abef_a_before = abef_a, cdgh_a_before = cdgh_a;
    const __m128i abef_b_before = abef_b, cdgh_b_before = cdgh_b;
    __m128i w_a[4], w_b[4];
    load_block(data_a, w_a);
    load_block(data_b, w_b);
#pragma clang loop unroll(full)
    for (int group = 0; group < 16; group++) {
      four_rounds(group, w_a, &abef_a, &cdgh_a);
      four_rounds(group, w_b, &abef_b, &cdgh_b);
    }
    abef_a = _mm_add_epi32(abef_a, abef_a_before);
    cdgh_a = _mm_add_epi32(cdgh_a, cdgh_a_before);
    abef_b = _mm_add_epi32(abef_b, abef_b_before);
    cdgh_b = _mm_add_epi32(cdgh_b, cdgh_b_before);
  }
  store_state(state_a, abef_a, cdgh_a);
  store_state(state_b, abef_b, cdgh_b);
}

static int has_extensions(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  int sse41 = (ecx >> 19) & 1, ssse3 = (ecx >> 9) & 1;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  int sha = (ebx >> 29) & 1;
  return sha && sse41 && ssse3;
}
#endif

typedef void (*compress_function)(uint32_t state[8], const uint8_t *data, size_t blocks);

/// The compression function: chosen at first use. Racing threads choose the same one, and a
/// pointer is written whole.
static compress_function chosen;

static compress_function compress(void) {
  compress_function function = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
  if (function) return function;
  function = compress_portable;
#if defined(__x86_64__)
  if (has_extensions()) function = compress_extensions;
#endif
  __atomic_store_n(&chosen, function, __ATOMIC_RELAXED);
  return function;
}

int kalends_sha256_is_accelerated(void) { return compress() != compress_portable; }

static const uint32_t initial_state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void kalends_sha256_init(kalends_sha256_context *context) {
  memcpy(context->state, initial_state, sizeof initial_state);
  context->length = 0;
  context->buffered = 0;
}

static void update(kalends_sha256_context *context, const void *data, size_t length,
                   compress_function function) {
  const uint8_t *bytes = data;
  context->length += length;
  if (context->buffered > 0) {
    size_t take = 64 - context->buffered;
    if (take > length) take = length;
    memcpy(context->buffer + context->buffered, bytes, take);
    context->buffered += (uint32_t)take;
    bytes += take;
    length -= take;
    if (context->buffered < 64) return;
    function(context->state, context->buffer, 1);
    context->buffered = 0;
  }
  if (length >= 64) {
    function(context->state, bytes, length / 64);
    bytes += length / 64 * 64;
    length %= 64;
  }
  if (length > 0) {
    memcpy(context->buffer, bytes, length);
    context->buffered = (uint32_t)length;
  }
}

static void final(kalends_sha256_context *context, uint8_t digest[32], compress_function function) {
  uint64_t bits = context->length * 8;
  uint8_t padding[72] = {0x80};
  // 0x80, zeros up to 56 bytes into a block, then the length in bits, big-endian.
  size_t zeros = (context->buffered < 56 ? 56 : 120) - context->buffered;
  for (int i = 0; i < 8; i++) padding[zeros + i] = (uint8_t)(bits >> (56 - 8 * i));
  update(context, padding, zeros + 8, function);
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(context->state[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(context->state[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(context->state[i] >> 8);
    digest[4 * i + 3] = (uint8_t)context->state[i];
  }
}

void kalends_sha256_update(kalends_sha256_context *context, const void *data, size_t length) {
  update(context, data, length, compress());
}

void kalends_sha256_final(kalends_sha256_context *context, uint8_t digest[32]) {
  final(context, digest, compress());
}

void kalends_sha256(const void *data, size_t length, uint8_t digest[32]) {
  compress_function function = compress();
  kalends_sha256_context context;
  kalends_sha256_init(&context);
  update(&context, data, length, function);
  final(&context, digest, function);
}

/// The two blocks of `0x01 ‖ children`, 65 bytes: the second holds the last child byte, the
/// padding and the length (520 bits).
static void node_blocks(const uint8_t children[64], uint8_t blocks[128]) {
  memset(blocks, 0, 128);
  blocks[0] = 0x01;
  memcpy(blocks + 1, children, 64);
  blocks[65] = 0x80;
  blocks[126] = 0x02;
  blocks[127] = 0x08;
}

static void store_digest(const uint32_t state[8], uint8_t digest[32]) {
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(state[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(state[i] >> 8);
    digest[4 * i + 3] = (uint8_t)state[i];
  }
}

void kalends_sha256_node(const uint8_t children[64], uint8_t digest[32]) {
  uint8_t blocks[128];
  node_blocks(children, blocks);
  uint32_t state[8];
  memcpy(state, initial_state, sizeof initial_state);
  compress()(state, blocks, 2);
  store_digest(state, digest);
}

void kalends_sha256_nodes2(const uint8_t children[128], uint8_t digests[64]) {
  compress_function function = compress();
#if defined(__x86_64__)
  if (function == compress_extensions) {
    uint8_t blocks_a[128], blocks_b[128];
    node_blocks(children, blocks_a);
    node_blocks(children + 64, blocks_b);
    uint32_t state_a[8], state_b[8];
    memcpy(state_a, initial_state, sizeof initial_state);
    memcpy(state_b, initial_state, sizeof initial_state);
    compress_two_extensions(state_a, blocks_a, state_b, blocks_b, 2);
    store_digest(state_a, digests);
    store_digest(state_b, digests + 32);
    return;
  }
#endif
  (void)function;
  kalends_sha256_node(children, digests);
  kalends_sha256_node(children + 64, digests + 32);
}

void kalends_sha256_portable(const void *data, size_t length, uint8_t digest[32]) {
  kalends_sha256_context context;
  kalends_sha256_init(&context);
  update(&context, data, length, compress_portable);
  final(&context, digest, compress_portable);
}
