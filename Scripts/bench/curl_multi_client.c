/*
 * The ceiling of the library pushctl is built on: a minimal APNs sender on libcurl's multi
 * interface. One multi handle, CURLPIPE_MULTIPLEX, at most one connection to the host,
 * IN_FLIGHT easy handles reused (removed and re-added), PIPEWAIT so every stream waits for
 * the one HTTP/2 connection, the payload set once with CURLOPT_POSTFIELDS, response bodies
 * discarded, every answer's status checked.
 *
 * Written for Scripts/bench.sh from the libcurl documentation (curl_multi_*, CURLOPT_*).
 *
 *   gcc -O2 -o curl_multi_client curl_multi_client.c $(pkg-config --cflags --libs libcurl)
 *   curl_multi_client BASE_URL CA_PEM JWT TOPIC PAYLOAD_FILE TOKENS_FILE [IN_FLIGHT]
 *
 * Reads every device token (one per line) up front, sends one POST per token to
 * BASE_URL/3/device/<token>, prints "sent N ok N failed N connections N" (connections that
 * libcurl opened) and exits 0 only when all got 200.
 *
 * Build with -DPUSHCTL_JOB for the same client doing the per-request work pushctl does beyond
 * that: each answer's apns-id and apns-unique-id read through CURLOPT_HEADERFUNCTION, a request
 * and a connect timeout (CURLOPT_TIMEOUT_MS, CURLOPT_CONNECTTIMEOUT_MS), an error buffer. It
 * shows what that work costs inside libcurl, apart from what pushctl's own code costs.
 *
 * Diagnostic build, -DCA_AS_BLOB: trust the system bundle plus CA_PEM through
 * CURLOPT_CAINFO_BLOB (one ~200 KB blob per handle), the way pushctl's --cacert does today,
 * to measure what that costs libcurl per request.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PUSHCTL_JOB
#include <strings.h>
/* The last answer's ids: kept, as a provider would report them. */
struct answer_ids {
    char id[64];
    char unique_id[64];
};
#endif

struct slot {
    CURL *easy;
    char url[512];
#ifdef PUSHCTL_JOB
    struct answer_ids ids;
    char errors[CURL_ERROR_SIZE];
#endif
};

static size_t discard_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

#ifdef PUSHCTL_JOB
static void copy_value(char *to, const char *from, size_t length) {
    while (length > 0 && (*from == ' ' || *from == '\t')) { from++; length--; }
    while (length > 0 && (from[length - 1] == '\r' || from[length - 1] == '\n' || from[length - 1] == ' ')) length--;
    if (length > 63) length = 63;
    memcpy(to, from, length);
    to[length] = 0;
}

static size_t read_header(char *data, size_t size, size_t count, void *context) {
    struct answer_ids *ids = context;
    size_t n = size * count;
    if (n > 8 && strncasecmp(data, "apns-id:", 8) == 0) copy_value(ids->id, data + 8, n - 8);
    else if (n > 15 && strncasecmp(data, "apns-unique-id:", 15) == 0) copy_value(ids->unique_id, data + 15, n - 15);
    return n;
}
#endif

