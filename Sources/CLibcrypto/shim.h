// Typed wrappers for the parts of OpenSSL libcrypto (3.x) that Swift cannot call
// directly: macros and functions whose callbacks are easier to give from C.
#ifndef PUSHCTL_CLIBCRYPTO_SHIM_H
#define PUSHCTL_CLIBCRYPTO_SHIM_H

// The ENGINE calls (a PKCS#11 token through libp11's engine) are deprecated in OpenSSL 3, and
// still the only PKCS#11 route Debian 12's OpenSSL has (no pkcs11 provider package).
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/store.h>
#include <openssl/ui.h>
#ifndef OPENSSL_NO_ENGINE
#include <openssl/engine.h>
#endif
#include <string.h>
#include <time.h>

// A PEM password callback that never asks: an encrypted key fails to load
// instead of prompting on the terminal (a CI job has no one to type).
static int pushctl_pem_no_password(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return -1;
}

static inline EVP_PKEY *pushctl_read_private_key(BIO *bio) {
    return PEM_read_bio_PrivateKey(bio, NULL, pushctl_pem_no_password, NULL);
}

static inline EVP_PKEY *pushctl_read_public_key(BIO *bio) {
    return PEM_read_bio_PUBKEY(bio, NULL, pushctl_pem_no_password, NULL);
}

// EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen.
static inline EVP_PKEY *pushctl_generate_p256(void) {
    return EVP_EC_gen("P-256");
}

// BIO_get_mem_data is a macro over BIO_ctrl.
static inline long pushctl_bio_mem_data(BIO *bio, char **out) {
    return BIO_get_mem_data(bio, out);
}

// Called once before libcurl's global init, so that OpenSSL's atexit cleanup
// cannot race Swift's own teardown at process exit.
static inline int pushctl_openssl_init(void) {
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

// ---- Provider certificates (.p12 and PEM) ----

// OpenSSL 3 reads the RC2-40 and 3DES of older .p12 exports only through its legacy
// provider; loaded beside the default one (which stays available).
static inline int pushctl_load_legacy_provider(void) {
    return OSSL_PROVIDER_try_load(NULL, "legacy", 1) != NULL && OSSL_PROVIDER_available(NULL, "default");
}

// A PEM password callback that hands over the NUL-terminated password in `u` (or fails).
static int pushctl_pem_given_password(char *buf, int size, int rwflag, void *u) {
    (void)rwflag;
    if (u == NULL) return -1;
    size_t length = strlen((const char *)u);
    if (length > (size_t)size) return -1;
    memcpy(buf, u, length);
    return (int)length;
}

static inline EVP_PKEY *pushctl_read_private_key_with_password(BIO *bio, const char *password) {
    return PEM_read_bio_PrivateKey(bio, NULL, pushctl_pem_given_password, (void *)password);
}

static inline X509 *pushctl_read_certificate_pem(BIO *bio) {
    return PEM_read_bio_X509(bio, NULL, pushctl_pem_no_password, NULL);
}

// Reads a PKCS#12 file. 0: read; 1: not PKCS#12; 2: the password does not open it (MAC);
// 3: its contents could not be decrypted or parsed (see the error queue).
static inline int pushctl_p12_read(BIO *bio, const char *password, EVP_PKEY **key, X509 **cert, STACK_OF(X509) **chain) {
    PKCS12 *p12 = d2i_PKCS12_bio(bio, NULL);
    if (p12 == NULL) return 1;
    int status = 0;
    const char *pass = password;
    if (PKCS12_mac_present(p12)) {
        if (password == NULL || *password == 0) {
            if (PKCS12_verify_mac(p12, NULL, 0)) pass = NULL;
            else if (PKCS12_verify_mac(p12, "", 0)) pass = "";
            else status = 2;
        } else if (!PKCS12_verify_mac(p12, password, -1)) {
            status = 2;
        }
    }
    if (status == 0 && !PKCS12_parse(p12, pass, key, cert, chain)) status = 3;
    PKCS12_free(p12);
    return status;
}

static inline int pushctl_chain_count(STACK_OF(X509) *chain) { return chain ? sk_X509_num(chain) : 0; }
static inline X509 *pushctl_chain_at(STACK_OF(X509) *chain, int i) { return sk_X509_value(chain, i); }
static inline void pushctl_chain_free(STACK_OF(X509) *chain) { if (chain) sk_X509_pop_free(chain, X509_free); }

// RFC 2253 text of a name.
static inline int pushctl_name_text(BIO *bio, const X509_NAME *name) {
    return X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0 ? 1 : 0;
}

// The first entry of a name with this NID, as UTF-8 into `out` (NUL-terminated); its length or -1.
static inline int pushctl_name_entry(const X509_NAME *name, int nid, char *out, int size) {
    int index = X509_NAME_get_index_by_NID(name, nid, -1);
    if (index < 0) return -1;
    unsigned char *utf8 = NULL;
    int length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index)));
    if (length < 0) return -1;
    if (length >= size) length = size - 1;
    memcpy(out, utf8, (size_t)length);
    out[length] = 0;
    OPENSSL_free(utf8);
    return length;
}

