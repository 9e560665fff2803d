/*
 * http_load: the load generator of Benchmarks/scripts/bench-server, in C so that the client is not what is
 * measured. HTTP/1.1 over a Unix socket, one kept-alive connection per client process.
 *
 *   http_load SOCKET CLIENTS < REQUESTS
 *
 * REQUESTS holds one request a line: "METHOD PATH", or "METHOD PATH BODY" (the rest of the line,
 * sent as application/json). Each of CLIENTS processes connects, sends one untimed
 * `GET /v1/whoami` (a store server identifies a connection once), waits until every client is
 * connected, then sends the requests whose index modulo CLIENTS is its own, one at a time, reading
 * each answer whole (Content-Length or chunked). Prints the wall time from the start to the last
 * answer in nanoseconds, then for each request, in the order of REQUESTS, a line with its latency
 * in nanoseconds and the size of its answer's body in bytes.
 * An answer of 300 or more, or a broken connection, fails the run (exit status 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  char *method, *path, *body;
} request;

typedef struct {
  int fd;
  char *data;
  size_t start, end, capacity;
} reader;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A client that fails before it is ready says so on this pipe, so that the others are not waited for. */
static int ready_fd = -1;

static void fail(const char *what) {
  fprintf(stderr, "http_load: %s%s%s\n", what, errno ? ": " : "", errno ? strerror(errno) : "");
  if (ready_fd >= 0 && write(ready_fd, "F", 1) != 1) _exit(1);
  _exit(1);
}