static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(66); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buffer = malloc((size_t)n + 1);
    if (!buffer || fread(buffer, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(66); }
    buffer[n] = 0;
    fclose(f);
    *length = (size_t)n;
    return buffer;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: %s BASE_URL CA_PEM JWT TOPIC PAYLOAD_FILE TOKENS_FILE [IN_FLIGHT]\n", argv[0]);
        return 64;
    }
    const char *base = argv[1], *ca = argv[2], *jwt = argv[3], *topic = argv[4];
    int in_flight = argc > 7 ? atoi(argv[7]) : 100;
    if (in_flight < 1) in_flight = 1;

    size_t payload_length = 0, tokens_length = 0;
    char *payload = read_file(argv[5], &payload_length);
    while (payload_length > 0 && (payload[payload_length - 1] == '\n' || payload[payload_length - 1] == '\r'))
        payload[--payload_length] = 0;
    char *tokens_text = read_file(argv[6], &tokens_length);

    /* Split the tokens file into lines, in place. */
    size_t capacity = 1024, total = 0;
    char **tokens = malloc(capacity * sizeof *tokens);
    for (char *line = strtok(tokens_text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
        if (*line == 0 || *line == '#') continue;
        if (total == capacity) tokens = realloc(tokens, (capacity *= 2) * sizeof *tokens);
        tokens[total++] = line;
    }

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 70;

#ifdef CA_AS_BLOB
    size_t system_length = 0, extra_length = 0;
    char *system_bundle = read_file("/etc/ssl/certs/ca-certificates.crt", &system_length);
    char *extra = read_file(ca, &extra_length);
    struct curl_blob ca_blob;
    ca_blob.len = system_length + 1 + extra_length;
    ca_blob.data = malloc(ca_blob.len);
    memcpy(ca_blob.data, system_bundle, system_length);
    ((char *)ca_blob.data)[system_length] = '\n';
    memcpy((char *)ca_blob.data + system_length + 1, extra, extra_length);
    ca_blob.flags = CURL_BLOB_COPY;
#endif

    char authorization[4096], topic_header[512];
    snprintf(authorization, sizeof authorization, "authorization: bearer %s", jwt);
    snprintf(topic_header, sizeof topic_header, "apns-topic: %s", topic);
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, authorization);
    headers = curl_slist_append(headers, topic_header);
    headers = curl_slist_append(headers, "apns-push-type: alert");
    headers = curl_slist_append(headers, "apns-priority: 10");
    headers = curl_slist_append(headers, "Content-Type:"); /* drop libcurl's form content type */
    headers = curl_slist_append(headers, "Accept:");       /* and its Accept: star/star */

    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1L);
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, (long)in_flight);

    struct slot *slots = calloc((size_t)in_flight, sizeof *slots);
    struct slot **idle = calloc((size_t)in_flight, sizeof *idle);
    int idle_count = 0;
    for (int i = 0; i < in_flight; i++) {
        CURL *easy = curl_easy_init();
        slots[i].easy = easy;
        curl_easy_setopt(easy, CURLOPT_PRIVATE, &slots[i]);
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
#ifdef CA_AS_BLOB
        curl_easy_setopt(easy, CURLOPT_CAINFO_BLOB, &ca_blob);
#else
        curl_easy_setopt(easy, CURLOPT_CAINFO, ca);
#endif
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, payload);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)payload_length);
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard_body);
#ifdef PUSHCTL_JOB
        curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, read_header);
        curl_easy_setopt(easy, CURLOPT_HEADERDATA, &slots[i].ids);
        curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, slots[i].errors);
        curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 30000L);
        curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
#endif
        idle[idle_count++] = &slots[i];
    }

    size_t next = 0, done = 0, ok = 0, failed = 0;
    long connections = 0;
    int running = 0;
    while (done < total) {
        while (idle_count > 0 && next < total) {
            struct slot *s = idle[--idle_count];
            snprintf(s->url, sizeof s->url, "%s/3/device/%s", base, tokens[next++]);
            curl_easy_setopt(s->easy, CURLOPT_URL, s->url);
            curl_multi_add_handle(multi, s->easy);
        }
        if (curl_multi_perform(multi, &running) != CURLM_OK) { fprintf(stderr, "curl_multi_perform failed\n"); return 70; }
        int queued = 0;
        CURLMsg *message;
        int finished_now = 0;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            struct slot *s = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            long connects = 0;
            curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
            connections += connects;
            if (message->data.result == CURLE_OK && status == 200) {
                ok++;
            } else {
                if (failed < 5) fprintf(stderr, "%s: %s, status %ld\n", s->url, curl_easy_strerror(message->data.result), status);
                failed++;
            }
            curl_multi_remove_handle(multi, easy);
            idle[idle_count++] = s;
            done++;
            finished_now++;
        }
        if (!finished_now && done < total) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }

    printf("sent %zu ok %zu failed %zu connections %ld\n", total, ok, failed, connections);
    for (int i = 0; i < in_flight; i++) curl_easy_cleanup(slots[i].easy);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    curl_global_cleanup();
    free(slots);
    free(idle);
    free(tokens);
    free(tokens_text);
    free(payload);
    return failed == 0 && ok == total ? 0 : 1;
}