static inline long long pushctl_asn1_time_unix(const ASN1_TIME *t) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!ASN1_TIME_to_tm(t, &tm)) return 0;
    return (long long)timegm(&tm);
}

static inline long long pushctl_cert_not_before(X509 *x) { return pushctl_asn1_time_unix(X509_get0_notBefore(x)); }
static inline long long pushctl_cert_not_after(X509 *x) { return pushctl_asn1_time_unix(X509_get0_notAfter(x)); }

// The serial number as upper-case hex into `out`; its length or -1.
static inline int pushctl_cert_serial(X509 *x, char *out, int size) {
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x), NULL);
    if (bn == NULL) return -1;
    char *hex = BN_bn2hex(bn);
    BN_free(bn);
    if (hex == NULL) return -1;
    int length = (int)strlen(hex);
    if (length >= size) length = size - 1;
    memcpy(out, hex, (size_t)length);
    out[length] = 0;
    OPENSSL_free(hex);
    return length;
}

// The DER contents of the extension with this dotted OID, or NULL (not copied: lives with x).
static inline const ASN1_OCTET_STRING *pushctl_cert_extension(X509 *x, const char *oid) {
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    if (object == NULL) return NULL;
    int index = X509_get_ext_by_OBJ(x, object, -1);
    ASN1_OBJECT_free(object);
    if (index < 0) return NULL;
    return X509_EXTENSION_get_data(X509_get_ext(x, index));
}

static inline const unsigned char *pushctl_octets(const ASN1_OCTET_STRING *s, int *length) {
    *length = ASN1_STRING_length(s);
    return ASN1_STRING_get0_data(s);
}

static inline int pushctl_cert_der(X509 *x, unsigned char **out) { return i2d_X509(x, out); }

// ---- Making test certificates (pushctl cert generate) ----

static inline EVP_PKEY *pushctl_generate_rsa(unsigned int bits) { return EVP_RSA_gen(bits); }

// A new v3 certificate for `key`, valid from now + `from` to now + `to` seconds, with a random
// serial; subject and issuer names are added by the caller. NULL on failure.
static inline X509 *pushctl_cert_new(EVP_PKEY *key, long from, long to) {
    X509 *x = X509_new();
    if (x == NULL) return NULL;
    BIGNUM *serial = BN_new();
    int ok = X509_set_version(x, X509_VERSION_3)
        && serial != NULL && BN_rand(serial, 64, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY)
        && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x)) != NULL
        && X509_gmtime_adj(X509_getm_notBefore(x), from) != NULL
        && X509_gmtime_adj(X509_getm_notAfter(x), to) != NULL
        && X509_set_pubkey(x, key);
    BN_free(serial);
    if (!ok) { X509_free(x); return NULL; }
    return x;
}

static inline int pushctl_name_add(X509_NAME *name, const char *field, const char *value) {
    return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, (const unsigned char *)value, -1, -1, 0);
}

// Adds an extension given by its config text (e.g. NID_basic_constraints, "critical,CA:TRUE").
static inline int pushctl_cert_add_conf_extension(X509 *x, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer ? issuer : x, x, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    if (ext == NULL) return 0;
    int ok = X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    return ok;
}

