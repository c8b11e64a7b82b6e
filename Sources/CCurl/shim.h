// Typed wrappers for libcurl's variadic calls (curl_easy_setopt, curl_easy_getinfo,
// curl_multi_setopt) and for CURLMsg's union, which Swift cannot reach directly.
#ifndef PUSHCTL_CCURL_SHIM_H
#define PUSHCTL_CCURL_SHIM_H

#include <curl/curl.h>
#include <openssl/ssl.h>

static inline CURLcode pushctl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pushctl_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
// A blob copied by libcurl at once (CURL_BLOB_COPY): the caller's bytes may go away after.
static inline CURLcode pushctl_easy_setopt_blob(CURL *h, CURLoption o, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(h, o, &blob);
}
static inline CURLcode pushctl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pushctl_easy_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode pushctl_easy_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
// Called when libcurl is about to send the request: it has a stream for it on a connection.
static inline CURLcode pushctl_easy_setopt_prereq(CURL *h, int (*f)(void *, char *, char *, int, int)) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f); }
static inline CURLcode pushctl_easy_setopt_debug(CURL *h, int (*f)(CURL *, curl_infotype, char *, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, f); }

static inline CURLcode pushctl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushctl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushctl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushctl_easy_getinfo_string(CURL *h, CURLINFO i, const char **v) { return curl_easy_getinfo(h, i, v); }


static inline CURLMcode pushctl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode pushctl_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
// The event-driven interface: libcurl says which sockets to watch (and for what) and when its
// next timeout is due; the caller waits and reports back with curl_multi_socket_action.
static inline CURLMcode pushctl_multi_setopt_socketfunction(CURLM *m, int (*f)(CURL *, curl_socket_t, int, void *, void *)) {
    return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f);
}
static inline CURLMcode pushctl_multi_setopt_timerfunction(CURLM *m, int (*f)(CURLM *, long, void *)) {
    return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f);
}
static inline CURLMcode pushctl_multi_socket_timeout(CURLM *m, int *running) {
    return curl_multi_socket_action(m, CURL_SOCKET_TIMEOUT, 0, running);
}

// CURLMsg flattened: the easy handle and, when msg is CURLMSG_DONE, its result.
typedef struct {
    CURLMSG msg;
    CURL *easy;
    CURLcode result;
} pushctl_multi_message;

static inline int pushctl_multi_info_read(CURLM *m, pushctl_multi_message *out) {
    int left = 0;
    CURLMsg *msg = curl_multi_info_read(m, &left);
    if (msg == NULL) return 0;
    out->msg = msg->msg;
    out->easy = msg->easy_handle;
    out->result = msg->data.result;
    return 1;
}

static inline int pushctl_curl_has_http2(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & CURL_VERSION_HTTP2) != 0;
}

static inline const char *pushctl_curl_version(void) {
    return curl_version_info(CURLVERSION_NOW)->version;
}

// The TLS library libcurl was built on, as it names it ("OpenSSL/3.0.13"; a build with several
// names the ones not in use in parentheses); "" when it has none.
static inline const char *pushctl_curl_ssl_version(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && info->ssl_version != NULL ? info->ssl_version : "";
}


// For reading a GOAWAY's debug data, which libcurl does not pass on: a CONNECT_ONLY connection
// on which the caller speaks HTTP/2 itself through curl_easy_send/recv. libcurl is told to use
// no ALPN (so it installs no HTTP/2 layer of its own), and this callback asks for h2 on the
// TLS context instead, as APNs (and pushctl mock) require.
static CURLcode pushctl_ssl_ctx_alpn_h2(CURL *curl, void *ssl_ctx, void *userptr) {
    (void)curl; (void)userptr;
    static const unsigned char protocols[] = { 2, 'h', '2' };
    return SSL_CTX_set_alpn_protos((SSL_CTX *)ssl_ctx, protocols, sizeof protocols) == 0 ? CURLE_OK : CURLE_SSL_CONNECT_ERROR;
}

static inline CURLcode pushctl_easy_setopt_alpn_h2_only(CURL *h) {
    CURLcode code = curl_easy_setopt(h, CURLOPT_SSL_ENABLE_ALPN, 0L);
    if (code == CURLE_OK) code = curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, pushctl_ssl_ctx_alpn_h2);
    return code;
}

static inline CURLcode pushctl_easy_active_socket(CURL *h, curl_socket_t *socket) {
    return curl_easy_getinfo(h, CURLINFO_ACTIVESOCKET, socket);
}
#endif
