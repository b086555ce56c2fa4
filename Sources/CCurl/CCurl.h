// The part of libcurl's C API that Swift cannot call directly.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic C functions, which
// Swift does not import. Each wrapper below fixes the type of the variadic argument to the one
// that the options it is used with expect (see each option's man page), so the compiler checks
// what we pass. Some constants are macros whose expansion Swift cannot import either.
#ifndef NETWORKLAYER_CCURL_H
#define NETWORKLAYER_CCURL_H

#include <curl/curl.h>
#include <dlfcn.h>

/// An option whose argument is a `long` (flags, counts, milliseconds).
static inline CURLcode nlcurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option whose argument is a `curl_off_t` (the *_LARGE sizes).
static inline CURLcode nlcurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option whose argument is a C string; libcurl copies it.
static inline CURLcode nlcurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option whose argument is an object pointer (callback data, error buffer, header list).
static inline CURLcode nlcurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option whose argument is a `struct curl_blob` (CURLOPT_CAINFO_BLOB); libcurl copies it.
static inline CURLcode nlcurl_easy_setopt_blob(CURL *handle, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode nlcurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_READFUNCTION.
static inline CURLcode nlcurl_easy_setopt_read_function(CURL *handle, CURLoption option, curl_read_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_SEEKFUNCTION.
static inline CURLcode nlcurl_easy_setopt_seek_function(CURL *handle, CURLoption option, curl_seek_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/// An information whose result is a `long` (response code, HTTP version).
static inline CURLcode nlcurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An information whose result is a C string owned by libcurl (CURLINFO_CAINFO).
static inline CURLcode nlcurl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// A multi option whose argument is a `long`.
static inline CURLMcode nlcurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

/// CURLSHOPT_SHARE and CURLSHOPT_UNSHARE, whose argument is a `curl_lock_data` read as an `int`.
static inline CURLSHcode nlcurl_share_setopt_data(CURLSH *handle, CURLSHoption option, curl_lock_data value) {
    return curl_share_setopt(handle, option, value);
}

/// Frees the calling thread's OpenSSL state (its random generators and error queue) now, when
/// libcurl uses OpenSSL, rather than when the thread exits. OpenSSL frees it at thread exit only
/// while its own exit-time cleanup has not run: a thread that ends after the process began to
/// exit loses it, which AddressSanitizer reports as a leak. Looked up at run time, so that a
/// libcurl built on another TLS library needs no OpenSSL.
static inline void nlcurl_release_thread_tls_state(void) {
#if defined(RTLD_DEFAULT)
    void *everywhere = RTLD_DEFAULT;
#else
    void *everywhere = (void *)0; /* glibc's RTLD_DEFAULT, defined only under _GNU_SOURCE */
#endif
    void (*stop)(void) = (void (*)(void))dlsym(everywhere, "OPENSSL_thread_stop");
    if (stop != 0) {
        stop();
    }
}

/// Asks libcurl not to wait for a host name lookup's thread when a transfer is removed
/// (CURLOPT_QUICK_EXIT, libcurl 7.87 and later): removing a transfer still resolving otherwise
/// joins that thread on the engine's thread, and every other transfer waits for the lookup.
/// With an older libcurl's headers it does nothing and says so (CURLE_UNKNOWN_OPTION).
static inline CURLcode nlcurl_easy_set_quick_exit(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075700
    return curl_easy_setopt(handle, CURLOPT_QUICK_EXIT, 1L);
#else
    (void)handle;
    return CURLE_UNKNOWN_OPTION;
#endif
}

/// CURLOPT_PREREQFUNCTION's callback: libcurl calls it once a transfer has a connection, new or
/// reused, right before it sends the request.
typedef int (*nlcurl_prereq_callback)(void *data, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// Sets CURLOPT_PREREQDATA and CURLOPT_PREREQFUNCTION (libcurl 7.80 and later). With older
/// headers it does nothing and says so (CURLE_UNKNOWN_OPTION), as an older libcurl does.
static inline CURLcode nlcurl_easy_set_prereq(CURL *handle, void *data, nlcurl_prereq_callback callback) {
#if LIBCURL_VERSION_NUM >= 0x075000
    CURLcode code = curl_easy_setopt(handle, CURLOPT_PREREQDATA, data);
    if (code != CURLE_OK) {
        return code;
    }
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
#else
    (void)handle;
    (void)data;
    (void)callback;
    return CURLE_UNKNOWN_OPTION;
#endif
}

/// What a pre-request callback returns to let the request go (CURL_PREREQFUNC_OK).
static const int nlcurl_prereqfunc_ok = 0;

/// What a write callback returns to pause receiving (CURL_WRITEFUNC_PAUSE).
static const size_t nlcurl_writefunc_pause = CURL_WRITEFUNC_PAUSE;
/// What a read callback returns to fail the transfer (CURL_READFUNC_ABORT).
static const size_t nlcurl_readfunc_abort = CURL_READFUNC_ABORT;
/// curl_easy_pause's bit mask to resume both directions (CURLPAUSE_CONT).
static const int nlcurl_pause_continue = CURLPAUSE_CONT;
/// Seek callback results.
static const int nlcurl_seekfunc_ok = CURL_SEEKFUNC_OK;
static const int nlcurl_seekfunc_cantseek = CURL_SEEKFUNC_CANTSEEK;
/// The size of the buffer CURLOPT_ERRORBUFFER writes to.
static const int nlcurl_error_size = CURL_ERROR_SIZE;
/// curl_global_init's flags for a normal program (CURL_GLOBAL_DEFAULT).
static const long nlcurl_global_default = CURL_GLOBAL_DEFAULT;

#endif