// Adds a non-critical extension with this dotted OID and DER contents.
static inline int pushctl_cert_add_der_extension(X509 *x, const char *oid, const unsigned char *der, int length) {
    ASN1_OBJECT *object = OBJ_txt2obj(oid, 1);
    ASN1_OCTET_STRING *data = ASN1_OCTET_STRING_new();
    int ok = object != NULL && data != NULL && ASN1_OCTET_STRING_set(data, der, length);
    X509_EXTENSION *ext = ok ? X509_EXTENSION_create_by_OBJ(NULL, object, 0, data) : NULL;
    ok = ext != NULL && X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
    ASN1_OCTET_STRING_free(data);
    ASN1_OBJECT_free(object);
    return ok;
}

// A .p12 of key, certificate and CA, with OpenSSL 3's defaults (AES-256-CBC, SHA-256 MAC).
static inline int pushctl_p12_write(BIO *bio, const char *password, const char *friendly, EVP_PKEY *key, X509 *cert, X509 *ca) {
    STACK_OF(X509) *cas = sk_X509_new_null();
    if (cas == NULL || !sk_X509_push(cas, ca)) { sk_X509_free(cas); return 0; }
    PKCS12 *p12 = PKCS12_create(password, friendly, key, cert, cas, 0, 0, 0, 0, 0);
    sk_X509_free(cas);
    if (p12 == NULL) return 0;
    int ok = i2d_PKCS12_bio(bio, p12);
    PKCS12_free(p12);
    return ok;
}

// HKDF-SHA256 (RFC 5869): `out_len` bytes from `ikm`, `salt` and `info`. 1 on success.
static inline int pushctl_hkdf_sha256(const unsigned char *ikm, size_t ikm_len, const unsigned char *salt, size_t salt_len,
                                      const unsigned char *info, size_t info_len, unsigned char *out, size_t out_len) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    OSSL_PARAM params[5];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
    params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
    params[4] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, out_len, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

// AES-256-GCM with a 12-byte nonce and a 16-byte tag: `out` gets `in_len` bytes. 1 on success.
static inline int pushctl_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, int aad_len,
                                         const unsigned char *in, int in_len, unsigned char *out, unsigned char *tag) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0, ok = 0;
    if (ctx != NULL && EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_EncryptUpdate(ctx, NULL, &len, aad, aad_len) == 1
        && EVP_EncryptUpdate(ctx, out, &len, in, in_len) == 1
        && EVP_EncryptFinal_ex(ctx, out + len, &len) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1) ok = 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

// Opens what pushctl_aes256gcm_seal made: 1 when the tag verifies (then `out` holds the text), else 0.
static inline int pushctl_aes256gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *aad, int aad_len,
                                         const unsigned char *in, int in_len, const unsigned char *tag, unsigned char *out) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0, ok = 0;
    if (ctx != NULL && EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_DecryptUpdate(ctx, NULL, &len, aad, aad_len) == 1
        && EVP_DecryptUpdate(ctx, out, &len, in, in_len) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) == 1
        && EVP_DecryptFinal_ex(ctx, out + len, &len) == 1) ok = 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

// ---- A key's own consistency (a .p8 altered on disk) ----

// Which part of a private key fails OpenSSL 3's checks: 0 none, 1 the private scalar is out of
// [1, n-1], 2 the public point is not on the curve, 3 the public half is not the private half's.
static inline int pushctl_key_problem(EVP_PKEY *key) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (ctx == NULL) return 3;
    int problem = 0;
    if (EVP_PKEY_private_check(ctx) != 1) problem = 1;
    else if (EVP_PKEY_public_check(ctx) != 1) problem = 2;
    else if (EVP_PKEY_pairwise_check(ctx) != 1) problem = 3;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return problem;
}

// The public key of a PEM certificate (owned), or NULL.
static inline EVP_PKEY *pushctl_certificate_public_key(BIO *bio) {
    X509 *x = PEM_read_bio_X509(bio, NULL, pushctl_pem_no_password, NULL);
    if (x == NULL) return NULL;
    EVP_PKEY *key = X509_get_pubkey(x);
    X509_free(x);
    return key;
}

