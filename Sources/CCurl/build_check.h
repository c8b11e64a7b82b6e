// The build stops here when it would use anything but a libcurl built on OpenSSL 3 (Debian's
// libcurl4-openssl-dev; on a Mac, Homebrew's curl keg): pushctl hands libcurl a client key from
// memory and sets ALPN on its TLS context with OpenSSL 3's own calls.
//
// On a Mac, when SwiftPM cannot resolve every .pc file Homebrew's libcurl.pc names, it drops all of
// libcurl's flags, and the SDK's <curl/curl.h> with macOS's own libcurl (LibreSSL, Secure
// Transport) are used instead. The SDK's curl headers are upstream curl's, byte for byte (compared
// with the macOS 14.2 SDK's, libcurl 8.4.0; macOS 15 ships 8.7.1): nothing in them names the TLS
// library, so their age is what tells them apart. Homebrew's curl has been 8.11 or later since
// November 2024. (At run time `pushctl --version --verbose` and every send check the TLS library
// itself: CurlBuild in PushCurl.) This header is the module's second, apart from shim.h, so that
// shim.h can still be type-checked against the SDK's curl headers as a stand-in for Homebrew's.
#ifndef PUSHCTL_CCURL_BUILD_CHECK_H
#define PUSHCTL_CCURL_BUILD_CHECK_H

#include <curl/curlver.h>
#include <openssl/opensslv.h>

#if defined(__APPLE__) && LIBCURL_VERSION_NUM < 0x080b00
#error "pushctl: these are macOS's own curl headers (libcurl before 8.11, on LibreSSL), not Homebrew's libcurl on OpenSSL 3. Run: brew install curl openssl@3 pkgconf; export PKG_CONFIG_PATH=\"$(brew --prefix openssl@3)/lib/pkgconfig:$(brew --prefix curl)/lib/pkgconfig\"; then build again (Scripts/install-deps.sh checks it all)."
#endif

#if defined(LIBRESSL_VERSION_NUMBER) || !defined(OPENSSL_VERSION_MAJOR) || OPENSSL_VERSION_MAJOR < 3
#error "pushctl: these OpenSSL headers are not OpenSSL 3's (LibreSSL, or OpenSSL 1.x). Install OpenSSL 3 (Debian: libssl-dev; macOS: brew install openssl@3) and let pkg-config find it."
#endif

#endif
