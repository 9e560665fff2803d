#ifndef CTLSCLIENT_H
#define CTLSCLIENT_H

#include <stddef.h>
#include <stdint.h>

/// The client side of one TLS connection on the system's OpenSSL libssl, over memory: the caller
/// moves bytes between the session and the network (`ctls_feed`, `ctls_take`), so the session
/// never touches a socket. TLS 1.2 or later; the server's certificate is verified against the
/// system's roots (OpenSSL's default paths, which `SSL_CERT_FILE` and `SSL_CERT_DIR` override) and
/// against the host: a name (also sent as SNI) or an IP address.
///
/// A session is used by one thread at a time. Functions that fail write why to the session's
/// error (`ctls_error`).
typedef struct ctls_session ctls_session;

/// A session for a connection to `host`; `host_is_address` when it is an IPv4 or IPv6 address.
/// NULL when OpenSSL cannot make one (then `error`, `error_size` bytes, says why).
ctls_session *ctls_session_new(const char *host, int host_is_address, char *error, size_t error_size);

/// Frees a session of `ctls_session_new`.
void ctls_session_free(ctls_session *session);

/// Takes `count` bytes received from the network. 1, or 0 when they could not be taken.
int ctls_feed(ctls_session *session, const uint8_t *bytes, size_t count);

/// Advances the handshake: 1 when it is done, 0 when it waits for the network (send what
/// `ctls_take` gives, then feed what comes), -1 when it failed (the certificate refused, the
/// peer's alert, a protocol error).
int ctls_handshake(ctls_session *session);

/// Encrypts `count` bytes of plaintext (after the handshake): 1, or -1 on failure. The records
/// are then taken with `ctls_take`.
int ctls_write(ctls_session *session, const uint8_t *bytes, size_t count);

/// Decrypts into `buffer`: the number of bytes written (> 0), 0 when more must be fed, -1 on
/// failure, -2 when the peer closed the session (close_notify).
long ctls_read(ctls_session *session, uint8_t *buffer, size_t capacity);

/// Starts closing: queues a close_notify alert for `ctls_take`.
void ctls_shutdown(ctls_session *session);

/// The bytes waiting for the network.
size_t ctls_pending(ctls_session *session);

/// Moves up to `capacity` waiting bytes into `buffer`; returns how many.
size_t ctls_take(ctls_session *session, uint8_t *buffer, size_t capacity);

/// Why the last call failed, in words.
const char *ctls_error(const ctls_session *session);

#endif
