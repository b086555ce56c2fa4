/*
 * Loaded with LD_PRELOAD by CurlResolverStallTests: a lookup of slow.networklayer.test takes
 * NETWORKLAYER_SLOW_RESOLVER_SECONDS (5 by default) and answers 127.0.0.1, so that a transfer
 * can be cancelled while libcurl's resolver thread is busy. Every other name is looked up as
 * usual; nothing leaves the machine. Scripts/test builds it with the toolchain's clang.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*lookup_function)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **result) {
    lookup_function system_lookup = (lookup_function)dlsym(RTLD_NEXT, "getaddrinfo");
    if (system_lookup == NULL) {
        return EAI_SYSTEM;
    }
    if (node != NULL && strcmp(node, "slow.networklayer.test") == 0) {
        const char *seconds = getenv("NETWORKLAYER_SLOW_RESOLVER_SECONDS");
        sleep(seconds != NULL ? (unsigned)atoi(seconds) : 5);
        return system_lookup("127.0.0.1", service, hints, result);
    }
    return system_lookup(node, service, hints, result);
}