/* Reads more bytes into the reader's buffer; fails on EOF. */
static void fill(reader *r) {
  if (r->start > 0 && r->start == r->end) r->start = r->end = 0;
  if (r->end == r->capacity) {
    if (r->start > 0) {
      memmove(r->data, r->data + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
    } else {
      r->capacity *= 2;
      r->data = realloc(r->data, r->capacity);
      if (!r->data) fail("out of memory");
    }
  }
  ssize_t n = read(r->fd, r->data + r->end, r->capacity - r->end);
  if (n < 0) fail("read");
  if (n == 0) {
    errno = 0;
    fail("the server closed the connection");
  }
  r->end += (size_t)n;
}

/* The offset just past the next CRLF at or after the reader's start, reading as needed. */
static size_t line_end(reader *r) {
  size_t scanned = r->start;
  for (;;) {
    for (size_t i = scanned; i + 1 < r->end; i++)
      if (r->data[i] == '\r' && r->data[i + 1] == '\n') return i + 2;
    scanned = r->end > r->start ? r->end - 1 : r->start;
    size_t offset = scanned - r->start;
    fill(r);
    scanned = r->start + offset;
  }
}

/* The body bytes of the response being read. */
static size_t body_bytes;

/* Skips `count` bytes of body, reading as needed. */
static void skip(reader *r, size_t count) {
  while (r->end - r->start < count) {
    count -= r->end - r->start;
    r->start = r->end;
    fill(r);
  }
  r->start += count;
  body_bytes += count;
}

/* Reads one whole response; returns its status. */
static int read_response(reader *r) {
  body_bytes = 0;
  size_t end = line_end(r);
  int status = 0;
  if (sscanf(r->data + r->start, "HTTP/1.1 %d", &status) != 1) {
    errno = 0;
    fail("malformed status line");
  }
  r->start = end;
  long long length = -1;
  int chunked = 0;
  for (;;) {
    end = line_end(r);
    char *line = r->data + r->start;
    size_t size = end - r->start;
    if (size == 2) {
      r->start = end;
      break;
    }
    if (size > 15 && strncasecmp(line, "content-length:", 15) == 0) length = strtoll(line + 15, NULL, 10);
    if (size > 18 && strncasecmp(line, "transfer-encoding:", 18) == 0 && memmem(line, size, "chunked", 7))
      chunked = 1;
    r->start = end;
  }
  if (chunked) {
    for (;;) {
      end = line_end(r);
      size_t chunk = strtoull(r->data + r->start, NULL, 16);
      r->start = end;
      if (chunk == 0) {
        r->start = line_end(r); /* the empty line after the last chunk (no trailers) */
        break;
      }
      skip(r, chunk + 2);
      body_bytes -= 2;
    }
  } else if (length > 0) {
    skip(r, (size_t)length);
  }
  return status;
}

static void send_request(int fd, const request *q) {
  char head[8192];
  int n = q->body ? snprintf(head, sizeof head,
                             "%s %s HTTP/1.1\r\nHost: kalends\r\nContent-Type: application/json\r\n"
                             "Content-Length: %zu\r\n\r\n%s",
                             q->method, q->path, strlen(q->body), q->body)
                  : snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: kalends\r\n\r\n", q->method, q->path);
  if (n <= 0 || (size_t)n >= sizeof head) {
    errno = 0;
    fail("a request is too long");
  }
  for (int sent = 0; sent < n;) {
    ssize_t w = write(fd, head + sent, (size_t)(n - sent));
    if (w <= 0) fail("write");
    sent += (int)w;
  }
}

static void exchange(reader *r, const request *q) {
  send_request(r->fd, q);
  int status = read_response(r);
  if (status >= 300) {
    errno = 0;
    fprintf(stderr, "http_load: %s %s: %d\n", q->method, q->path, status);
    _exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: http_load SOCKET CLIENTS < REQUESTS\n");
    return 2;
  }
  const char *path = argv[1];
  int clients = atoi(argv[2]);
  if (clients < 1 || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
    fprintf(stderr, "http_load: CLIENTS must be at least 1, SOCKET at most 107 bytes\n");
    return 2;
  }
  size_t count = 0, capacity = 1024;
  request *requests = malloc(capacity * sizeof *requests);
  char *line = NULL;
  size_t line_capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &line_capacity, stdin)) > 0) {
    if (line[length - 1] == '\n') line[--length] = 0;
    if (length == 0) continue;
    char *copy = strdup(line), *space = strchr(copy, ' ');
    if (!space) {
      fprintf(stderr, "http_load: \"%s\" is not METHOD PATH [BODY]\n", line);
      return 2;
    }
    *space = 0;
    char *rest = strchr(space + 1, ' ');
    if (rest) *rest++ = 0;
    if (count == capacity) requests = realloc(requests, (capacity *= 2) * sizeof *requests);
    requests[count++] = (request){copy, space + 1, rest};
  }
  uint64_t *latencies = mmap(NULL, 2 * (count + 1) * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (latencies == MAP_FAILED) fail("mmap");
  int ready[2], go[2];
  if (pipe(ready) || pipe(go)) fail("pipe");
  pid_t *children = calloc((size_t)clients, sizeof(pid_t));
  for (int c = 0; c < clients; c++) {
    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid > 0) {
      children[c] = pid;
      continue;
    }
    close(ready[0]);
    close(go[1]);
    ready_fd = ready[1];
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, path);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address)) fail("connect");
    reader r = {fd, malloc(1 << 16), 0, 0, 1 << 16};
    const request whoami = {"GET", "/v1/whoami", NULL};
    exchange(&r, &whoami);
    ready_fd = -1;
    if (write(ready[1], "x", 1) != 1) fail("write");
    char byte;
    if (read(go[0], &byte, 1) != 0) fail("the start signal");
    for (size_t i = (size_t)c; i < count; i += (size_t)clients) {
      uint64_t began = now_ns();
      exchange(&r, &requests[i]);
      latencies[i] = now_ns() - began;
      latencies[count + 1 + i] = body_bytes;
    }
    _exit(0);
  }
  close(ready[1]);
  close(go[0]);
  for (int c = 0; c < clients; c++) {
    char byte;
    if (read(ready[0], &byte, 1) != 1 || byte != 'x') {
      errno = 0;
      for (int k = 0; k < clients; k++) kill(children[k], SIGTERM);
      fail("a client could not start");
    }
  }
  uint64_t began = now_ns();
  close(go[1]);
  int failed = 0;
  for (int c = 0; c < clients; c++) {
    int status;
    if (wait(&status) < 0) fail("wait");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  uint64_t elapsed = now_ns() - began;
  if (failed) return 1;
  printf("%llu\n", (unsigned long long)elapsed);
  for (size_t i = 0; i < count; i++)
    printf("%llu %llu\n", (unsigned long long)latencies[i], (unsigned long long)latencies[count + 1 + i]);
  return 0;
}
