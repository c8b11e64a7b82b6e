// Typed wrappers for the parts of OpenSSL libcrypto (3.x) that Swift cannot call
// directly: macros and functions whose callbacks are easier to give from C.
#ifndef PUSHCTL_CLIBCRYPTO_SHIM_H
#define PUSHCTL_CLIBCRYPTO_SHIM_H

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

#endif
