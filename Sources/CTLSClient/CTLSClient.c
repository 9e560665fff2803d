#include "CTLSClient.h"

#include <limits.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct ctls_session {
  SSL *ssl;
  /// What came from the network, for OpenSSL to read; and what OpenSSL wrote, for the network.
  /// Both owned by `ssl`.
  BIO *from_network;
  BIO *to_network;
  char error[256];
};

/// One context for every session of the process: the roots are located once (a directory of
/// hashed certificates is read lazily, per issuer).
static SSL_CTX *shared_context;
static char context_error[256];
static pthread_once_t context_made = PTHREAD_ONCE_INIT;

/// Writes OpenSSL's oldest queued error, or `fallback`, to `error`, and empties the queue.
static void describe(char *error, size_t size, const char *fallback) {
  unsigned long code = ERR_get_error();
  if (code != 0) {
    ERR_error_string_n(code, error, size);
  } else {
    snprintf(error, size, "%s", fallback);
  }
  ERR_clear_error();
}

static void make_context(void) {
  SSL_CTX *context = SSL_CTX_new(TLS_client_method());
  if (context == NULL) {
    describe(context_error, sizeof context_error, "no TLS context");
    return;
  }
  if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_default_verify_paths(context) != 1) {
    describe(context_error, sizeof context_error, "the system's roots could not be located");
    SSL_CTX_free(context);
    return;
  }
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
  shared_context = context;
}

/// Says why a call on `session` failed with `result`.
static void fail(ctls_session *session, int result, const char *doing) {
  int kind = SSL_get_error(session->ssl, result);
  long verified = SSL_get_verify_result(session->ssl);
  if (verified != X509_V_OK) {
    snprintf(session->error, sizeof session->error, "the server's certificate was refused: %s",
             X509_verify_cert_error_string(verified));
    ERR_clear_error();
  } else if (kind == SSL_ERROR_ZERO_RETURN) {
    snprintf(session->error, sizeof session->error, "the server closed the session during %s", doing);
  } else {
    char reason[200];
    describe(reason, sizeof reason, "a protocol error");
    snprintf(session->error, sizeof session->error, "%s failed: %s", doing, reason);
  }
}

ctls_session *ctls_session_new(const char *host, int host_is_address, char *error, size_t error_size) {
  pthread_once(&context_made, make_context);
  if (shared_context == NULL) {
    snprintf(error, error_size, "%s", context_error);
    return NULL;
  }
  ERR_clear_error();
  ctls_session *session = calloc(1, sizeof *session);
  if (session == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  session->ssl = SSL_new(shared_context);
  BIO *from_network = BIO_new(BIO_s_mem());
  BIO *to_network = BIO_new(BIO_s_mem());
  if (session->ssl == NULL || from_network == NULL || to_network == NULL) {
    describe(error, error_size, "no TLS session");
    BIO_free(from_network);
    BIO_free(to_network);
    SSL_free(session->ssl);
    free(session);
    return NULL;
  }
  // An empty buffer means "more is coming", not the end of the stream: the connection's end is
  // the caller's to tell.
  BIO_set_mem_eof_return(from_network, -1);
  SSL_set_bio(session->ssl, from_network, to_network);
  session->from_network = from_network;
  session->to_network = to_network;
  SSL_set_connect_state(session->ssl);
  int named;
  if (host_is_address) {
    named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session->ssl), host);
  } else {
    SSL_set_hostflags(session->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    named = SSL_set_tlsext_host_name(session->ssl, host) == 1 && SSL_set1_host(session->ssl, host) == 1;
  }
  if (named != 1) {
    describe(error, error_size, "the host cannot be checked against a certificate");
    ctls_session_free(session);
    return NULL;
  }
  return session;
}

void ctls_session_free(ctls_session *session) {
  if (session == NULL) return;
  SSL_free(session->ssl);
  free(session);
}

int ctls_feed(ctls_session *session, const uint8_t *bytes, size_t count) {
  while (count > 0) {
    int chunk = count > INT_MAX ? INT_MAX : (int)count;
    int written = BIO_write(session->from_network, bytes, chunk);
    if (written <= 0) {
      snprintf(session->error, sizeof session->error, "the received bytes could not be taken");
      return 0;
    }
    bytes += written;
    count -= (size_t)written;
  }
  return 1;
}

int ctls_handshake(ctls_session *session) {
  ERR_clear_error();
  int result = SSL_do_handshake(session->ssl);
  if (result == 1) return 1;
  int kind = SSL_get_error(session->ssl, result);
  if (kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE) return 0;
  fail(session, result, "the handshake");
  return -1;
}

int ctls_write(ctls_session *session, const uint8_t *bytes, size_t count) {
  if (count == 0) return 1;
  ERR_clear_error();
  size_t written = 0;
  int result = SSL_write_ex(session->ssl, bytes, count, &written);
  if (result == 1 && written == count) return 1;
  fail(session, result, "encrypting");
  return -1;
}

long ctls_read(ctls_session *session, uint8_t *buffer, size_t capacity) {
  ERR_clear_error();
  size_t read = 0;
  int result = SSL_read_ex(session->ssl, buffer, capacity, &read);
  if (result == 1) return (long)read;
  int kind = SSL_get_error(session->ssl, result);
  if (kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE) return 0;
  if (kind == SSL_ERROR_ZERO_RETURN) return -2;
  fail(session, result, "decrypting");
  return -1;
}

void ctls_shutdown(ctls_session *session) {
  if (!SSL_is_init_finished(session->ssl)) return;
  ERR_clear_error();
  SSL_shutdown(session->ssl);
  ERR_clear_error();
}

size_t ctls_pending(ctls_session *session) { return BIO_ctrl_pending(session->to_network); }

size_t ctls_take(ctls_session *session, uint8_t *buffer, size_t capacity) {
  int chunk = capacity > INT_MAX ? INT_MAX : (int)capacity;
  int read = BIO_read(session->to_network, buffer, chunk);
  return read > 0 ? (size_t)read : 0;
}

const char *ctls_error(const ctls_session *session) { return session->error; }