// A key with only the public half of `key` (a token's key holds a handle, not the scalar).
static inline EVP_PKEY *pushctl_public_copy(EVP_PKEY *key) {
    unsigned char *der = NULL;
    int length = i2d_PUBKEY(key, &der);
    if (length <= 0) return NULL;
    const unsigned char *cursor = der;
    EVP_PKEY *copy = d2i_PUBKEY(NULL, &cursor, length);
    OPENSSL_free(der);
    return copy;
}

// The first error OpenSSL queued on this thread, as text (the queue is then cleared); 0 if none.
static inline int pushctl_error_text(char *out, size_t size) {
    unsigned long code = ERR_peek_last_error();
    if (code == 0) return 0;
    ERR_error_string_n(code, out, size);
    ERR_clear_error();
    return 1;
}

// ---- A key inside a PKCS#11 token (RFC 7512 URI) ----

// A UI that never asks: a PIN is given by pushctl or the load fails, instead of OpenSSL reading
// one from /dev/tty or, worse, from a standard input that holds the tokens being sent.
static int pushctl_ui_refuse(UI *ui, UI_STRING *uis) { (void)ui; (void)uis; return 0; }

static inline UI_METHOD *pushctl_ui_never_asks(void) {
    static UI_METHOD *method = NULL;
    if (method == NULL) {
        method = UI_create_method("pushctl: no prompt");
        if (method != NULL) UI_method_set_reader(method, pushctl_ui_refuse);
    }
    return method;
}

// Where loading a token's key stopped.
enum {
    PUSHCTL_P11_LOADED = 0,
    PUSHCTL_P11_NO_ENGINE = 1,    // OpenSSL has no pkcs11 engine (libp11) and no provider opens the URI
    PUSHCTL_P11_MODULE = 2,       // the engine refused the module path, or could not start
    PUSHCTL_P11_NO_KEY = 3,       // the module loaded; no private key for this URI (or a login was needed)
};

// Loads the private key a pkcs11: URI names, through libp11's engine (kept initialised for the
// process: its keys use it), else through a provider that opens pkcs11: URIs (OSSL_STORE).
// `module` and `pin` may be NULL.
static inline EVP_PKEY *pushctl_pkcs11_load(const char *uri, const char *module, const char *pin, int *stage) {
#ifndef OPENSSL_NO_ENGINE
    static ENGINE *engine = NULL;
    if (engine == NULL) {
        ENGINE *e = ENGINE_by_id("pkcs11");
        if (e != NULL) {
            if ((module != NULL && !ENGINE_ctrl_cmd_string(e, "MODULE_PATH", module, 0)) || !ENGINE_init(e)) {
                ENGINE_free(e);
                *stage = PUSHCTL_P11_MODULE;
                return NULL;
            }
            ENGINE_free(e);  // the functional reference ENGINE_init took stays
            engine = e;
        }
    }
    if (engine != NULL) {
        if (pin != NULL && !ENGINE_ctrl_cmd_string(engine, "PIN", pin, 0)) { *stage = PUSHCTL_P11_NO_KEY; return NULL; }
        EVP_PKEY *key = ENGINE_load_private_key(engine, uri, pushctl_ui_never_asks(), NULL);
        *stage = key != NULL ? PUSHCTL_P11_LOADED : PUSHCTL_P11_NO_KEY;
        return key;
    }
#endif
    ERR_clear_error();
    OSSL_STORE_CTX *store = OSSL_STORE_open(uri, pushctl_ui_never_asks(), NULL, NULL, NULL);
    if (store == NULL) { *stage = PUSHCTL_P11_NO_ENGINE; return NULL; }
    EVP_PKEY *key = NULL;
    while (key == NULL && !OSSL_STORE_eof(store)) {
        OSSL_STORE_INFO *info = OSSL_STORE_load(store);
        if (info == NULL) break;
        if (OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY) key = OSSL_STORE_INFO_get1_PKEY(info);
        OSSL_STORE_INFO_free(info);
    }
    OSSL_STORE_close(store);
    *stage = key != NULL ? PUSHCTL_P11_LOADED : PUSHCTL_P11_NO_KEY;
    return key;
}

#endif
